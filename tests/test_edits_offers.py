"""The one rule of which edits are offered (sideapp.claims.offers), case by case on plain
facts: tag, replace and add, and the suggestions an editor could use."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from django.test import SimpleTestCase

from sideapp.claims.offers import (
    ADD,
    REPLACE,
    CitedFacts,
    ClaimFacts,
    SuggestionFacts,
    correct_decision,
    failing,
    suggestion_decision,
    tag_decision,
)

NOW = datetime(2026, 11, 25, 12, tzinfo=timezone.utc)
MAX_AGE = timedelta(days=30)
CITED_URL = "https://www.gazette.example/news/bridge"


def cited(verdict="not_supported", confidence="high", score=0.1, *, key=1, position=0, tagged=False,
          urls=(CITED_URL,), text_hash="cited-text", figures=None) -> CitedFacts:
    return CitedFacts(key=key, position=position, verdict=verdict, confidence=confidence, score=score,
                      tagged=tagged, urls=urls, text_hash=text_hash, figures=figures)


def claim(*links: CitedFacts, verdict="not_supported", score=0.1, current=True, needs_citation=False,
          text="The line reopened in 1994.") -> ClaimFacts:
    return ClaimFacts(current=current, needs_citation=needs_citation, verdict=verdict, score=score,
                      cited=links, text=text)


def page(url="https://other.example/bridge-history", verdict="supported", score=0.9, *, days_ago=1,
         answers=True, stored=True, text_hash="other-text") -> SuggestionFacts:
    return SuggestionFacts(url=url, verdict=verdict, score=score, stored=stored, answers=answers,
                           dead_reason="" if answers else "the page is no longer on the site (HTTP 404)",
                           fetched_at=NOW - timedelta(days=days_ago), text_hash=text_hash)


def decide(facts: ClaimFacts, suggestion: SuggestionFacts, action: str):
    return suggestion_decision(facts, suggestion, action, now=NOW, max_age=MAX_AGE)


UNREAD = cited("source_unavailable", "high", None, urls=("",), text_hash="")


class TagOfferTests(SimpleTestCase):
    def test_it_offers_the_tag_on_a_read_citation_judged_not_supported_with_high_confidence(self):
        decision = tag_decision(claim(cited()))
        self.assertTrue(decision.offered)
        self.assertEqual(decision.target.key, 1)

    def test_it_never_tags_an_offline_book_that_was_never_read(self):
        decision = tag_decision(claim(UNREAD, verdict="source_unavailable", score=None))
        self.assertFalse(decision.offered)
        self.assertIn("could not be read", decision.why_not)

    def test_it_never_tags_a_citation_of_a_claim_called_supported(self):
        facts = claim(cited(), cited("supported", score=0.9, key=2, position=1), verdict="supported", score=0.9)
        decision = tag_decision(facts)
        self.assertFalse(decision.offered)
        self.assertIn("called supported", decision.why_not)

    def test_it_never_tags_a_citation_already_tagged(self):
        decision = tag_decision(claim(cited(tagged=True)))
        self.assertFalse(decision.offered)
        self.assertIn("already tagged", decision.why_not)

    def test_a_low_confidence_or_partial_verdict_is_no_failure_to_tag(self):
        low = tag_decision(claim(cited(confidence="low"), verdict="not_supported"))
        self.assertFalse(low.offered)
        self.assertIn("not sure enough", low.why_not)
        partial = tag_decision(claim(cited("partially_supported", score=0.5), verdict="partially_supported"))
        self.assertFalse(partial.offered)
        self.assertIn("supports the claim, at least in part", partial.why_not)

    def test_the_weakest_failing_citation_is_the_one_and_an_unread_one_never_is(self):
        facts = claim(UNREAD, cited(score=0.3, key=2, position=1), cited(score=0.05, key=3, position=2))
        self.assertEqual(failing(facts).key, 3)
        self.assertEqual(tag_decision(facts).target.key, 3)

    def test_a_second_failing_citation_is_offered_once_the_weakest_is_tagged(self):
        facts = claim(cited(score=0.05, key=1, tagged=True), cited(score=0.2, key=2, position=1))
        self.assertEqual(tag_decision(facts).target.key, 2)
        self.assertTrue(tag_decision(facts).offered)
        both = claim(cited(score=0.05, key=1, tagged=True), cited(score=0.2, key=2, position=1, tagged=True))
        self.assertFalse(tag_decision(both).offered)

    def test_a_claim_no_longer_in_the_current_revision_gets_no_edit(self):
        decision = tag_decision(claim(cited(), current=False))
        self.assertFalse(decision.offered)
        self.assertIn("current scanned revision", decision.why_not)

    def test_a_claim_not_checkable_on_its_own_gets_no_edit(self):
        facts = ClaimFacts(current=True, needs_citation=False, verdict="not_supported", score=0.1,
                           cited=(cited(),), checkable=False)
        for decision in (tag_decision(facts), decide(facts, page(), ADD), decide(facts, page(), REPLACE)):
            self.assertFalse(decision.offered)
            self.assertIn("not checkable on its own", decision.why_not)


class ReplaceOfferTests(SimpleTestCase):
    def test_it_offers_to_replace_a_failing_citation_with_a_better_supporting_page(self):
        decision = decide(claim(cited()), page(), REPLACE)
        self.assertTrue(decision.offered)
        self.assertEqual(decision.target.key, 1)

    def test_it_never_replaces_a_citation_that_is_not_failing(self):
        for facts in (claim(UNREAD, verdict="source_unavailable", score=None),
                      claim(cited("partially_supported", score=0.4), verdict="partially_supported", score=0.4),
                      claim(cited(confidence="low"))):
            decision = decide(facts, page(), REPLACE)
            self.assertFalse(decision.offered, facts)
            self.assertIn("Only a citation that fails the claim is replaced", decision.why_not)
            self.assertIn("Add the source instead", decision.why_not)

    def test_a_claim_that_needs_a_citation_has_nothing_to_replace_but_gets_the_add(self):
        facts = claim(verdict="", score=None, needs_citation=True)
        self.assertFalse(decide(facts, page(), REPLACE).offered)
        self.assertTrue(decide(facts, page(score=0.4), ADD).offered)


class TaggedOnTheWikiOfferTests(SimpleTestCase):
    """A citation an editor tagged {{failed verification}} on the wiki fails its claim by a
    person's judgement: the tagged list is where an editor looks for a better source."""

    def test_a_citation_tagged_on_the_wiki_may_be_replaced_whatever_the_verifiers_doubt(self):
        for facts in (claim(cited(tagged=True)),
                      claim(cited(confidence="low", tagged=True)),
                      claim(cited("partially_supported", score=0.4, tagged=True), verdict="partially_supported",
                            score=0.4)):
            with self.subTest(facts=facts):
                decision = decide(facts, page(), REPLACE)
                self.assertTrue(decision.offered, decision.why_not)
                self.assertEqual(decision.target.key, 1)
                self.assertTrue(decide(facts, page(), ADD).offered)

    def test_the_tagged_citation_is_the_one_replaced_beside_one_that_supports(self):
        facts = claim(cited("supported", score=0.9, key=1), cited("partially_supported", score=0.3, key=2, position=1,
                                                                  tagged=True, urls=("https://b.example/",)),
                      verdict="partially_supported", score=0.3)
        self.assertEqual(failing(facts).key, 2)
        self.assertEqual(decide(facts, page(), REPLACE).target.key, 2)

    def test_a_tagged_citation_is_not_tagged_again_and_a_better_page_must_still_outscore_it(self):
        facts = claim(cited("partially_supported", score=0.4, tagged=True), verdict="partially_supported", score=0.4)
        self.assertIn("already tagged", tag_decision(facts).why_not)
        self.assertFalse(decide(facts, page(score=0.3), REPLACE).offered)


