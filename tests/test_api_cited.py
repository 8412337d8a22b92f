"""The public API names each citation with its own verdict: findings' citations[] carry their
own verdict, confidence, quote and reason; Edit Check answers one card per failing citation
and none once the claim's sources together support it; a claim that needs a source is placed
before its {{citation needed}} tag. Against the real test MediaWiki."""
from __future__ import annotations

import json

from django.test import SimpleTestCase, TestCase

from sideapp.api.targets import locate
from sideapp.models import Claim
from tests.api_support import PAGE, WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page
from verifier_core.wikitext.rendered import rendered_page, tagged_target

NEEDS = PAGE.replace("It is made of red stone.<ref>{{cite web |url=http://127.0.0.1:9/stone |title=Stone}}</ref>",
                     "It was painted green in 1950.{{citation needed|date=May 2024}}")


def judge_each(claim: Claim, verdict: str, by_title: dict[str, tuple[str, str]]) -> Claim:
    """The claim judged `verdict` as a whole, and each citation (by title) its own (verdict, quote)."""
    judge(claim, verdict, reason="the claim's own reason")
    for link in claim.claim_citations.select_related("citation"):
        own, quote = by_title[link.citation.title]
        link.verdict, link.confidence, link.reason = own, "high", f"{link.citation.title}'s own reason"
        link.evidence = {"passage": quote, "sentences": [quote], "start": 0, "end": len(quote)}
        link.save()
    return claim


class CitedFindingsTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.article = scanned_page(self.server, fresh_title("Side cited"))
        self.span = Claim.objects.get(article=self.article, text__startswith="Its span")

    def findings(self) -> dict:
        return self.client.get("/api/v1/findings", {"wiki_id": "sidewiki", "page_id": self.article.page_id}).json()

    def predict(self) -> list:
        return self.client.post("/v1/models/editing-suggestions:predict", json.dumps(
            {"wiki_id": "sidewiki", "page_id": self.article.page_id}), content_type="application/json").json()

    def test_each_citation_carries_its_own_verdict_confidence_quote_and_reason(self):
        judge_each(self.span, "supported", {"Span": ("not_supported", "A bridge of 90 metres."),
                                            "Span two": ("supported", "Its span is 120 metres long.")})
        claim = next(c for c in self.findings()["claims"] if c["id"] == self.span.pk)
        self.assertEqual(claim["verdict"], "supported")  # listed: a reader may ask for all checks
        self.assertEqual([(c["title"], c["verdict"], c["confidence"], c["quote"], c["reason"]) for c in claim["citations"]],
                         [("Span", "not_supported", "high", "A bridge of 90 metres.", "Span's own reason"),
                          ("Span two", "supported", "high", "Its span is 120 metres long.", "Span two's own reason")])

    def test_edit_check_says_nothing_of_a_claim_its_sources_support_together(self):
        judge_each(self.span, "supported", {"Span": ("not_supported", "A bridge of 90 metres."),
                                            "Span two": ("supported", "Its span is 120 metres long.")})
        self.assertEqual(self.predict(), [])
        forget_api_cache()
        Claim.objects.filter(pk=self.span.pk).update(verdict="partially_supported")
        cards = self.predict()
        self.assertEqual([(c["title"], c["quote"], c["comments"]) for c in cards],
                         [("Span", "A bridge of 90 metres.", "Span's own reason")])  # one per failing citation


class NeedsSourceTargetTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.article = scanned_page(self.server, fresh_title("Side needs"), NEEDS)
        self.green = Claim.objects.get(article=self.article, text__startswith="It was painted green")

    def test_a_claim_that_needs_a_source_is_placed_before_its_tag(self):
        self.assertTrue(self.green.needs_citation)
        answer = self.client.get("/api/v1/findings", {"wiki_id": "sidewiki", "page_id": self.article.page_id}).json()
        claim = next(c for c in answer["claims"] if c["id"] == self.green.pk)
        self.assertEqual((claim["target"], claim["after"], claim["needs_citation"]),
                         ("It was painted green in 1950.", None, True))
        self.assertEqual(claim["citations"], [])


class TaggedTargetTests(SimpleTestCase):
    """The rendered page's {{citation needed}} tags, read from HTML as MediaWiki writes it."""

    HTML = ('<div class="mw-parser-output"><p>It opened in 1931.<sup id="cite_ref-1" class="reference">'
            '<a href="#cite_note-1">[1]</a></sup> It was painted green in 1950.<sup class="noprint Inline-Template '
            'Template-Fact">[<i><a href="/wiki/Wikipedia:Citation_needed"><span>citation needed</span></a></i>]</sup>'
            ' It was painted green in 1950.<sup class="noprint Inline-Template">[<i>citation needed</i>]</sup></p>'
            '<ol class="references"><li id="cite_note-1"><a class="external" href="http://x/o">O</a></li></ol></div>')

    def test_each_claim_is_placed_before_its_own_tag_and_a_tag_serves_one_claim(self):
        page = rendered_page(self.HTML)
        self.assertEqual(len(page.tags), 2)
        first = tagged_target(page, text="It was painted green in 1950.")
        second = tagged_target(page, text="It was painted green in 1950.", used={first[0]})
        self.assertEqual((first[0], second[0]), (0, 1))
        self.assertEqual(first[1].text, "It was painted green in 1950.")
        self.assertIsNone(tagged_target(page, text="The tower is painted red."))

    def test_located_claims_keep_their_footnotes_and_tagged_ones_have_none(self):
        found = locate(self.HTML, [(1, "It opened in 1931.", ["http://x/o"])],
                       [(2, "It was painted green in 1950."), (3, "It was painted green in 1950.")])
        self.assertEqual(found[1]["after"], "cite_ref-1")
        self.assertEqual((found[2]["after"], found[3]["after"], found[2]["text"]),
                         (None, None, "It was painted green in 1950."))
