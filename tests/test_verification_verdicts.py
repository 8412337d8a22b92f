"""Verdicts an editor can trust, through the Verifier: contradicted figures, generic pages,
evidence spread over passages, and a reason, a confidence and parts on every verdict."""
from __future__ import annotations

from tests.test_verification_scoring import CLAIM, CheckpointTestCase
from tests.verification_support import (
    SOURCE_HEIGHT_ONLY, SOURCE_OPENING_ONLY, SOURCE_TOWER, SOURCE_UNRELATED, TITLE_TOWER, fixture_page,
)
from verifier_core.verification import ClaimInput, Verdict

# Prose about something else, long enough to push the two facts into different passages.
FILLER = " ".join(["Visitors often ask about parking, which is free after six in the evening."] * 12)


class VerdictRuleTests(CheckpointTestCase):
    def test_a_year_the_page_gives_in_a_sentence_not_naming_the_claim_s_tower_is_a_hint_to_check(self):
        # "The tower opened to visitors in 1994": the tower and Port Elsin are named two
        # sentences before, so the page is not read as contradicting the claim (a hint, never a flag).
        claim = ClaimInput(CLAIM.text.replace("1994", "1996"), title=TITLE_TOWER)
        verdict = self.verifier.score_source(claim, SOURCE_TOWER)
        self.assertEqual(verdict.confidence, "low")
        self.assertNotIn("the source gives", verdict.reason)
        self.assertIn("the page gives 1994 where the claim says 1996: check they are the same figure", verdict.reason)

    def test_a_planted_swap_from_the_same_page_is_caught(self):
        claim = ClaimInput("The Harbour Tower opened to visitors in 1996 after four years of construction.",
                           title=TITLE_TOWER)
        verdict = self.verifier.score_source(claim, SOURCE_OPENING_ONLY)
        self.assertNotEqual(verdict.verdict, Verdict.SUPPORTED)
        self.assertIn("the source gives the year the Harbour Tower opened as 1994, not 1996", verdict.reason)
        self.assertEqual(verdict.parts[-1].verdict, Verdict.NOT_SUPPORTED)

    def test_a_figure_the_page_gives_for_something_else_is_never_supported(self):
        # 1996 is on the page, in words almost as close (the tower's cafe): the sentence
        # stating the tower's opening gives 1994.
        source = ("Port Elsin timeline\n"
                  "The Harbour Tower opened to visitors in 1994 after four years of construction.\n"
                  "Tickets are sold at the entrance.\nThe Harbour Tower cafe opened in 1996 on the top floor.\n")
        planted = self.verifier.score_source(ClaimInput("The Harbour Tower opened to visitors in 1996."), source)
        self.assertNotEqual(planted.verdict, Verdict.SUPPORTED)
        self.assertIn("the source gives the year the Harbour Tower opened as 1994, not 1996", planted.reason)
        right = self.verifier.score_source(ClaimInput("The Harbour Tower opened to visitors in 1994."), source)
        self.assertNotIn("the source gives", right.reason)

    def test_a_contradicted_figure_is_a_confident_failure_quoting_the_source_s_own_line(self):
        page = fixture_page("acp-river-arle.html")
        claim = ClaimInput("Its catchment covers about 410 square kilometres, most of it upland grazing and conifer "
                           "forest.", title="River Arle")
        verdict = self.verifier.score_source(claim, page.text, meta=page.meta)
        self.assertEqual((verdict.verdict, verdict.confidence), (Verdict.NOT_SUPPORTED, "high"))
        self.assertEqual(verdict.reason, "the source gives the catchment's area as 310 square kilometres, "
                                         "not 410 square kilometres")
        self.assertEqual(verdict.evidence.sentences[0],
                         "The land that drains into the river, its catchment, covers 310 square kilometres.")

    def test_a_figure_of_another_thing_on_the_page_is_no_failure_of_this_claim(self):
        page = fixture_page("krc-history.html")  # the boathouse was built in 1894
        verdict = self.verifier.score_source(ClaimInput("The club owns a racing eight built in 1999."), page.text,
                                             meta=page.meta)
        self.assertNotIn("the source gives", verdict.reason)
        self.assertNotEqual(verdict.verdict, Verdict.SUPPORTED)

    def test_a_generic_front_page_never_gives_a_confident_verdict_of_support(self):
        deep = self.verifier.score_source(CLAIM, SOURCE_TOWER, url="https://guide.example/towers/harbour-tower")
        front = self.verifier.score_source(CLAIM, SOURCE_TOWER, url="https://guide.example/")
        self.assertEqual(deep.score, front.score)
        self.assertTrue(front.reason.startswith("cites a generic page"))
        self.assertFalse(deep.reason.startswith("cites a generic page"))
        if front.verdict == Verdict.SUPPORTED:
            self.assertEqual(front.confidence, "low")

    def test_support_spread_over_two_passages_of_one_source_counts(self):
        height, opening = SOURCE_HEIGHT_ONLY.splitlines()[1], SOURCE_OPENING_ONLY.splitlines()[1]
        spread = f"{height}\n{FILLER}\n{opening}\n"
        together = self.verifier.score_source(CLAIM, f"{height}\n{opening}\n")
        apart = self.verifier.score_source(CLAIM, spread)
        self.assertGreater(len({p.start for p in apart.passage_scores}), 1)
        self.assertEqual(apart.verdict, together.verdict)
        self.assertAlmostEqual(apart.score, together.score, delta=0.1)

    def test_a_page_about_something_else_is_confidently_not_supported(self):
        verdict = self.verifier.score_source(CLAIM, SOURCE_UNRELATED)
        self.assertEqual((verdict.verdict, verdict.confidence), (Verdict.NOT_SUPPORTED, "high"))
        self.assertTrue(verdict.reason.startswith("the source does not discuss the claim"))

    def test_every_verdict_has_a_reason_a_confidence_and_parts(self):
        for source in (SOURCE_TOWER, SOURCE_HEIGHT_ONLY, SOURCE_OPENING_ONLY):
            verdict = self.verifier.score_source(CLAIM, source)
            self.assertTrue(verdict.reason)
            self.assertIn(verdict.confidence, ("high", "low"))
            self.assertEqual([p.text for p in verdict.parts],
                             ["The Harbour Tower in Port Elsin is 212 metres tall", "and opened in 1994."])

    def test_the_claim_verdict_carries_confidence_reason_and_parts_too(self):
        result = self.verifier.score_claim(CLAIM, [SOURCE_HEIGHT_ONLY, SOURCE_OPENING_ONLY])
        self.assertIn(result.confidence, ("high", "low"))
        self.assertTrue(result.reason)
        self.assertEqual(len(result.parts), 2)