class SuggestionOfferTests(SimpleTestCase):
    def test_a_suggestion_that_does_not_itself_support_the_claim_is_not_offered(self):
        for verdict in ("partially_supported", "not_supported"):
            decision = decide(claim(cited()), page(verdict=verdict), ADD)
            self.assertFalse(decision.offered)
            self.assertIn("does not itself support", decision.why_not)

    def test_the_page_already_cited_under_another_url_is_not_offered(self):
        for url in ("http://gazette.example/news/bridge/", "https://m.gazette.example/news/bridge?utm_source=x",
                    "https://web.archive.org/web/2020/https://www.gazette.example/news/bridge"):
            for action in (ADD, REPLACE):
                decision = decide(claim(cited()), page(url), action)
                self.assertFalse(decision.offered, url)
                self.assertIn("already cites", decision.why_not)

    def test_the_same_text_under_another_address_is_not_offered(self):
        decision = decide(claim(cited()), page(text_hash="cited-text"), ADD)
        self.assertFalse(decision.offered)
        self.assertIn("same text", decision.why_not)

    def test_a_page_that_no_longer_answers_is_never_offered(self):
        decision = decide(claim(cited()), page(answers=False), ADD)
        self.assertFalse(decision.offered)
        self.assertFalse(decision.refresh)
        self.assertIn("no longer answers: the page is no longer on the site (HTTP 404)", decision.why_not)
        self.assertFalse(decide(claim(cited()), page(stored=False), ADD).offered)

    def test_a_page_read_too_long_ago_is_read_again_before_it_is_offered(self):
        decision = decide(claim(cited()), page(days_ago=31), ADD)
        self.assertFalse(decision.offered)
        self.assertTrue(decision.refresh)
        self.assertIn("last read 31 days ago", decision.why_not)
        self.assertTrue(decide(claim(cited()), page(days_ago=29), ADD).offered)

    def test_a_suggestion_scoring_below_the_current_citation_is_not_offered(self):
        facts = claim(cited("partially_supported", score=0.7), verdict="partially_supported", score=0.7)
        decision = decide(facts, page(score=0.6), ADD)
        self.assertFalse(decision.offered)
        self.assertIn("does not score above", decision.why_not)
        self.assertTrue(decide(facts, page(score=0.8), ADD).offered)

    def test_a_page_beside_an_unreadable_citation_may_be_added(self):
        facts = claim(UNREAD, verdict="source_unavailable", score=None)
        self.assertTrue(decide(facts, page(score=0.5), ADD).offered)


