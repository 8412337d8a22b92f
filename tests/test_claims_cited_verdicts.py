"""A verdict per citation: the claim's verdict combines its citations' own (supported when
together they support it), its reason names the ones that fail it, and every page shows
each citation with its own verdict, never the claim's."""
from __future__ import annotations

from types import SimpleNamespace

from django.test import SimpleTestCase, TestCase
from django.urls import reverse

from sideapp.claims.combine import Cited, citation_name, reasons_with_citations, speaking_for, stronger_alone
from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.judgement.reasons import words

QUOTED = [Reason(ReasonKind.QUOTE, sentence="In 1931 ...").to_json()]
FIGURE = [Reason(ReasonKind.FIGURE, thing="the date the tower was first lit", given="1 October 1862",
                 claimed="1 October 1872").to_json()]
SUPPORTS = [Reason(ReasonKind.SUPPORTED).to_json()]
NOTHING = [Reason(ReasonKind.NO_STATEMENT).to_json()]


def reason_with_citations(reasons, verdict, cited, speaker=None) -> str:
    return words(reasons_with_citations(reasons, verdict, cited, speaker))
from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.verification import claim_verify
from sideapp.claims.wording import cited_words, found_better
from sideapp.models import Citation, RevisionClaim
from tests.annotation_support import _source, article
from tests.users import CastMixin
from verifier_core.verification.judgement.verdicts import HIGH, LOW

CLAIM = "The paraffin lamp of the Kellhaven light was replaced by an electric lamp in 1931."
SAYS_IT = ("For almost seventy years the keepers burned paraffin in the lamp. In 1931 the paraffin lamp of the "
           "Kellhaven light was replaced by an electric lamp, when mains electricity reached Gull Point. ") * 3
OTTERS = ("Otters have returned to the upper Arle after an absence of forty years. Volunteers counted spraint "
          "at twelve sites along the banks, and a family was filmed near the weir in the spring. ") * 3


class CombinationTests(SimpleTestCase):
    def test_a_claim_one_citation_supports_on_its_own_takes_that_verdict(self):
        visit, history = Cited("Plan your visit", "not_supported", HIGH, 0.1), Cited("Gull Point light", "supported", LOW, 0.7)
        self.assertIs(stronger_alone("partially_supported", [visit, history]), history)
        self.assertIs(stronger_alone("not_supported", [visit, history]), history)

    def test_the_union_verdict_stands_when_no_citation_alone_is_stronger(self):
        cited = [Cited("A", "partially_supported", HIGH, 0.5), Cited("B", "not_supported", HIGH, 0.1)]
        self.assertIsNone(stronger_alone("supported", cited))  # together they carry it
        self.assertIsNone(stronger_alone("partially_supported", cited))
        self.assertIsNone(stronger_alone("source_unavailable", [Cited("A", "source_unavailable", HIGH)]))

    def test_the_claims_words_are_those_of_a_source_that_carries_it(self):
        visit, history = Cited("Plan your visit", "partially_supported"), Cited("Gull Point light", "supported")
        self.assertIs(speaking_for("supported", [visit, history]), history)  # never the partial page's line
        self.assertIs(speaking_for("partially_supported", [visit, Cited("B", "not_supported")]), visit)
        self.assertIsNone(speaking_for("supported", [visit, Cited("C", "partially_supported")]))  # only together
        self.assertIsNone(speaking_for("not_supported", [Cited("A", "not_supported"), Cited("B", "not_supported")]))

    def test_of_two_supporting_citations_the_confident_one_decides(self):
        low, high = Cited("A", "supported", LOW, 0.9), Cited("B", "supported", HIGH, 0.6)
        self.assertIs(stronger_alone("not_supported", [low, high]), high)


