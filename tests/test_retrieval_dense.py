"""Dense retrieval: the encoder, exact vs approximate faiss search, IVF inside the engine."""
from unittest import TestCase

import numpy as np

from tests.test_retrieval_support import build_engine, encoder
from verifier_core.retrieval import DenseParams, IndexConfig
from verifier_core.retrieval.dense import build_ivf, flat_index, recall_at_k


def clustered_unit_vectors(n: int, dim: int, clusters: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dim)).astype(np.float32)
    x = centres[rng.integers(clusters, size=n)] + 0.35 * rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


class EncoderTests(TestCase):
    def test_embeddings_are_unit_vectors_of_the_model_width(self):
        vectors = encoder().encode(["a claim", "another, longer claim about something"])
        self.assertEqual(vectors.shape, (2, 384))
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)

    def test_a_paraphrase_is_closer_than_an_unrelated_sentence(self):
        a, b, c = encoder().encode(["The tower was finished in 1889.", "Construction of the tower ended in 1889.",
                                    "Plants turn sunlight into sugar."])
        self.assertGreater(a @ b, a @ c + 0.2)


class ExactVersusApproximateTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vectors = clustered_unit_vectors(20_000, 64, 200, seed=1)
        cls.queries = clustered_unit_vectors(100, 64, 200, seed=1)[:100]
        _, cls.exact = flat_index(cls.vectors).search(cls.queries, 10)
        cls.ivf = build_ivf(cls.vectors, DenseParams(nlist=128, nprobe=16))

    def test_the_approximate_index_finds_most_of_the_exact_top_10(self):
        _, approx = self.ivf.search(self.queries, 10)
        self.assertGreaterEqual(recall_at_k(approx, self.exact, 10), 0.9)

    def test_probing_every_cluster_matches_exact_search_up_to_quantisation(self):
        self.ivf.nprobe = self.ivf.nlist
        try:
            _, approx = self.ivf.search(self.queries, 10)
        finally:
            self.ivf.nprobe = 16
        self.assertGreaterEqual(recall_at_k(approx, self.exact, 10), 0.99)

    def test_recall_counts_the_share_of_exact_results_found(self):
        self.assertEqual(recall_at_k(np.array([[1, 2, 3]]), np.array([[1, 2, 4]]), 3), 2 / 3)


class ApproximateEngineTests(TestCase):
    """Above the configured size the engine builds an IVF index and still finds the page."""

    @classmethod
    def setUpClass(cls):
        config = IndexConfig(dense=DenseParams(approx_threshold=5, nprobe=4))
        cls.tmp, cls.engine = build_engine(config=config)
        cls.exact_tmp, cls.exact = build_engine()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        cls.exact_tmp.cleanup()

    def test_the_manifest_says_which_dense_index_was_built(self):
        self.assertEqual(self.engine.manifest["segments"][0]["dense"], "ivf")
        self.assertEqual(self.exact.manifest["segments"][0]["dense"], "flat")

    def test_approximate_and_exact_agree_on_the_best_page(self):
        for claim in ("an iron tower in Paris finished in 1889", "energy of the cell"):
            approx = self.engine.search(claim, k=3, mode="dense")
            exact = self.exact.search(claim, k=3, mode="dense")
            self.assertEqual(approx[0].url, exact[0].url)


class QueryThreadTests(TestCase):
    def test_a_small_search_runs_on_one_thread_and_restores_the_previous_count(self):
        import torch

        from verifier_core.retrieval.dense import limited_threads

        before = torch.get_num_threads()
        torch.set_num_threads(2)
        try:
            with limited_threads(1, batch=1):
                self.assertEqual(torch.get_num_threads(), 1)
                with limited_threads(1, batch=1):  # nested or concurrent searches
                    self.assertEqual(torch.get_num_threads(), 1)
                self.assertEqual(torch.get_num_threads(), 1)
            self.assertEqual(torch.get_num_threads(), 2)
            with limited_threads(1, batch=100):  # big batches use every thread
                self.assertEqual(torch.get_num_threads(), 2)
            with limited_threads(None, batch=1):
                self.assertEqual(torch.get_num_threads(), 2)
        finally:
            torch.set_num_threads(before)