REOPENED = ("1994", "1996")  # a figure reason's data: the claim's figure, the page's


class CorrectFigureOfferTests(SimpleTestCase):
    def test_a_citation_failing_on_a_figure_offers_its_figure(self):
        decision = correct_decision(claim(cited(score=0.3, key=1), cited(figures=REOPENED, key=2, position=1)))
        self.assertTrue(decision.offered)
        self.assertEqual(decision.target.key, 2)

    def test_no_figure_reason_no_confidence_or_a_figure_not_in_the_claim_offers_nothing(self):
        for link, text in ((cited(figures=None), "The line reopened in 1994."),
                           (cited(confidence="low", figures=REOPENED), "The line reopened in 1994."),
                           (cited(figures=REOPENED), "The line reopened in the nineties.")):
            with self.subTest(link):
                decision = correct_decision(claim(link, text=text))
                self.assertFalse(decision.offered)
                self.assertIn("gives another figure", decision.why_not)

    def test_a_supported_claim_keeps_its_figures(self):
        decision = correct_decision(claim(cited(figures=REOPENED), cited("supported", key=2), verdict="supported"))
        self.assertFalse(decision.offered)
        self.assertIn("called supported", decision.why_not)

    def test_a_source_date_that_leaves_out_the_claims_year_is_left_to_the_editor(self):
        decision = correct_decision(claim(cited(figures=("June 4, 2013", "June 9th")),
                                          text="The bout took place on June 4, 2013."))
        self.assertFalse(decision.offered)
        self.assertIn("leaves out part of the claim's", decision.why_not)
        self.assertTrue(correct_decision(claim(cited(figures=("June 4, 2013", "June 9, 2013")),
                                               text="The bout took place on June 4, 2013.")).offered)

    def test_two_sources_giving_two_other_figures_are_left_to_the_editor(self):
        decision = correct_decision(claim(cited(figures=REOPENED), cited(figures=("1994", "1997"), key=2, position=1)))
        self.assertFalse(decision.offered)
        self.assertIn("different figures", decision.why_not)
