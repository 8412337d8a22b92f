"""The results page's statistics against textbook values and scipy."""
from __future__ import annotations

from django.test import SimpleTestCase
from scipy.stats import binomtest

from sideapp.annotation import statistics as st
from sideapp.annotation.items import random_passage

# Fleiss (1971) as reproduced in most texts: 10 subjects, 14 raters, 5 categories.
FLEISS_TABLE = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
                [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
_ = None
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers, 12 units.
KRIPPENDORFF_2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
                     [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _]]
# The `krippendorff` package's documented example (nominal alpha 0.691358).
KRIPPENDORFF_PACKAGE = [[_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
                        [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
                        [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4]]


class AgreementTests(SimpleTestCase):
    def test_fleiss_kappa_matches_the_textbook_example(self):
        self.assertAlmostEqual(st.fleiss_kappa(FLEISS_TABLE), 0.2099, places=4)

    def test_fleiss_kappa_refuses_subjects_with_different_numbers_of_ratings(self):
        with self.assertRaises(ValueError):
            st.fleiss_kappa([[1, 1], [2, 1]])

    def test_fleiss_kappa_is_one_for_perfect_agreement_and_undefined_for_one_category(self):
        self.assertAlmostEqual(st.fleiss_kappa([[3, 0], [0, 3], [3, 0]]), 1.0)
        self.assertIsNone(st.fleiss_kappa([[3, 0], [3, 0]]))

    def test_krippendorff_alpha_matches_krippendorffs_worked_example(self):
        self.assertAlmostEqual(st.krippendorff_alpha_nominal(zip(*KRIPPENDORFF_2011)), 0.743, places=3)

    def test_krippendorff_alpha_matches_the_reference_packages_example(self):
        self.assertAlmostEqual(st.krippendorff_alpha_nominal(zip(*KRIPPENDORFF_PACKAGE)), 0.691358, places=6)

    def test_krippendorff_alpha_ignores_units_with_a_single_value(self):
        units = [["a", "a"], ["b", "b"], ["a"], [None, "b", "b"]]
        self.assertAlmostEqual(st.krippendorff_alpha_nominal(units), 1.0)


class TestsAndIntervals(SimpleTestCase):
    def test_sign_test_matches_a_hand_count_and_scipy(self):
        # 9 wins of 10: P = 2 * (C(10,9) + C(10,10)) / 2^10
        self.assertAlmostEqual(st.sign_test(9, 1), 2 * 11 / 1024)
        for wins, losses in [(30, 18), (0, 5), (12, 12)]:
            self.assertAlmostEqual(st.sign_test(wins, losses), binomtest(wins, wins + losses).pvalue)
        self.assertIsNone(st.sign_test(0, 0))

    def test_wilson_interval_matches_the_published_value(self):
        low, high = st.wilson(7, 10)
        self.assertAlmostEqual(low, 0.3968, places=4)
        self.assertAlmostEqual(high, 0.8922, places=4)
        self.assertEqual(st.wilson(0, 0), None)
        self.assertEqual(st.wilson(0, 4)[0], 0.0)

    def test_majority_needs_more_than_half(self):
        self.assertEqual(st.majority(["none", "none", "enough"]), "none")
        self.assertIsNone(st.majority(["none", "enough"]))
        self.assertEqual(st.median([3, 1, 2, 10]), 2.5)


class RandomPassageTests(SimpleTestCase):
    def test_the_random_passage_avoids_the_verifiers_passage_and_is_as_long(self):
        text = " ".join(f"word{n}" for n in range(400))
        start, end = text.index("word100"), text.index("word140")
        for seed in range(20):
            other = random_passage(text, start=start, end=end, seed=seed)
            self.assertTrue(other["end"] <= start + 40 or other["start"] >= end)
            self.assertLess(abs(len(other["passage"]) - (end - start)), 45)
            self.assertEqual(other["passage"], text[other["start"]:other["end"]].strip())

    def test_a_text_with_no_room_gives_no_random_passage(self):
        self.assertIsNone(random_passage("short text", start=0, end=10, seed=1))