class ReasonWordingTests(SimpleTestCase):
    def test_a_citation_that_supports_no_part_is_named_beside_the_one_that_does(self):
        reason = reason_with_citations(QUOTED, "supported",
                                       [Cited("Plan your visit", "not_supported"), Cited("Gull Point light", "supported")])
        self.assertEqual(reason, "the source says it: “In 1931 ...”; “Gull Point light” supports it; "
                                 "“Plan your visit” supports no part of it")

    def test_the_reason_of_the_source_that_carries_the_claim_names_it_in_place_of_the_source(self):
        visit, history = Cited("Plan your visit", "not_supported"), Cited("Gull Point light", "supported")
        reason = reason_with_citations(QUOTED, "supported", [visit, history], history)
        self.assertEqual(reason, "“Gull Point light” says it: “In 1931 ...”; “Plan your visit” supports no part of it")
        self.assertEqual(reason_with_citations(SUPPORTS, "supported", [history], history), "the source supports the claim")

    def test_a_citation_that_gives_another_figure_contradicts_the_claim_rather_than_supporting_no_part(self):
        figure = "the source gives the date the tower was first lit as 1 October 1862, not 1 October 1872"
        self.assertEqual(words(FIGURE), figure)
        cited = [Cited("History", "not_supported", HIGH, 0.1, contradicts=True),
                 Cited("Gull Point light", "not_supported", HIGH, 0.1, contradicts=True)]
        self.assertEqual(reason_with_citations(FIGURE, "not_supported", cited),
                         f"{figure}; “History” and “Gull Point light” contradict it")
        cited = [Cited("History", "not_supported", contradicts=True), Cited("Plan your visit", "not_supported")]
        self.assertEqual(reason_with_citations(FIGURE, "not_supported", cited),
                         f"{figure}; “History” contradicts it; “Plan your visit” supports no part of it")

    def test_one_citation_adds_nothing_to_its_own_reason(self):
        self.assertEqual(reason_with_citations(NOTHING, "not_supported", [Cited("Stone", "not_supported")]),
                         words(NOTHING))

    def test_citations_that_all_support_it_are_not_listed(self):
        self.assertEqual(reason_with_citations(SUPPORTS, "supported", [Cited("A", "supported"), Cited("B", "supported")]),
                         "the source supports the claim")

    def test_several_failing_citations_read_as_one_list(self):
        cited = [Cited("A", "not_supported"), Cited("B", "not_supported"), Cited("C", "not_supported")]
        self.assertEqual(reason_with_citations(NOTHING, "not_supported", cited),
                         f"{words(NOTHING)}; “A”, “B” and “C” support no part of it")

    def test_partial_and_unreadable_citations_say_so_by_name(self):
        cited = [Cited("A", "partially_supported"), Cited("B", "not_supported"), Cited("C", "source_unavailable")]
        self.assertEqual(reason_with_citations([], "partially_supported", cited),
                         "“A” supports part of it; “B” supports no part of it; “C” could not be read")

    def test_a_citation_is_named_by_its_title_else_its_work_or_url_and_a_long_title_is_cut(self):
        cite = lambda **kw: SimpleNamespace(**{"title": "", "work": "", "url": "", **kw})  # noqa: E731
        self.assertEqual(citation_name(cite(title="  Plan  your visit ")), "Plan your visit")
        self.assertEqual(citation_name(cite(work="Arle Valley Gazette", url="http://x/a")), "Arle Valley Gazette")
        self.assertEqual(citation_name(cite(url="http://x/a")), "http://x/a")
        long = citation_name(cite(title="word " * 40))
        self.assertLessEqual(len(long), 70)
        self.assertTrue(long.endswith("…"))
        self.assertEqual(reason_with_citations(NOTHING, "not_supported",
                                               [Cited("", "not_supported"), Cited("B", "supported")]),
                         f"{words(NOTHING)}; an untitled citation supports no part of it")


def _claim_citing(art, revision, *pages, text: str = CLAIM) -> Claim:
    claim = Claim.objects.create(article=art, fingerprint=f"fp-{len(pages)}-{text[:8]}", text=text,
                                 first_revision=revision, last_revision=revision, current=True,
                                 verify_state=Claim.State.QUEUED)
    RevisionClaim.objects.create(revision=revision, claim=claim, position=0)
    for n, source in enumerate(pages):
        citation = Citation.objects.create(article=art, fingerprint=f"c-{source.pk}", kind="ref", raw="<ref/>",
                                           url=source.url, title=source.title, source=source)
        ClaimCitation.objects.create(claim=claim, citation=citation, position=n)
    return claim


