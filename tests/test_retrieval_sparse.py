"""BM25: agreement with rank_bm25, weighted terms, added segments, tokenisation."""
import tempfile
from pathlib import Path
from unittest import TestCase

import numpy as np

from verifier_core.retrieval import synthetic
from verifier_core.retrieval.corpus import iter_passages, sparse_text
from verifier_core.retrieval.sparse import (
    Bm25Params, Bm25Segment, DeltaPostings, SparseSearcher, TokenIds, build_bm25, top_k, weights_for,
)
from verifier_core.retrieval.tokenize import tokenize


def build(token_lists, params, folder: Path) -> SparseSearcher:
    ids = TokenIds()
    token_ids = [ids.ids(t) for t in token_lists]
    avg = build_bm25(token_ids, ids.vocab, params, folder)
    return SparseSearcher(params, Bm25Segment(folder, len(token_lists)), avg, None)


class RankBm25AgreementTests(TestCase):
    """Same tokenisation and parameters as rank_bm25.BM25Okapi give the same top 10."""

    @classmethod
    def setUpClass(cls):
        from rank_bm25 import BM25Okapi

        docs = synthetic.documents(600, 300, vocab_size=8000, seed=3)
        cls.tokens = [tokenize(sparse_text(p)) for p in iter_passages(docs)]
        cls.tmp = tempfile.TemporaryDirectory()
        # bm25s floors Robertson's idf at 0 where rank_bm25 uses epsilon * mean idf;
        # epsilon=0 is the same rule, so every parameter matches.
        cls.params = Bm25Params(k1=1.5, b=0.75, method="robertson")
        cls.ours = build(cls.tokens, cls.params, Path(cls.tmp.name) / "bm25")
        cls.reference = BM25Okapi(cls.tokens, k1=1.5, b=0.75, epsilon=0.0)
        cls.queries = [tokenize(q) for q, _ in synthetic.queries_from(docs, 40, words=6, seed=5)]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_corpus_has_a_few_thousand_passages(self):
        self.assertGreater(len(self.tokens), 2000)

    def test_top_10_passages_match_rank_bm25_for_every_query(self):
        for query in self.queries:
            ref = self.reference.get_scores(query)
            ref_top = np.lexsort((np.arange(len(ref)), -ref))[:10]
            ids, scores = self.ours.search(weights_for(query), 10)
            self.assertEqual(list(ids), [int(i) for i in ref_top], query)
            # bm25s leaves out BM25's constant (k1 + 1) factor, which cannot change a ranking.
            np.testing.assert_allclose(scores * (self.params.k1 + 1), ref[ref_top], rtol=1e-4)

    def test_repeated_query_terms_count_again_as_in_rank_bm25(self):
        query = self.queries[0][:2] * 2
        ref = self.reference.get_scores(query)
        ids, scores = self.ours.search(weights_for(query), 1)
        self.assertAlmostEqual(float(scores[0]) * 2.5, float(ref.max()), places=3)


class WeightedTermsTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        texts = ["apple orchard harvest", "banana plantation harvest", "apple pie recipe", "river boat"]
        cls.searcher = build([tokenize(t) for t in texts], Bm25Params(), Path(cls.tmp.name) / "b")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_lower_weight_term_counts_less(self):
        full = self.searcher.scores({"appl": 1.0})
        low = self.searcher.scores({"appl": 0.3})
        np.testing.assert_allclose(low, full * 0.3, rtol=1e-6)

    def test_unknown_terms_and_empty_queries_find_nothing(self):
        ids, _ = self.searcher.search({"zzz": 1.0}, 10)
        self.assertEqual(len(ids), 0)
        ids, _ = self.searcher.search({}, 10)
        self.assertEqual(len(ids), 0)

    def test_only_passages_with_a_query_term_are_returned(self):
        ids, _ = self.searcher.search(weights_for(tokenize("harvest")), 10)
        self.assertEqual(sorted(ids.tolist()), [0, 1])

    def test_lucene_idf_stays_positive_in_a_one_passage_corpus(self):
        with tempfile.TemporaryDirectory() as tmp:
            tiny = build([tokenize("only passage here")], Bm25Params(), Path(tmp) / "b")
            ids, scores = tiny.search(weights_for(tokenize("passage")), 5)
            self.assertEqual(ids.tolist(), [0])
            self.assertGreater(scores[0], 0)


class AddedSegmentTests(TestCase):
    """Passages added after the build are scored with the whole index's statistics."""

    @classmethod
    def setUpClass(cls):
        docs = synthetic.documents(300, 120, vocab_size=3000, seed=11)
        tokens = [tokenize(sparse_text(p)) for p in iter_passages(docs)]
        cls.split = int(len(tokens) * 0.9)
        cls.tmp = tempfile.TemporaryDirectory()
        params = Bm25Params()
        cls.full = build(tokens, params, Path(cls.tmp.name) / "full")
        base = build(tokens[: cls.split], params, Path(cls.tmp.name) / "base")
        cls.mixed = SparseSearcher(params, base.base, base.avg_len, DeltaPostings(tokens[cls.split :]))
        cls.queries = [tokenize(q) for q, _ in synthetic.queries_from(docs[270:], 25, seed=2)]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_base_plus_added_segment_ranks_like_a_full_rebuild(self):
        agree = []
        for query in self.queries:
            full_ids, _ = self.full.search(weights_for(query), 10)
            mixed_ids, _ = self.mixed.search(weights_for(query), 10)
            self.assertEqual(full_ids[0], mixed_ids[0])
            agree.append(len(set(full_ids) & set(mixed_ids)) / 10)
        self.assertGreaterEqual(np.mean(agree), 0.9)

    def test_added_passages_score_within_a_few_percent_of_a_full_rebuild(self):
        for query in self.queries[:10]:
            weights = weights_for(query)
            full, mixed = self.full.scores(weights), self.mixed.scores(weights)
            hit = np.flatnonzero(full > 0)
            np.testing.assert_allclose(mixed[hit], full[hit], rtol=0.1)


class TopKTests(TestCase):
    def test_ties_are_broken_by_passage_id(self):
        ids, scores = top_k(np.array([1.0, 2.0, 2.0, 0.0, 2.0], dtype=np.float32), 2)
        self.assertEqual(ids.tolist(), [1, 2])

    def test_zero_scores_are_never_returned(self):
        ids, _ = top_k(np.array([0.0, 0.5, 0.0], dtype=np.float32), 3)
        self.assertEqual(ids.tolist(), [1])


class TokenizerTests(TestCase):
    def test_it_drops_stop_words_and_stems(self):
        self.assertEqual(tokenize("The runners were running in the races"), ["runner", "run", "race"])

    def test_it_keeps_numbers_and_splits_on_punctuation_and_underscores(self):
        self.assertEqual(tokenize("In 1889, Eiffel_Tower's height: 300m."),
                         ["1889", "eiffel", "tower", "height", "300m"])

    def test_non_latin_words_survive(self):
        self.assertEqual(tokenize("Москва столица России"), ["москва", "столица", "россии"])
        self.assertEqual(tokenize("Αθήνα"), ["αθήνα"])

    def test_han_characters_become_single_character_terms(self):
        self.assertEqual(tokenize("东京塔"), ["东", "京", "塔"])

    def test_overlong_blobs_are_dropped(self):
        self.assertEqual(tokenize("x" * 41 + " word"), ["word"])
