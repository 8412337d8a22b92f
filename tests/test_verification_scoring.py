"""Scoring a citation: scores, evidence, verdicts, several citations, the cache."""
from __future__ import annotations

from django.test import SimpleTestCase

from tests.verification_support import (
    CLAIM_TOWER,
    SOURCE_HEIGHT_ONLY,
    SOURCE_OPENING_ONLY,
    SOURCE_TOWER,
    SOURCE_UNRELATED,
    TITLE_TOWER,
    ShippedVerifierTestCase,
    shared_checkpoint,
)
from verifier_core.verification import VERDICTS, ClaimInput, Evidence, Verifier
from verifier_core.verification.evidence.quote import verbatim

CLAIM = ClaimInput(CLAIM_TOWER, title=TITLE_TOWER)


class CheckpointTestCase(SimpleTestCase):
    """One small checkpoint and one Verifier per class (loading is the slow part)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import torch

        torch.set_num_threads(2)
        cls.verifier = Verifier.load(shared_checkpoint())


class ScoreSourceTests(CheckpointTestCase):
    def test_it_scores_a_supporting_source_above_an_unrelated_one(self):
        good = self.verifier.score_source(CLAIM, SOURCE_TOWER)
        bad = self.verifier.score_source(CLAIM, SOURCE_UNRELATED)
        self.assertGreater(good.score, bad.score)
        self.assertEqual(good.verdict, "supported")
        self.assertEqual(bad.verdict, "not_supported")

    def test_it_returns_a_score_in_the_unit_interval_and_a_known_verdict(self):
        for text in (SOURCE_TOWER, SOURCE_HEIGHT_ONLY, SOURCE_UNRELATED):
            verdict = self.verifier.score_source(CLAIM, text)
            self.assertGreaterEqual(verdict.score, 0.0)
            self.assertLessEqual(verdict.score, 1.0)
            self.assertIn(verdict.verdict, VERDICTS)
            self.assertEqual(verdict.method, "cross-encoder")
            self.assertEqual(verdict.model_version, self.verifier.model_version)

    def test_it_ranks_passages_best_first_with_offsets_into_the_source(self):
        verdict = self.verifier.score_source(CLAIM, SOURCE_TOWER)
        scores = [p.score for p in verdict.passage_scores]
        self.assertEqual(scores, sorted(scores, reverse=True))
        for p in verdict.passage_scores:
            self.assertTrue(0 <= p.start < p.end <= len(SOURCE_TOWER))

    def test_it_gives_class_probabilities_that_sum_to_one(self):
        probs = self.verifier.score_source(CLAIM, SOURCE_TOWER).probabilities
        self.assertEqual(set(probs), {"supported", "partially_supported", "not_supported"})
        self.assertAlmostEqual(sum(probs.values()), 1.0, places=6)

    def test_it_reranks_candidates_best_first(self):
        ranked = self.verifier.rerank(CLAIM, [SOURCE_UNRELATED, SOURCE_TOWER, SOURCE_OPENING_ONLY])
        self.assertEqual(ranked[0][0], 1)
        self.assertEqual(ranked[-1][0], 0)

    def test_the_rerank_judges_each_candidate_as_score_source_does_one_by_one(self):
        # The rerank reads all candidates' passages in one cross-encoder run (and a passage
        # two candidates share once); each candidate must come out as if scored alone.
        candidates = [SOURCE_UNRELATED, SOURCE_TOWER, "", SOURCE_OPENING_ONLY, SOURCE_TOWER, SOURCE_HEIGHT_ONLY]
        alone = Verifier.load(shared_checkpoint())  # a cold cache: every pair scored on its own
        expected = [alone.score_source(CLAIM, text) for text in candidates]
        together = dict(self.verifier.rerank(CLAIM, candidates))
        for n, want in enumerate(expected):
            got = together[n]
            self.assertEqual((got.verdict, got.reason, got.evidence), (want.verdict, want.reason, want.evidence))
            self.assertAlmostEqual(got.score, want.score, places=5)
            self.assertEqual([(p.start, p.end) for p in got.passage_scores],
                             [(p.start, p.end) for p in want.passage_scores])


class EvidenceTests(CheckpointTestCase):
    def test_evidence_offsets_index_the_source_verbatim(self):
        ev = self.verifier.score_source(CLAIM, SOURCE_TOWER).evidence
        self.assertIsNotNone(ev)
        self.assertEqual(SOURCE_TOWER[ev.start : ev.end], ev.passage)
        for sentence, (a, b) in zip(ev.sentences, ev.sentence_spans):
            self.assertEqual(SOURCE_TOWER[a:b], sentence)
            self.assertIn(sentence, ev.passage)

    def test_evidence_sentences_are_the_ones_that_carry_the_claim(self):
        ev = self.verifier.score_source(CLAIM, SOURCE_TOWER).evidence
        joined = " ".join(ev.sentences)
        self.assertIn("212 metres", joined)
        self.assertIn("1994", joined)
        self.assertNotIn("Tickets", joined)

    def test_evidence_json_has_exactly_the_contract_keys(self):
        ev = self.verifier.score_source(CLAIM, SOURCE_TOWER).evidence
        self.assertEqual(set(ev.to_json()), {"passage", "sentences", "start", "end"})

    def test_the_verbatim_check_rejects_evidence_the_source_does_not_contain(self):
        good = Evidence("The Harbour Tower", ["The Harbour Tower"], 0, 17, [(0, 17)])
        source = "The Harbour Tower is tall."
        self.assertTrue(verbatim(source, good))
        moved = Evidence("The Harbour Tower", ["The Harbour Tower"], 1, 18, [(1, 18)])
        invented = Evidence("The Harbour Tower", ["is 300 metres tall"], 0, 17, [(0, 17)])
        self.assertFalse(verbatim(source, moved))
        self.assertFalse(verbatim(source, invented))


class SeveralCitationsTests(CheckpointTestCase):
    def test_two_partial_sources_together_support_the_claim(self):
        result = self.verifier.score_claim(CLAIM, [SOURCE_HEIGHT_ONLY, SOURCE_OPENING_ONLY])
        own = [s.score for s in result.sources]
        self.assertEqual(len(own), 2)
        self.assertGreater(result.score, max(own))
        self.assertEqual(result.verdict, "supported")

    def test_each_citation_keeps_its_own_score(self):
        result = self.verifier.score_claim(CLAIM, [SOURCE_TOWER, SOURCE_UNRELATED])
        alone = [self.verifier.score_source(CLAIM, s).score for s in (SOURCE_TOWER, SOURCE_UNRELATED)]
        self.assertAlmostEqual(result.sources[0].score, alone[0], places=6)
        self.assertAlmostEqual(result.sources[1].score, alone[1], places=6)
        self.assertEqual(result.sources[1].verdict, "not_supported")

    def test_the_union_shows_evidence_from_every_contributing_source(self):
        result = self.verifier.score_claim(CLAIM, [SOURCE_HEIGHT_ONLY, SOURCE_OPENING_ONLY])
        shown = " ".join(s for ev in result.evidence for s in ev.sentences)
        self.assertIn("212 metres", shown)
        self.assertIn("1994", shown)

    def test_an_unavailable_citation_does_not_sink_the_others(self):
        result = self.verifier.score_claim(CLAIM, [SOURCE_TOWER, ""])
        self.assertEqual(result.sources[1].verdict, "source_unavailable")
        self.assertEqual(result.verdict, "supported")


class CacheTests(CheckpointTestCase):
    def test_a_repeated_claim_and_passage_is_served_from_the_cache(self):
        claim = ClaimInput("The tower's lifts run every ten minutes.", title=TITLE_TOWER)
        first = self.verifier.score_source(claim, SOURCE_TOWER)
        hits = self.verifier.cache.hits
        second = self.verifier.score_source(claim, SOURCE_TOWER)
        self.assertGreater(self.verifier.cache.hits, hits)
        self.assertEqual(first.score, second.score)

    def test_cache_keys_depend_on_model_version_claim_and_passage(self):
        from verifier_core.verification.model.cache import cache_key

        base = cache_key("v1", "claim", "title", "passage")
        self.assertNotEqual(base, cache_key("v2", "claim", "title", "passage"))
        self.assertNotEqual(base, cache_key("v1", "claim2", "title", "passage"))
        self.assertNotEqual(base, cache_key("v1", "claim", "title", "passage2"))
        self.assertNotEqual(cache_key("v", "ab", "c"), cache_key("v", "a", "bc"))


class ShippedCheckpointTests(ShippedVerifierTestCase):
    """The committed models/verifier/ behaves sensibly on hand-written examples."""

    def test_the_shipped_model_is_the_cross_encoder(self):
        self.assertEqual(self.verifier.method, "cross-encoder")
        self.assertTrue(self.verifier.model_version.startswith("cross-encoder:"))

    def test_the_shipped_model_separates_support_from_an_unrelated_page(self):
        good = self.verifier.score_source(CLAIM, SOURCE_TOWER)
        bad = self.verifier.score_source(CLAIM, SOURCE_UNRELATED)
        self.assertGreater(good.score, bad.score + 0.3)
        self.assertEqual(bad.verdict, "not_supported")
        self.assertNotEqual(good.verdict, "not_supported")
