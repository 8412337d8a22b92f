"""Reranking several claims' candidates at once: the same rankings as one claim at a time,
each distinct pair read once, and a pair read before never read again."""
from __future__ import annotations

from django.test import SimpleTestCase

from tests.verification_support import (
    CLAIM_TOWER,
    SOURCE_HEIGHT_ONLY,
    SOURCE_OPENING_ONLY,
    SOURCE_TOWER,
    SOURCE_UNRELATED,
    TITLE_TOWER,
    shared_checkpoint,
)
from verifier_core.verification import ClaimInput, Verifier

TOWER = ClaimInput(CLAIM_TOWER, title=TITLE_TOWER)
OPENING = ClaimInput("The Harbour Tower opened to visitors in 1994.", title=TITLE_TOWER)
EMPTY = ClaimInput("", title=TITLE_TOWER)  # no statement: every candidate unavailable
SEARCHES = [
    (TOWER, [SOURCE_UNRELATED, SOURCE_TOWER, "", SOURCE_OPENING_ONLY]),
    (OPENING, [SOURCE_OPENING_ONLY, SOURCE_HEIGHT_ONLY, SOURCE_TOWER, SOURCE_TOWER]),
    (EMPTY, [SOURCE_TOWER]),
    (TOWER, [SOURCE_HEIGHT_ONLY, SOURCE_TOWER]),  # the same claim again, in the same run
]


class CountingModel:
    """The cross-encoder, counting the pairs (rows) it is asked to read."""

    def __init__(self, model):
        self.model, self.rows, self.runs = model, 0, 0

    def __call__(self, **tensors):
        self.rows += int(tensors["input_ids"].shape[0])
        self.runs += 1
        return self.model(**tensors)


def fresh_verifier() -> Verifier:
    import torch

    torch.set_num_threads(2)
    verifier = Verifier.load(shared_checkpoint())  # a cold cache of its own
    verifier.model = CountingModel(verifier.model)
    return verifier


def read_pairs(verifier: Verifier, searches) -> set[tuple[str, str]]:
    """The distinct (claim, passage) pairs a rerank of `searches` has to read."""
    pairs = set()
    for claim, texts in searches:
        for text in texts:
            prepared = verifier._select(claim, text) if claim.text else None
            if prepared is not None and hasattr(prepared, "selected"):
                pairs |= {(claim.text, prepared.passages[i].text) for i in prepared.selected}
    return pairs


class RerankManyTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.alone = [fresh_verifier().rerank(claim, texts) for claim, texts in SEARCHES]

    def test_several_claims_reranked_together_rank_as_each_claim_alone(self):
        together = fresh_verifier().rerank_many(SEARCHES)
        self.assertEqual(len(together), len(SEARCHES))
        for alone, shared in zip(self.alone, together):
            self.assertEqual([n for n, _ in shared], [n for n, _ in alone])
            for (_, got), (_, want) in zip(shared, alone):
                self.assertEqual((got.verdict, got.reason, got.evidence), (want.verdict, want.reason, want.evidence))
                self.assertAlmostEqual(got.score, want.score, places=5)
                self.assertEqual([(p.start, p.end) for p in got.passage_scores],
                                 [(p.start, p.end) for p in want.passage_scores])

    def test_the_shared_run_reads_each_distinct_pair_once(self):
        verifier = fresh_verifier()
        verifier.rerank_many(SEARCHES)
        self.assertEqual(verifier.model.rows, len(read_pairs(verifier, SEARCHES)))

    def test_a_pair_read_in_an_earlier_search_is_not_read_again(self):
        verifier = fresh_verifier()
        first = verifier.rerank_many(SEARCHES[:2])
        rows = verifier.model.rows
        again = verifier.rerank_many([(OPENING, [SOURCE_TOWER, SOURCE_OPENING_ONLY]), SEARCHES[0]])
        self.assertEqual(verifier.model.rows, rows)  # every pair from the cache: no model run
        self.assertEqual([(n, v.score) for n, v in again[1]], [(n, v.score) for n, v in first[0]])


class QuantSettingTests(SimpleTestCase):
    """SIDE_VERIFIER_QUANT: the app's verifier in fp32 (as trained) or int8 (opt-in)."""

    def verifier_with(self, quant: str) -> Verifier:
        from django.test import override_settings

        from sideapp.claims.verification import verifier

        with override_settings(SIDE_VERIFIER_DIR=str(shared_checkpoint()), SIDE_VERIFIER_QUANT=quant):
            return verifier()

    def test_int8_loads_a_quantised_cross_encoder_whose_scores_never_share_fp32_cache_entries(self):
        int8, fp32 = self.verifier_with("int8"), self.verifier_with("fp32")
        self.assertIsNot(int8, fp32)
        self.assertEqual(int8.model_version, fp32.model_version + ":int8")
        self.assertTrue(any("quantized" in type(m).__module__ for m in int8.model.modules()))
        self.assertFalse(any("quantized" in type(m).__module__ for m in fp32.model.modules()))

    def test_int8_still_tells_a_supporting_page_from_an_unrelated_one(self):
        int8 = self.verifier_with("int8")
        self.assertEqual(int8.score_source(TOWER, SOURCE_TOWER).verdict, "supported")
        self.assertEqual(int8.score_source(TOWER, SOURCE_UNRELATED).verdict, "not_supported")

    def test_an_unknown_arithmetic_stops_the_app_at_start_up(self):
        import os
        import subprocess
        import sys

        done = subprocess.run([sys.executable, "manage.py", "check"], capture_output=True, text=True,
                              env=dict(os.environ, SIDE_VERIFIER_QUANT="int4"))
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("SIDE_VERIFIER_QUANT='int4'", done.stderr)
