"""Figures compared only with figures of the same kind about the same thing: each pair
(year / count, units, anniversary, range, total, dates) on small hand-written texts."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.verification.figures import quantities
from verifier_core.verification.quantities import mismatches

CLUB = "The rowing club keeps eleven boats on the river."


def reasons(claim: str, source: str) -> list[str]:
    return [m.reason for m in mismatches(claim, source)]


class FigureKindTests(SimpleTestCase):
    def test_it_says_what_each_figure_is(self):
        found = {q.text: q.kind for q in quantities(
            "On 1 February 1958 the club's eleven boats rowed 1.2 km; it won 5–4 in 1996, its 125th season.")}
        self.assertEqual(found, {"1 February 1958": "date", "eleven": "count", "1.2 km": "quantity", "5–4": "score",
                                 "1996": "year", "125th": "ordinal"})

    def test_a_count_is_never_compared_with_a_length(self):
        self.assertEqual(reasons(CLUB, "The rowing club keeps its boats on the river, 1.2 km from the bridge."), [])

    def test_a_count_is_compared_with_a_count_of_the_same_thing_and_named(self):
        self.assertEqual(reasons(CLUB, "The rowing club keeps nine boats on the river."),
                         ["the source gives the number of boats as nine, not eleven"])

    def test_a_count_of_something_else_is_no_contradiction(self):
        self.assertEqual(reasons(CLUB, "The rowing club has nine coaches on the river."), [])

    def test_a_quantity_in_other_units_is_converted(self):
        self.assertEqual(reasons("The tower is 102 ft tall.", "The tower is 31 m tall."), [])
        self.assertEqual(reasons("The tower is 150 ft tall.", "The tower is 31 m tall."),
                         ["the source gives the length of the tower as 31 m, not 150 ft"])

    def test_an_anniversary_the_source_counts_back_is_the_founding_year(self):
        claim = "The rowing club was founded in 1891 on the river."
        self.assertEqual(reasons(claim, "The rowing club on the river celebrated its 125th anniversary in 2016."), [])
        self.assertEqual(reasons(claim, "The rowing club on the river was founded in 1895."),
                         ["the source gives the year the rowing club was founded as 1895, not 1891"])

    def test_a_range_that_holds_the_claimed_value_is_no_contradiction(self):
        self.assertEqual(reasons("The bridge was rebuilt in 1994.", "The bridge was rebuilt between 1990 and 1998."), [])
        self.assertEqual(reasons("The bridge was rebuilt in 1994.", "The bridge was rebuilt in 1990–98."), [])

    def test_a_total_of_the_source_counts_is_no_contradiction(self):
        source = "The lifeboat station has six lifeboats and five inshore boats."
        self.assertEqual(reasons("The lifeboat station has eleven boats.", source), [])

    def test_a_date_is_compared_with_a_date_and_its_day_is_no_count(self):
        self.assertEqual(reasons("The bridge opened on 3 May 1994.", "The bridge opened on 5 May 1994."),
                         ["the source gives the date the bridge opened as 5 May 1994, not 3 May 1994"])
        self.assertEqual(reasons("On 1 February 1958 United beat Arsenal in the league.",
                                 "United beat Arsenal 5–4 in the league that February."), [])

    def test_the_page_s_own_date_in_a_byline_is_no_contradiction(self):
        source = "By Ann Lee on March 2, 2017. The commission named Powell as an applicant for the court."
        self.assertEqual(reasons("On March 1, 2017 the commission named Powell as an applicant.", source), [])

    def test_a_source_figure_that_another_figure_of_the_claim_gives_is_no_rival(self):
        claim = "It was shown on 18 October 2018 and released on 9 November 2018, with a DVD on 12 November."
        source = "The film was shown on 18 October 2018. Its DVD and digital release followed on 12th November."
        self.assertEqual(reasons(claim, source), [])
