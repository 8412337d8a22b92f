"""The verdict rules that hold whatever the score says: contradicted figures, claim parts,
generic pages, reasons in words, and when a suggestion is better than the citation."""
from __future__ import annotations

from django.test import SimpleTestCase

from tests.verification_support import SOURCE_OPENING_ONLY, SOURCE_TOWER
from verifier_core.verification.evidence.parts import split_claim
from verifier_core.verification.judgement.reasons import is_generic_page, verdict_reason
from verifier_core.verification.judgement.suggest import suggestion_is_better
from verifier_core.verification.language.mentions import unmentioned
from verifier_core.verification.language.quantities import mismatches, quantities
from verifier_core.verification.types import Reason, ReasonKind, Verdict

RAILWAY = "The Esk Valley line closed to passengers in 1965. It reopened in 1996 after a local campaign."
BORE = "At spring tides the bore reaches 1.5 metres high near the old bridge."


def swap(text: str, old: str, new: str) -> str:
    """A FactCC-style planted error: one figure or name replaced by another."""
    assert old in text
    return text.replace(old, new, 1)


class QuantityMismatchTests(SimpleTestCase):
    def test_a_year_the_source_gives_otherwise_is_a_mismatch_in_words(self):
        found = mismatches("The Esk Valley line reopened in 1994.", RAILWAY)
        self.assertEqual([m.reason for m in found],
                         ["the source gives the year the Esk Valley line reopened as 1996, not 1994"])

    def test_a_spelled_out_quantity_is_compared_with_the_figure(self):
        found = mismatches("The bore is three metres high at spring tides.", BORE)
        self.assertEqual([m.reason for m in found],
                         ["the source gives the bore's height as 1.5 metres, not three metres"])
        # Rounded as its digits are: "2 metres" and "two metres" both may stand for 1.5.
        self.assertEqual(mismatches("The bore is two metres high at spring tides.", BORE),
                         mismatches("The bore is 2 metres high at spring tides.", BORE))

    def test_the_right_figures_raise_nothing(self):
        self.assertEqual(mismatches("The line reopened in 1996.", RAILWAY), [])
        claim = "The Harbour Tower in Port Elsin is 212 metres tall and opened in 1994."
        self.assertEqual(mismatches(claim, SOURCE_TOWER), [])

    def test_planted_swaps_from_the_same_page_are_caught(self):
        claim = "The Harbour Tower opened to visitors in 1994 after four years of construction."
        self.assertEqual(mismatches(claim, SOURCE_OPENING_ONLY), [])
        # 1996 is on the same page, but for the ferry line, not the tower.
        planted = swap(claim, "1994", "1996")
        self.assertEqual([m.source_value for m in mismatches(planted, SOURCE_OPENING_ONLY)], ["1994"])

    def test_a_figure_the_source_never_discusses_is_no_mismatch(self):
        self.assertEqual(mismatches("The tower has 45 floors.", RAILWAY), [])

    def test_quantities_keep_offsets_into_the_text(self):
        for q in quantities(RAILWAY):
            self.assertEqual(RAILWAY[q.start:q.end], q.text)


class ClaimPartTests(SimpleTestCase):
    def test_coordinated_facts_become_parts_with_offsets(self):
        claim = "The Harbour Tower in Port Elsin is 212 metres tall and opened in 1994."
        parts = split_claim(claim)
        self.assertEqual([p.text for p in parts], ["The Harbour Tower in Port Elsin is 212 metres tall", "and opened in 1994."])
        for part in parts:
            self.assertIn(part.text, claim[part.start:part.end])

    def test_a_name_list_joined_by_and_stays_one_part(self):
        self.assertEqual(len(split_claim("The album features Tom Waits and Marianne Faithfull on two songs.")), 1)

    def test_a_clause_too_short_to_be_a_fact_joins_its_neighbour(self):
        self.assertEqual(len(split_claim("He won; she lost the final race badly in 2001.")), 1)


class ReasonTests(SimpleTestCase):
    def test_a_not_supported_verdict_names_what_the_source_never_mentions(self):
        absent = unmentioned("The mill burned down in 1931.", {"mill", "burn"}, [], set())
        reason = verdict_reason(verdict=Verdict.NOT_SUPPORTED, absent=absent, figures=[],
                                weakest_part=None, evidence_sentence=None)
        self.assertEqual(reason, "no passage of the source mentions 1931")

    def test_a_mismatch_is_the_reason_whatever_the_verdict(self):
        figure = Reason(ReasonKind.FIGURE, claimed="1994", given="1996")
        reason = verdict_reason(verdict=Verdict.PARTIALLY_SUPPORTED, absent=["x"], figures=[figure], weakest_part="a",
                                evidence_sentence=None)
        self.assertEqual(reason, "the source gives 1996, not 1994")

    def test_a_partial_verdict_quotes_its_weakest_part(self):
        reason = verdict_reason(verdict=Verdict.PARTIALLY_SUPPORTED, absent=[], figures=[],
                                weakest_part="and opened in 1994", evidence_sentence=None)
        self.assertIn("“and opened in 1994”", reason)

    def test_a_front_page_is_generic_and_a_deep_link_is_not(self):
        for url in ("https://example.org", "https://example.org/", "http://example.org/index.html"):
            self.assertTrue(is_generic_page(url), url)
        for url in ("https://example.org/news/2019/tower", "https://example.org/?p=123", "", None, "not a url"):
            self.assertFalse(is_generic_page(url), url)


class SuggestionRuleTests(SimpleTestCase):
    def better(self, **kw):
        args = dict(current_score=0.3, current_verdict=Verdict.PARTIALLY_SUPPORTED, suggestion_score=0.8,
                    suggestion_verdict=Verdict.SUPPORTED, has_citation=True)
        return suggestion_is_better(**{**args, **kw})

    def test_a_supported_suggestion_that_outscores_the_citation_is_better(self):
        self.assertTrue(self.better())

    def test_it_must_outscore_the_citation(self):
        self.assertFalse(self.better(suggestion_score=0.3))
        self.assertFalse(self.better(suggestion_score=0.2))

    def test_it_must_itself_be_supported(self):
        for verdict in (Verdict.PARTIALLY_SUPPORTED, Verdict.NOT_SUPPORTED, Verdict.SOURCE_UNAVAILABLE):
            self.assertFalse(self.better(suggestion_verdict=verdict), verdict)

    def test_a_claim_without_a_citation_never_gets_the_better_tag(self):
        self.assertFalse(self.better(has_citation=False, current_score=None, current_verdict=None))

    def test_a_supported_suggestion_beats_an_unreadable_citation(self):
        self.assertTrue(self.better(current_score=None, current_verdict=Verdict.SOURCE_UNAVAILABLE))
