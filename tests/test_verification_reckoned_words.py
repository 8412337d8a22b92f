"""A claim's span of years that the page's own figures and date give ("the 125th anniversary"
where the page says "125 years after", "at the age of 45" where it says born 1950 and died
1995, "for 20 years" where a page of 2016 says "since 1996") is read as held by the page in the
verdict's features too (judgement/features.py), not only in the reasons' checker."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.verification.evidence.engine import prepare_source
from verifier_core.verification.judgement.features import FEATURE_NAMES, analyse_claim, content_words, reckoned_words


def analysed(claim: str, page: str, meta: dict | None = None):
    return [prepare_source(claim, page, top_k=4, meta=meta).analysis]


def held_words(claim: str, page: str, meta: dict | None = None) -> set[str]:
    """The claim's words (as written, lower case) that the page's figures give."""
    words = content_words(claim)
    figures = [q for a in analysed(claim, page, meta) for q in a.quantities]
    terms = reckoned_words(claim, words, figures)
    return {claim[start:end].lower() for start, end, term in words if term in terms}


def feature(claim: str, page: str, name: str, meta: dict | None = None) -> float:
    return float(analyse_claim(claim, analysed(claim, page, meta)).features[FEATURE_NAMES.index(name)])


class ReckonedWordsTests(SimpleTestCase):
    def test_an_anniversary_the_page_counts_in_years_is_held(self):
        claim = "A plaque was unveiled in 2016, on the 125th anniversary of her birth."
        self.assertEqual(held_words(claim, "The plaque was unveiled in 2016, 125 years after she was born there."),
                         {"125th", "anniversary"})
        self.assertEqual(held_words(claim, "The plaque was unveiled in 2016, 120 years after she was born there."),
                         set())

    def test_an_age_held_by_the_years_of_birth_and_of_the_event(self):
        claim = "He died at the age of 45."
        self.assertIn("45", held_words(claim, "Born in 1950, he died in 1995."))
        self.assertEqual(held_words(claim, "Born in 1950, he died in 2005."), set())

    def test_a_duration_held_by_a_year_and_the_pages_own_date(self):
        claim = "She has led the choir for 20 years."
        self.assertIn("20", held_words(claim, "She has led the choir since 1996.", {"date": "2016-03-01"}))
        self.assertEqual(held_words(claim, "She has led the choir since 1996.", {"date": "2019-03-01"}), set())

    def test_the_held_words_count_in_the_pages_and_the_best_passages_coverage(self):
        claim = "A plaque was unveiled in 2016, on the 125th anniversary of her birth."
        gives = "The plaque was unveiled in 2016, 125 years after she was born there."
        other = "The plaque was unveiled in 2016, 120 years after she was born there."
        for name in ("cov_page", "cov_best", "cov_top"):
            with self.subTest(name):
                self.assertGreater(feature(claim, gives, name), feature(claim, other, name))

    def test_a_claim_without_a_span_of_years_reads_as_before(self):
        claim = "The bridge opened in 1932 and carries two lanes."
        page = "The bridge opened in 1932. It carries two lanes of traffic."
        self.assertEqual(held_words(claim, page), set())
        self.assertEqual(feature(claim, page, "cov_page"), 1.0)
