"""A figure's thing named in a few of the claim's own words, for reasons an editor reads:
the event of a year or a date, the noun phrase a quantity measures."""
from __future__ import annotations

import re

from django.test import SimpleTestCase
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier_core.verification.language.naming import thing_of


def named(kind: str, claim: str, figure: str, unit_word: str = "") -> str:
    start = claim.index(figure)
    return thing_of(kind, claim, start, start + len(figure), unit_word)


class EventNamingTests(SimpleTestCase):
    def test_it_names_a_year_by_its_subject_and_verb(self):
        self.assertEqual(named("year", "The Esk Valley line reopened in 1994.", "1994"),
                         "the year the Esk Valley line reopened")
        self.assertEqual(named("year", "In 1965, the Kellshire Harbour Board ruled on the case.", "1965"),
                         "the year the Kellshire Harbour Board ruled")

    def test_it_keeps_the_auxiliaries_and_a_short_object(self):
        self.assertEqual(named("year", "The rowing club was founded in 1891 on the river.", "1891"),
                         "the year the rowing club was founded")
        self.assertEqual(named("date", "The choir released a new album, \"Tide\", on June 7, 2015.", "June 7, 2015"),
                         "the date the choir released a new album")
        self.assertEqual(named("date", "The play had its first night at Lowick on June 2, 2014.", "June 2, 2014"),
                         "the date the play had its first night")

    def test_a_subject_is_its_head_not_the_place_after_it(self):
        claim = "The Harbour Tower in Port Elsin is 212 metres tall and opened in 1994."
        self.assertEqual(named("year", claim, "1994"), "the year the Harbour Tower opened")

    def test_a_coordinated_verb_takes_the_first_subject_and_its_passive(self):
        claim = "Marlow was later jailed for breaking the bylaw and released in April 2010."
        self.assertEqual(named("date", claim, "April 2010"), "the date Marlow was released")

    def test_a_coordinated_verb_keeps_its_adverb_and_an_irregular_participle_is_a_verb(self):
        claim = "The tower was designed by the engineer Josiah Penhallow and first lit on 1 October 1862."
        self.assertEqual(named("date", claim, "1 October 1862"), "the date the tower was first lit")
        self.assertEqual(named("year", "The line was closed in 1964 and later reopened in 1994.", "1994"),
                         "the year the line was later reopened")

    def test_it_names_nothing_where_it_finds_no_event(self):
        self.assertEqual(named("year", "The target to close all the old mills is 2021.", "2021"), "")
        self.assertEqual(named("year", "The aim in 1998 was to be ranked first.", "1998"), "")  # an infinitive


class MeasuredNamingTests(SimpleTestCase):
    def test_it_names_the_noun_phrase_a_quantity_measures(self):
        self.assertEqual(named("quantity", "The tower is 150 ft tall.", "150 ft", "length"), "the tower's height")
        self.assertEqual(named("quantity", "The trust pledged a donation worth $2 million.", "2 million", "amount"),
                         "the donation's value")
        self.assertEqual(named("number", "She rowed at Harlow's Spring Series 4 in April.", "4", "number"),
                         "the number of Harlow's Spring Series")

    def test_a_measure_named_before_of_is_the_thing(self):
        self.assertEqual(named("quantity", "The light has a nominal range of 28 nautical miles.", "28 nautical miles",
                               "length"), "the nominal range")
        self.assertEqual(named("quantity", "The tower has a height of 41 metres.", "41 metres", "height"),
                         "the height")
        self.assertEqual(named("quantity", "The bridge, with a span of 120 m, opened in 1890.", "120 m", "length"),
                         "the span")

    def test_a_share_is_of_what_follows_it(self):
        self.assertEqual(named("quantity", "The survey found that 88% of islanders were healthy.", "88%", "share"),
                         "the share of islanders")

    def test_a_distance_is_named_by_the_way_it_runs(self):
        self.assertEqual(named("quantity", "Granite was quarried fifteen kilometres up the valley.",
                               "fifteen kilometres", "length"), "the distance up the valley")
        self.assertEqual(named("quantity", "Stone was carried 5 km from the coast.", "5 km", "length"),
                         "the distance from the coast")
        # A thing placed at a distance keeps its own name.
        self.assertEqual(named("quantity", "The village lies 5 km from the coast.", "5 km", "length"),
                         "the village's distance")

    def test_a_duration_is_not_named_by_the_noun_before_it(self):
        self.assertEqual(named("quantity", "He stayed in place for seven years.", "seven years", "duration"), "")


class NamingRobustnessTests(SimpleTestCase):
    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.sampled_from(list("ab The was opened in of 88%,;()–19")), max_size=60),
           st.integers(0, 60), st.integers(0, 10), st.sampled_from(["year", "date", "quantity", "number"]))
    def test_it_never_fails_and_names_only_with_the_claim_s_words(self, claim, start, width, kind):
        start = min(start, len(claim))
        name = thing_of(kind, claim, start, min(len(claim), start + width), "share" if kind == "quantity" else kind)
        if name:  # "the year ...", "the share of ..." or a possessive: "b's share"
            self.assertTrue(name.startswith("the ") or re.search(r"['’]s? share$", name), name)
            label = {"the", "of", "year", "date", "share", "number"}
            for word in name.split():
                word = re.sub(r"['’]s?$", "", word)
                self.assertTrue(word in label or word.lower() in claim.lower(), (word, claim))
