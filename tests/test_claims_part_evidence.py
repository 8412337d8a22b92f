"""Each part of a claim with the lines of its source that hold it, as the real verifier judges
it: stored on the claim and its citation, one line per part on the claim page, in the
findings API's `citations[].parts[]` (and the claim's own `parts`), escaped."""
from __future__ import annotations

from django.test import TestCase
from django.urls import reverse

from sideapp.api.findings import claim_finding
from sideapp.claims.models import Claim, ClaimCitation
from sideapp.claims.verification import claim_verify
from sideapp.claims.wording import quote_of
from sideapp.models import Citation, RevisionClaim
from tests.annotation_support import _source, article
from tests.users import CastMixin

CLAIM = "The Kellhaven Rowing Club was founded by dock workers, and its women's section was formed in 1921."
PAGE = """Kellhaven Rowing Club history
The Kellhaven Rowing Club was founded by dock workers on the river Arle.
Its boathouse stands beside the old ferry slip, and members row every morning in summer.
The club bought its first racing eight from a yard in Lowick.
In 1921 the club formed a women's section, the first on the coast.
Today the club has 220 members and a junior squad of 60 rowers.
"""
FOUNDED = "The Kellhaven Rowing Club was founded by dock workers on the river Arle."
WOMEN = "In 1921 the club formed a women's section, the first on the coast."


def verified(text: str = CLAIM, page: str = PAGE) -> Claim:
    art, revision = article("Kellhaven Rowing Club")
    source = _source("https://example.org/rowing", page, "Club history <b>1921</b>")
    claim = Claim.objects.create(article=art, fingerprint="fp-rowing", text=text, first_revision=revision,
                                 last_revision=revision, current=True, verify_state=Claim.State.QUEUED)
    RevisionClaim.objects.create(revision=revision, claim=claim, position=0)
    citation = Citation.objects.create(article=art, fingerprint="c-rowing", kind="ref", raw="<ref/>", url=source.url,
                                       title=source.title, source=source)
    ClaimCitation.objects.create(claim=claim, citation=citation, position=0)
    return claim_verify(claim=claim)


class PartEvidenceStoredTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.claim = verified()

    def test_each_part_is_stored_with_the_lines_that_hold_it(self):
        parts = self.claim.parts
        self.assertEqual(len(parts), 2)
        self.assertIn(FOUNDED, parts[0]["evidence"]["sentences"])
        self.assertIn(WOMEN, parts[1]["evidence"]["sentences"])
        link = self.claim.claim_citations.get()
        self.assertEqual([p["evidence"] for p in link.parts], [p["evidence"] for p in parts])

    def test_the_evidence_holds_every_parts_lines_in_page_order_and_keeps_its_quote(self):
        evidence = self.claim.evidence
        self.assertLessEqual({FOUNDED, WOMEN}, set(evidence["sentences"]))
        self.assertEqual(evidence["sentences"], sorted(evidence["sentences"], key=PAGE.index))
        self.assertEqual([PAGE[a:b] for a, b in evidence["sentence_spans"]], evidence["sentences"])
        self.assertIn(quote_of(evidence), evidence["sentences"])

    def test_the_claim_page_shows_one_line_per_part_with_its_own_lines(self):
        self.client.force_login(self.users["editor"])
        page = self.client.get(reverse("claim_detail", args=[self.claim.pk])).content.decode()
        self.assertEqual(page.count('data-side-part="'), 2)
        first = page[page.index('data-side-part="0"'):page.index('data-side-part="1"')]
        self.assertIn("The Kellhaven Rowing Club was founded by dock workers", first)
        self.assertIn(f'<q class="part-line">{FOUNDED}</q>', first)
        second = page[page.index('data-side-part="1"'):]
        self.assertIn("In 1921 the club formed a women&#x27;s section, the first on the coast.", second)

    def test_the_findings_give_each_citation_its_parts_with_verdict_and_sentences(self):
        finding = claim_finding(self.claim, None, "/claims/1/")
        parts = finding["citations"][0]["parts"]
        self.assertEqual([set(p) for p in parts], [{"text", "verdict", "sentences"}] * 2)
        self.assertEqual(parts[0]["text"], "The Kellhaven Rowing Club was founded by dock workers")
        self.assertIn(FOUNDED, parts[0]["sentences"])
        self.assertIn(WOMEN, parts[1]["sentences"])
        self.assertTrue(all(p["verdict"] for p in parts))
        self.assertEqual(finding["parts"], parts)  # one citation: the claim's parts are its own
        self.assertIn(finding["citations"][0]["quote"], PAGE)


class PartWithoutLinesTests(CastMixin, TestCase):
    def test_a_part_no_line_holds_says_so_and_markup_in_a_line_is_escaped(self):
        page = PAGE.replace("dock workers on", "<b>dock workers</b> on")
        claim = verified("The Kellhaven Rowing Club was founded by dock workers, and it was painted by Turner in 1850.",
                         page)
        turner = next(p for p in claim.parts if "Turner" in p["text"])
        self.assertEqual(turner["evidence"]["sentences"], [])
        self.client.force_login(self.users["editor"])
        html = self.client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
        self.assertIn("no line of the source holds it", html)
        self.assertNotIn("<b>dock workers</b>", html)
        self.assertIn("&lt;b&gt;dock workers&lt;/b&gt;", html)