class VerifiedWithTwoSourcesTests(TestCase):
    """The real verifier on a claim with one source that says it and one about otters."""

    @classmethod
    def setUpTestData(cls):
        cls.art, cls.revision = article("Kellhaven Lighthouse")
        cls.otters = _source("https://example.org/otters", OTTERS, "Otters on the Arle")
        cls.history = _source("https://example.org/light", SAYS_IT, "Gull Point light marks 150 years")
        cls.claim = claim_verify(claim=_claim_citing(cls.art, cls.revision, cls.otters, cls.history))

    def test_each_citation_keeps_its_own_verdict_and_the_claim_is_supported_by_them_together(self):
        own = {link.citation.title: link.verdict for link in self.claim.claim_citations.select_related("citation")}
        self.assertEqual(own, {"Otters on the Arle": "not_supported", "Gull Point light marks 150 years": "supported"})
        self.assertEqual(self.claim.verdict, "supported")
        self.assertFalse(self.claim.flagged)

    def test_the_claims_reason_names_the_source_that_supports_no_part_of_it(self):
        self.assertIn("“Otters on the Arle” supports no part of it", self.claim.verify_reason)
        self.assertIn("“Gull Point light marks 150 years”", self.claim.verify_reason)  # named as the one that says it

    def test_the_claims_evidence_is_from_the_source_that_supports_it(self):
        self.assertIn(self.claim.evidence["passage"], SAYS_IT)
        self.assertNotIn("Otters", self.claim.verify_reason.split(";")[0])

    def test_cited_words_are_the_citations_own(self):
        words = [cited_words(link) for link in self.claim.claim_citations.select_related("citation")]
        otters = next(w for w in words if w["title"] == "Otters on the Arle")
        self.assertEqual((otters["verdict"], otters["verdict_words"]), ("not_supported", "not supported"))
        self.assertNotIn("1931", otters["quote"])  # its own closest line, never the other page's
        self.assertEqual(otters["url"], "https://example.org/otters")


class ContradictedByOneOfTwoSourcesTests(TestCase):
    """The real verifier on a claim whose year one source gives otherwise and the other
    does not discuss: the first contradicts it, the second supports no part of it."""

    @classmethod
    def setUpTestData(cls):
        art, revision = article("Kellhaven Lighthouse")
        otters = _source("https://example.org/otters", OTTERS, "Otters on the Arle")
        history = _source("https://example.org/light", SAYS_IT, "Gull Point light marks 150 years")
        cls.claim = claim_verify(claim=_claim_citing(art, revision, otters, history, text=CLAIM.replace("1931", "1941")))

    def test_the_reason_names_the_source_that_gives_another_year_as_contradicting_it(self):
        self.assertEqual(self.claim.verdict, "not_supported")
        self.assertTrue(self.claim.verify_reason.startswith("the source gives the year"), self.claim.verify_reason)
        self.assertIn("as 1931, not 1941", self.claim.verify_reason)
        self.assertIn("“Gull Point light marks 150 years” contradicts it", self.claim.verify_reason)
        self.assertIn("“Otters on the Arle” supports no part of it", self.claim.verify_reason)


class NoBetterSourceTests(CastMixin, TestCase):
    """A suggestion the verifier does not find the claim in is never "a better source"."""

    def setUp(self):
        super().setUp()
        art, revision = article("River Arle")
        self.kingfisher = _source("https://example.org/kingfisher", SAYS_IT, "Kingfisher survey")
        self.claim = _claim_citing(art, revision, self.kingfisher, text="Kingfishers nest in the banks below the weir.")
        Claim.objects.filter(pk=self.claim.pk).update(verdict="not_supported", confidence=HIGH, flagged=True,
                                                      verify_state="done", suggest_state="done")
        self.otters = _source("https://example.org/otters-page", OTTERS, "Otters on the Arle")
        Suggestion.objects.create(claim=self.claim, rank=1, url=self.otters.url, title="Otters on the Arle",
                                  source=self.otters, score=0.3, verdict="not_supported", beats_current=False)
        self.claim.refresh_from_db()

    def test_a_page_that_does_not_support_the_claim_is_no_better_source(self):
        self.assertFalse(found_better(self.claim, list(self.claim.suggestions.all())))
        self.client.force_login(self.users["editor"])
        page = self.client.get(reverse("claim_detail", args=[self.claim.pk])).content.decode()
        self.assertIn("No better source was found", page)
        self.assertIn("Pages found that do not support the claim", page)
        self.assertNotIn("better than the current citation", page)

    def test_a_supporting_page_that_outscores_the_citation_is_one(self):
        Suggestion.objects.filter(claim=self.claim).update(verdict="supported", beats_current=True, score=0.9)
        self.assertTrue(found_better(self.claim, list(self.claim.suggestions.all())))
        self.client.force_login(self.users["editor"])
        page = self.client.get(reverse("claim_detail", args=[self.claim.pk])).content.decode()
        self.assertNotIn("No better source was found", page)
        self.assertIn("better than the current citation", page)
