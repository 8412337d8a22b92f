"""Bad and unusual queries: empty, punctuation only, huge, non-Latin scripts."""

from tests.test_retrieval_support import EngineTestCase
from verifier_core.retrieval import EmptyQueryError, Query
from verifier_core.retrieval.searching import SearchOptions


class BadQueryTests(EngineTestCase):
    def test_an_empty_query_is_refused_with_a_clear_error(self):
        for claim in ("", "   ", "?!. -- ..."):
            with self.assertRaisesRegex(EmptyQueryError, "no words"):
                self.engine.search(claim)

    def test_a_title_alone_is_a_usable_query(self):
        self.assertEqual(self.engine.search("", title="Raith Rovers", k=1)[0].url, "https://sport.example/raith-rovers")

    def test_a_query_of_stop_words_only_still_gets_dense_results(self):
        self.assertEqual(self.engine.search("the of and", k=3, mode="sparse"), [])
        self.assertTrue(self.engine.search("the of and", k=3))

    def test_a_huge_query_is_cut_and_answered(self):
        claim = "Mozilla Firefox web browser Gecko engine. " + "filler words " * 20000
        hits = self.engine.search(claim, k=3)
        self.assertEqual(hits[0].url, "https://tech.example/firefox")

    def test_a_cyrillic_query_finds_the_cyrillic_page(self):
        for mode in ("sparse", "hybrid"):
            self.assertEqual(self.engine.search("столица России", k=1, mode=mode)[0].url,
                             "https://ru.example/moscow", mode)

    def test_a_chinese_query_without_spaces_finds_the_chinese_page(self):
        self.assertEqual(self.engine.search("东京塔的高度", k=1, mode="sparse")[0].url, "https://zh.example/tokyo-tower")

    def test_a_batch_with_one_empty_query_is_refused_before_any_work(self):
        with self.assertRaises(EmptyQueryError):
            self.engine.search_many([Query("Big Ben"), Query("")])

    def test_invalid_options_are_refused(self):
        with self.assertRaises(ValueError):
            SearchOptions(mode="fuzzy")
        with self.assertRaises(ValueError):
            self.engine.search("Big Ben", k=0)
