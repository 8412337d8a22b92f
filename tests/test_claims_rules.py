"""Rules about one row: when a claim needs an editor, when a suggestion is better,
when a source is fresh, why a citation cannot be checked."""
from __future__ import annotations

from datetime import timedelta

from django.test import SimpleTestCase, override_settings
from django.utils import timezone

from sideapp.claims.models import Citation, Claim
from sideapp.claims.suggestions import is_better
from sideapp.sources.models import Source, SourceDocument
from verifier_core.verification import SourceVerdict, Verdict
from verifier_core.verification.judgement.verdicts import HIGH, LOW


def candidate(score: float, verdict: Verdict) -> SourceVerdict:
    return SourceVerdict(score=score, verdict=verdict, method="test", model_version="test")


class FlagRuleTests(SimpleTestCase):
    def rule(self, verdict, confidence=HIGH, needs_citation=False):
        return Claim.flag_rule(verdict=verdict, confidence=confidence, needs_citation=needs_citation)

    def test_the_default_list_holds_confident_failures_and_missing_citations(self):
        self.assertEqual(self.rule(Verdict.NOT_SUPPORTED, HIGH), (True, False))
        self.assertEqual(self.rule(Verdict.SUPPORTED, HIGH, needs_citation=True), (True, False))
        self.assertEqual(self.rule("", "", needs_citation=True), (True, False))

    def test_it_leaves_sources_that_could_not_be_read_out_of_the_flagged_and_needs_a_look_lists(self):
        self.assertEqual(self.rule(Verdict.SOURCE_UNAVAILABLE, HIGH), (False, False))
        self.assertEqual(self.rule(Verdict.SOURCE_UNAVAILABLE, LOW), (False, False))

    def test_it_still_searches_better_sources_for_claims_whose_source_could_not_be_read(self):
        self.assertTrue(Claim.wants_suggestions(verdict=Verdict.SOURCE_UNAVAILABLE, flagged=False, needs_look=False))
        self.assertFalse(Claim.wants_suggestions(verdict=Verdict.SUPPORTED, flagged=False, needs_look=False))

    def test_partial_support_and_unsure_failures_need_a_look_but_are_not_flagged(self):
        self.assertEqual(self.rule(Verdict.PARTIALLY_SUPPORTED, LOW), (False, True))
        self.assertEqual(self.rule(Verdict.PARTIALLY_SUPPORTED, HIGH), (False, True))
        self.assertEqual(self.rule(Verdict.NOT_SUPPORTED, LOW), (False, True))

    def test_a_claim_called_supported_is_no_triage_item_whatever_the_confidence(self):
        self.assertEqual(self.rule(Verdict.SUPPORTED, LOW), (False, False))

    def test_a_confidently_supported_claim_with_a_citation_stays_quiet(self):
        self.assertEqual(self.rule(Verdict.SUPPORTED, HIGH), (False, False))

    def test_a_claim_that_was_never_judged_is_not_flagged(self):
        self.assertFalse(Claim.needs_editor(verdict="", needs_citation=False))


class BetterSuggestionTests(SimpleTestCase):
    """The app's is_better calls verifier_core's one rule (tests/test_verification_rules.py)."""

    def test_a_supporting_candidate_that_outscores_the_citation_is_better(self):
        self.assertTrue(is_better(candidate(0.8, Verdict.SUPPORTED), current=0.3))

    def test_a_candidate_scoring_below_or_equal_to_the_citation_is_not(self):
        self.assertFalse(is_better(candidate(0.3, Verdict.SUPPORTED), current=0.3))
        self.assertFalse(is_better(candidate(0.2, Verdict.SUPPORTED), current=0.3))

    def test_a_partially_supporting_candidate_is_never_better(self):
        self.assertFalse(is_better(candidate(0.6, Verdict.PARTIALLY_SUPPORTED), current=0.1))
        self.assertFalse(is_better(candidate(0.04, Verdict.NOT_SUPPORTED), current=0.03))

    def test_no_suggestion_is_better_than_a_citation_that_does_not_exist(self):
        self.assertFalse(is_better(candidate(0.9, Verdict.SUPPORTED), current=None, has_citation=False))


class SourceRuleTests(SimpleTestCase):
    @override_settings(SIDE_FETCH_MAX_AGE_DAYS=30)
    def test_a_source_is_fresh_only_when_fetched_within_the_maximum_age(self):
        now = timezone.now()
        self.assertTrue(Source(status=Source.Status.OK, fetched_at=now - timedelta(days=29)).is_fresh)
        self.assertFalse(Source(status=Source.Status.OK, fetched_at=now - timedelta(days=31)).is_fresh)
        self.assertFalse(Source(status=Source.Status.PENDING, fetched_at=now).is_fresh)

    def test_a_citation_without_a_url_says_it_has_no_online_copy(self):
        self.assertEqual(Citation(source=None).unavailable_reason, "the citation has no online copy (no URL)")

    def test_a_failed_source_says_why_in_a_sentence_and_keeps_the_detail_apart(self):
        source = Source(status=Source.Status.HTTP_ERROR, reason="HTTP 404 Not Found", http_status=404)
        self.assertEqual(Citation(source=source).unavailable_reason, "the page is no longer on the site (HTTP 404)")
        self.assertEqual(source.status_detail, "http_error: HTTP 404 Not Found")
        timeout = Source(status=Source.Status.TIMEOUT, reason="example.org sent nothing for 15s")
        self.assertEqual(timeout.unavailable_reason, "the site did not answer in time")
        self.assertIn("sent nothing for 15s", timeout.status_detail)

    def test_an_archive_copy_is_offered_from_the_ref_or_from_an_earlier_read(self):
        dead = Source(url="https://gone.example/a", status=Source.Status.DNS_ERROR, reason="cannot resolve")
        self.assertEqual(Citation(source=dead, archive_url="https://web.archive.org/web/2019/https://gone.example/a")
                         .archive_copy_url, "https://web.archive.org/web/2019/https://gone.example/a")
        self.assertEqual(Citation(source=dead).archive_copy_url, "")
        dead.document = SourceDocument(fetched_at=timezone.now().replace(year=2024, month=3, day=5))
        self.assertEqual(Citation(source=dead).archive_copy_url,
                         "https://web.archive.org/web/20240305/https://gone.example/a")
