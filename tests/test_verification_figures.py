"""Figures compared only with figures of the same kind about the same thing: each pair
(year / count, units, anniversary, range, total, dates) on small hand-written texts."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.verification.language.figures import quantities
from verifier_core.verification.language.quantities import mismatches

CLUB = "The rowing club keeps eleven boats on the river."


def reasons(claim: str, source: str) -> list[str]:
    return [m.reason for m in mismatches(claim, source)]


class FigureKindTests(SimpleTestCase):
    def test_it_says_what_each_figure_is(self):
        found = {q.text: q.kind for q in quantities(
            "On 3 March 1962 the club's eleven boats rowed 1.2 km; it won 5–4 in 1996, its 125th season.")}
        self.assertEqual(found, {"3 March 1962": "date", "eleven": "count", "1.2 km": "quantity", "5–4": "score",
                                 "1996": "year", "125th": "ordinal"})

    def test_a_number_a_name_gives_is_no_year_and_a_singular_noun_names_no_count(self):
        found = {q.text: q.kind for q in quantities(
            "The Amiga 1000 computer was followed by Swift's 1989 and the 747 Shuttle Bus, in 1986.")}
        self.assertEqual(found, {"1000": "number", "1989": "number", "747": "number", "1986": "year"})
        self.assertEqual({q.text: q.kind for q in quantities("Health Status of Canadians 2016: Report. 25 people, "
                                                           "12 crew and a 31-year-old.")},
                         {"2016": "year", "25": "count", "12": "count", "31-year": "quantity"})
        self.assertEqual(reasons("He developed two models of the Amiga 1000 computer.",
                                 "He developed the Amiga computer in 1986."), [])

    def test_a_partitive_counts_its_noun(self):
        self.assertEqual([(q.text, q.kind, q.thing) for q in quantities("Nineteen of the twenty-two men were rescued.")],
                         [("Nineteen", "count", "men"), ("twenty-two", "count", "men")])
        self.assertEqual(reasons("Twelve of the twenty-two men were rescued by the lifeboat.",
                                 "The lifeboat rescued nineteen of the twenty-two men."),
                         ["the source gives the number of men as nineteen, not Twelve"])

    def test_a_compound_number_word_is_one_number(self):
        self.assertEqual([(q.text, q.value) for q in quantities("Twenty-seven people and forty-one boats.")],
                         [("Twenty-seven", "27"), ("forty-one", "41")])

    def test_a_part_of_a_count_and_a_co_count_are_no_rivals_to_the_whole(self):
        self.assertEqual(reasons("Thirty-seven Nobel laureates have been affiliated with the university.",
                                 "Twenty-seven people affiliated with the university received a Nobel Prize, "
                                 "including four Nobel laureates on the faculty."), [])
        self.assertEqual(reasons("McKenzie was the only one of the four defendants to receive no jail time.",
                                 "McKenzie's three co-defendants have all been convicted and received jail time."), [])
        self.assertEqual(reasons("The university has five Nobel laureates on the faculty.",
                                 "The university has four Nobel laureates on the faculty."),
                         ["the source gives the number of Nobel laureates as four, not five"])

    def test_a_mismatch_keeps_its_two_figures_as_written(self):
        (found,) = mismatches("The line reopened in 1994.", "The line reopened in 1996.")
        self.assertEqual((found.claim.text, found.source_text), ("1994", "1996"))
        self.assertEqual(found.reason, "the source gives the year the line reopened as 1996, not 1994")

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
                         ["the source gives the tower's height as 31 m, not 150 ft"])

    def test_spans_of_time_ten_times_apart_are_of_different_things(self):
        claim = "The keeper served at the harbour light for 11 years before the station closed."
        self.assertEqual(reasons(claim, "The keeper served at the harbour light through storms lasting 120 minutes."), [])
        self.assertEqual(len(reasons(claim, "The keeper served at the harbour light for 30 years.")), 1)

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
        self.assertEqual(reasons("On 3 March 1962 Rovers beat Kell Town in the league.",
                                 "Rovers beat Kell Town 5–4 in the league that March."), [])

    def test_the_page_s_own_date_in_a_byline_is_no_contradiction(self):
        source = "By Ann Lee on June 9, 2015. The board named Okafor as a candidate for the harbour post."
        self.assertEqual(reasons("On June 8, 2015 the board named Okafor as a candidate.", source), [])

    def test_a_source_figure_that_another_figure_of_the_claim_gives_is_no_rival(self):
        claim = "It was screened on 14 June 2012 and released on 2 August 2012, with a DVD on 20 August."
        source = "The film was screened on 14 June 2012. Its DVD and digital release followed on 20th August."
        self.assertEqual(reasons(claim, source), [])


# One figure of the page put in another's place: 12 May 1964 is on the page, but for the
# widow's move, a sentence that shares two of the claim's words (not three: the old margin
# rule alone lets it through).
OBITUARY = ("Smith was born in Leeds in 1921. Smith died in Millbrook on 12 October 1961. He is buried there. "
            "Smith's widow moved from Millbrook to Halifax on 12 May 1964.")


class PlantedSwapTests(SimpleTestCase):
    def test_it_catches_a_figure_from_elsewhere_on_the_page_when_the_stating_sentence_gives_another(self):
        self.assertEqual(reasons("Smith died in Millbrook on 12 May 1964.", OBITUARY),
                         ["the source gives the date Smith died as 12 October 1961, not 12 May 1964"])

    def test_it_says_nothing_when_the_stating_sentence_gives_the_claimed_figure(self):
        self.assertEqual(reasons("Smith died in Millbrook on 12 October 1961.", OBITUARY), [])

    def test_it_says_nothing_when_the_claimed_figure_is_worded_as_closely_as_the_rival(self):
        source = ("The ferry line to the islands opened in 1996. Boats leave every hour. "
                  "The bridge to the islands opened in 1994.")
        self.assertEqual(reasons("The crossing to the islands opened in 1994.", source), [])
        self.assertEqual(reasons("The ferry line to the islands opened in 1994.", source),
                         ["the source gives the year the ferry line opened as 1996, not 1994"])

    def test_the_page_s_own_date_is_no_sentence_that_states_the_claim(self):
        source = "Published 7 November 2017. Since 1926 the city council has had no female majority."
        self.assertEqual(reasons("She was elected to the city council in 2017.", source), [])

    def test_a_sentence_that_says_this_year_gives_no_rival_year_for_the_page_s_year(self):
        source = ("School news 2019. The chess team took the county schools shield this year, "
                  "building on their run in 2018 when the team reached the final.")
        self.assertEqual(reasons("The chess team won the county schools shield in 2019.", source), [])
        self.assertEqual(reasons("The chess team won the county schools shield in 2019.",
                                 "The chess team won the county schools shield in 2018."),
                         ["the source gives the year the chess team won the county schools shield as 2018, "
                          "not 2019"])


class RoundingAndMonthTests(SimpleTestCase):
    def test_a_figure_s_rounding_is_its_own_not_the_source_s(self):
        self.assertEqual(reasons("The club raced in Series 3 of the cup.", "The club raced in Series 4 of the cup."),
                         ["the source gives the number of Series as 4, not 3"])
        donation = "The mill trust pledged a donation worth $2 million for the roof."
        self.assertEqual(reasons("The mill trust pledged a donation worth $1.5 million for the roof.", donation),
                         ["the source gives the donation's value as $2 million, not $1.5 million"])
        self.assertEqual(reasons("The mill trust pledged a donation worth $2 million for the roof.",
                                 "The mill trust pledged a donation worth $1.98 million for the roof."), [])

    def test_a_number_word_is_as_rounded_as_its_digits(self):
        source = ("The tower rises 31 metres from its base. Its granite was cut at the Tregarrow quarry, about "
                  "eleven kilometres (seven miles) up the valley, and floated down the river on barges.")
        claim = "Granite for the 31-metre tower was quarried at Tregarrow, eleven kilometres up the valley."
        self.assertEqual(reasons(claim, source), [])
        self.assertEqual(reasons("The quarry is seven miles up the valley.", "The quarry is eleven kilometres up the "
                                 "valley."), [])
        self.assertEqual(reasons("The quarry is nine miles up the valley.", "The quarry is eleven kilometres up the "
                                 "valley."), ["the source gives the quarry's distance as eleven kilometres, not "
                                              "nine miles"])

    def test_a_day_written_as_an_ordinal_after_its_month_is_a_date(self):
        found = {q.text: q.kind for q in quantities("The bout takes place on June 9th in Marlbury.")}
        self.assertEqual(found, {"June 9th": "date"})
        self.assertEqual(reasons("The bout took place on June 4, 2013 in Marlbury.",
                                 "The bout takes place on June 9th in Marlbury."),
                         ["the source gives the date the bout took place as June 9th, not June 4, 2013"])

    def test_a_date_outside_the_stating_sentence_needs_the_claim_figure_s_own_words(self):
        # The sentence stating most of the claim gives a count; the date is elsewhere.
        claim, opening = "The bout took place on June 4, 2013 in Marlbury.", (
            "The bout in Marlbury has five rounds of five minutes. Tickets are sold out. ")
        self.assertEqual(reasons(claim, opening + "Doors open on June 9th in Marlbury."), [])
        self.assertEqual(reasons(claim, opening + "The bout takes place on June 9th in Marlbury."),
                         ["the source gives the date the bout took place as June 9th, not June 4, 2013"])

    def test_a_month_alone_agrees_with_a_dated_claim_but_never_contradicts_one(self):
        found = [(q.text, q.date) for q in quantities("The first debate is planned for June. Theresa May spoke.")]
        self.assertEqual(found, [("June", (0, 6, 0))])
        source = "The committee set the debates for June. The last debate is held through April, 2020."
        self.assertEqual(reasons("The committee set the debates to begin in June 2019.", source), [])
        self.assertEqual(reasons("The committee set the debates to begin in April 2019.",
                                 "The committee set the debates for June."), [])
        self.assertEqual(reasons("The committee set the debates for November.", source), [])

    def test_dates_sharing_only_a_month_name_say_nothing_of_each_other(self):
        source = "The tournament will be held in the West Indies from 9 to 24 November."
        self.assertEqual(reasons("In October 2018, she was named in the squad for the tournament in the West Indies.",
                                 source), [])

    def test_a_full_date_with_one_part_changed_is_the_same_event_misdated(self):
        # Two facts in one sentence: the sentence stating most of the claim is the designer's,
        # and the source says "the lamp" where the claim says "the tower".
        source = ("The tower was designed by the engineer Josiah Penhallow and rises 31 metres. "
                  "After three seasons the lamp was lit for the first time on the evening of 1 October 1862.")
        claim = "The tower was designed by the engineer Josiah Penhallow and first lit on {}."
        wrong = ["the source gives the date the tower was first lit as 1 October 1862, not {}"]
        for date in ("1 October 1872", "2 October 1862", "1 November 1862"):
            self.assertEqual(reasons(claim.format(date), source), [wrong[0].format(date)], date)
        self.assertEqual(reasons(claim.format("1 October 1862"), source), [])

    def test_a_near_date_needs_the_claim_s_words_and_must_be_the_only_one(self):
        claim = "The lamp was first lit on 1 October 1872."
        # Another event on the same day of another year, in other words: no rival.
        self.assertEqual(reasons(claim, "The keepers' cottages were finished on 1 October 1868."), [])
        # Two days the source could mean (an anniversary kept in several years): neither is named.
        self.assertEqual(reasons("The tower was first lit on 1 October 1872.",
                                 "The lamp was first lit on 1 October 1862. The lamp was first lit again on "
                                 "1 October 1882 after the fire."), [])
        # A date of the claimed month and year agrees with it: nothing to say.
        self.assertEqual(reasons(claim, "The lamp was first lit in October 1872, on 2 October 1872 by one account."),
                         [])


# No sentence next to the tower's height names the lighthouse: only the page does.
TOWER = ("The tower rises 31 metres (102 feet) from its base. It is built of granite cut at a quarry about eleven "
         "kilometres (seven miles) up the valley. Keepers lived there until 1987. The lighthouse on Gull Point "
         "has watched over the river since the 1860s.")


class LengthTests(SimpleTestCase):
    def test_the_words_around_a_length_say_which_length_it_is(self):
        found = {q.text: q.aspect for q in quantities(TOWER + " Height: 41 m. The pier is 200 m long.")}
        self.assertEqual(found, {"31 metres": "height", "102 feet": "height", "eleven kilometres": "",
                                 "seven miles": "", "1987": "", "41 m": "height", "200 m": "length"})

    def test_an_infobox_height_is_compared_with_the_one_height_the_source_gives(self):
        self.assertEqual(reasons("Gull Point Lighthouse, Height: 41 m (135 ft)", TOWER),
                         ["the source gives Gull Point Lighthouse's height as 31 metres, not 41 m"])  # said once
        self.assertEqual(reasons("Gull Point Lighthouse, Height: 31 m (102 ft)", TOWER), [])
        self.assertEqual(reasons("The tower is 41 m (135 ft) tall.", TOWER),
                         ["the source gives the tower's height as 31 metres, not 41 m"])

    def test_a_height_of_something_the_source_never_names_or_of_two_things_is_not_compared(self):
        self.assertEqual(reasons("The bore reaches 20 metres in height.", TOWER), [])
        self.assertEqual(reasons("Gull Point Lighthouse, Height: 41 m",
                                 "The cliff rises 25 metres from the beach. " + TOWER), [])

    def test_lengths_ten_times_apart_are_of_different_things(self):
        # The tower's 41 m is no misquote of the quarry's eleven kilometres: only the distance is.
        claim = "Granite for the 41-metre tower was quarried at Tregarrow, fifteen kilometres up the valley."
        self.assertEqual(reasons(claim, TOWER),
                         ["the source gives the distance up the valley as eleven kilometres, not fifteen kilometres"])
        # Sums of money are compared however far apart: "$85 million" may be "$157,000" misquoted.
        self.assertEqual([m.source_text for m in mismatches("The board raised the director's salary by $85 million.",
                                                            "The board raised the director's salary by $157,000.")],
                         ["$157,000"])
