"""Fusion, document-level ranks, MMR and the abstain floor."""
from unittest import TestCase

import numpy as np

from tests.test_retrieval_support import DOCS, EngineTestCase
from verifier_core.retrieval.fusion import (
    document_similarity, group_by_document, mmr, rank_items, reciprocal_rank_fusion, site_of,
)


class FusionFunctionTests(TestCase):
    def test_reciprocal_rank_fusion_sums_one_over_k_plus_rank(self):
        fused = reciprocal_rank_fusion([[7, 8], [8, 9]], k=60)
        self.assertAlmostEqual(fused[8], 1 / 62 + 1 / 61)
        self.assertAlmostEqual(fused[7], 1 / 61)
        self.assertEqual(rank_items(fused), [8, 7, 9])

    def test_an_item_both_retrievers_find_beats_one_only_a_single_retriever_ranks_first(self):
        fused = reciprocal_rank_fusion([[1, 2, 3], [4, 5, 3]])
        self.assertEqual(rank_items(fused)[0], 3)

    def test_equal_fused_scores_rank_by_id(self):
        self.assertEqual(rank_items({5: 0.1, 2: 0.1, 9: 0.2}), [9, 2, 5])

    def test_a_document_ranks_at_its_best_passage(self):
        groups = group_by_document([10, 11, 12, 13], [1, 2, 1, 3])
        self.assertEqual(groups, [(1, [10, 12]), (2, [11]), (3, [13])])

    def test_mmr_with_lambda_one_keeps_the_relevance_order(self):
        sim = np.ones((3, 3))
        self.assertEqual(mmr(np.array([3.0, 2.0, 1.0]), sim, 1.0, 3), [0, 1, 2])

    def test_mmr_moves_a_redundant_item_below_a_different_one(self):
        sim = np.array([[1, 0.95, 0.1, 0], [0.95, 1, 0.1, 0], [0.1, 0.1, 1, 0], [0, 0, 0, 1]])
        self.assertEqual(mmr(np.array([1.0, 0.95, 0.9, 0.0]), sim, 0.7, 4), [0, 2, 1, 3])

    def test_mmr_rejects_a_lambda_outside_zero_to_one(self):
        with self.assertRaises(ValueError):
            mmr(np.array([1.0]), np.ones((1, 1)), 1.5, 1)

    def test_documents_of_one_site_count_as_fully_similar(self):
        emb = np.eye(3, dtype=np.float32)
        sim = document_similarity(emb, ["https://www.a.example/1", "http://a.example/2", "https://b.example/"])
        self.assertEqual(sim[0, 1], 1.0)
        self.assertEqual(sim[0, 2], 0.0)
        self.assertEqual(site_of("https://www.a.example/x"), "a.example")


class EngineRankingTests(EngineTestCase):
    def test_hybrid_search_returns_each_document_once_best_first(self):
        hits = self.engine.search("wrought-iron tower completed in 1889", title="Eiffel Tower", k=5)
        self.assertEqual(hits[0].url, "https://www.paris-guide.example/eiffel")
        self.assertEqual(len({h.url for h in hits}), len(hits))
        self.assertEqual([h.score for h in hits], sorted((h.score for h in hits), reverse=True))

    def test_passage_offsets_cut_the_passage_text_out_of_the_document(self):
        texts = {d.url: d.text for d in DOCS}
        hits = self.engine.search("bridge number 25 carries 75 lanes", k=3, mode="sparse")
        self.assertEqual(hits[0].url, "https://long.example/bridges")
        self.assertGreater(len(hits[0].passages), 1)
        for passage in hits[0].passages:
            self.assertEqual(texts[hits[0].url][passage.start : passage.end], passage.text)
        self.assertEqual(hits[0].score, hits[0].passages[0].score)

    def test_each_mode_finds_the_obvious_page(self):
        for mode in ("sparse", "dense", "hybrid"):
            hits = self.engine.search("organelle that makes ATP energy for the cell", k=3, mode=mode)
            self.assertEqual(hits[0].url, "https://bio.example/mitochondrion", mode)

    def test_excluded_urls_never_come_back(self):
        url = "https://www.paris-guide.example/eiffel"
        hits = self.engine.search("Eiffel Tower in Paris", k=20, exclude_urls=[url])
        self.assertNotIn(url, [h.url for h in hits])
        self.assertTrue(hits)

    def test_mmr_keeps_one_site_from_filling_the_top_of_the_list(self):
        claim = "famous monuments of Paris"
        plain = self.engine.search(claim, k=4, mode="dense")
        diverse = self.engine.search(claim, k=4, mode="dense", mmr_lambda=0.5)
        self.assertEqual([site_of(h.url) for h in plain[:3]], ["paris-guide.example"] * 3)
        self.assertEqual(diverse[0].url, plain[0].url)
        self.assertNotEqual(site_of(diverse[1].url), "paris-guide.example")

    def test_it_abstains_when_no_page_reaches_the_similarity_floor(self):
        claim = "The quarterly earnings of the shipping company fell sharply."
        self.assertTrue(self.engine.search(claim, k=5))
        self.assertEqual(self.engine.search(claim, k=5, min_similarity=0.5), [])

    def test_the_floor_keeps_pages_that_are_on_topic(self):
        hits = self.engine.search("the clock tower at Westminster", k=5, min_similarity=0.4)
        self.assertEqual(hits[0].url, "https://london.example/big-ben")
        self.assertTrue(all(h.similarity >= 0.4 for h in hits))

    def test_k_limits_the_number_of_documents(self):
        self.assertEqual(len(self.engine.search("Paris", k=2, mode="dense")), 2)
