"""Every statement checked against the page before it is said (judgement/checks.py): a term
said to be absent is absent in every form the page may use, a span of years the page gives
is not absent, a weakest part the page states word for word is not named, and a figure reason
rests on a sentence of the page. Reasons are data, put in words only for display."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.evidence.engine import prepare_source
from verifier_core.verification.judgement.checks import PageCheck, check
from verifier_core.verification.judgement.reasons import listed, verdict_reasons, words
from verifier_core.verification.types import Verdict


def at(claim: str, page: str, meta: dict | None = None) -> PageCheck:
    return PageCheck.of(claim, [prepare_source(claim, page, top_k=4, meta=meta).analysis])


def absent(claim: str, page: str, *terms: str, meta: dict | None = None) -> tuple[str, ...]:
    """The terms a reason may still say no passage mentions."""
    kept = check(Reason(ReasonKind.ABSENT, terms=terms), at(claim, page, meta))
    return kept.terms if kept else ()


class AbsentInEveryFormTests(SimpleTestCase):
    def test_a_date_is_held_in_any_format(self):
        claim = "He died on December 20, 1998."
        for page in ("He died on Dec. 20, 1998, at home.", "He died on 20 December 1998.", "Died: 1998-12-20.",
                     "He died on December 20th, 1998."):
            self.assertEqual(absent(claim, page, "December 20, 1998"), (), page)
        self.assertEqual(absent(claim, "He died in 1998.", "December 20, 1998"), ("December 20, 1998",))

    def test_a_month_named_alone_is_held_by_any_date_of_that_month(self):
        self.assertEqual(absent("In April the club moved.", "The club moved on April 2.", "April"), ())
        self.assertEqual(absent("In April the club moved.", "The club moved on 2016-04-02.", "April"), ())
        self.assertEqual(absent("In April the club moved.", "The club moved on 2016-05-02.", "April"), ("April",))

    def test_numbers_words_plurals_case_diacritics_and_abbreviations(self):
        page = "Five of the 1000 men came from Zurich, in the US, with their colony's flag and St. Mary's crest."
        for term in ("five", "1,000", "Zürich", "U.S.", "colonies", "ZURICH", "Saint"):
            self.assertEqual(absent("x", page, term), (), term)
        self.assertEqual(absent("x", page, "Geneva", "five"), ("Geneva",))

    def test_initials_hold_a_name_and_a_name_its_initials(self):
        self.assertEqual(absent("x", "He joined the National Hockey League in 2001.", "NHL"), ())
        self.assertEqual(absent("x", "He joined the NHL in 2001.", "National Hockey League"), ())

    def test_a_decade_is_held_by_a_year_of_it(self):
        self.assertEqual(absent("x", "It was built in 1994.", "the 1990s"), ())
        self.assertEqual(absent("x", "It was built in 1984.", "the 1990s"), ("the 1990s",))

    def test_a_term_is_printed_without_stray_quote_marks(self):
        self.assertEqual(absent("x", "Nothing here.", "1998”", "“Gull Point"), ("1998", "Gull Point"))
        self.assertEqual(listed(["1998”", "“March 1, 2017”"]), "1998 or “March 1, 2017”")


class DatesAndAgesTests(SimpleTestCase):
    def test_an_anniversary_is_the_span_the_page_gives(self):
        claim = "A plaque was unveiled in 2016, on the 125th anniversary of her birth."
        page = "The plaque was unveiled 125 years after she was born there."
        self.assertEqual(absent(claim, page, "anniversary", meta={"date": "2016-06-11"}), ())

    def test_an_age_follows_from_the_years_of_birth_and_the_event(self):
        self.assertEqual(absent("He died at the age of 45.", "Born in 1950, he died in 1995.", "age"), ())
        self.assertEqual(absent("He died at the age of 45.", "Born in 1950, he died in 2005.", "age"), ("age",))

    def test_a_duration_follows_from_the_page_s_year_and_its_date(self):
        claim = "She has led the choir for 20 years."
        self.assertEqual(absent(claim, "She has led the choir since 1996.", "20 years", meta={"date": "2016-03-01"}), ())
        self.assertEqual(absent(claim, "She has led the choir since 1996.", "20 years", meta={"date": "2019-03-01"}),
                         ("20 years",))


class OtherStatementsTests(SimpleTestCase):
    def test_a_weakest_part_the_page_states_word_for_word_is_not_named(self):
        claim = "The ship was launched, and it sank on July 11, 1909."
        kept = check(Reason(ReasonKind.PARTIAL, part="it sank on July 11, 1909"), at(claim, "It sank on July 11, 1909."))
        self.assertEqual(kept, Reason(ReasonKind.PARTIAL))

    def test_a_figure_reason_rests_on_the_page_s_own_sentence(self):
        page = "The line closed in 1965. It reopened in 1996."
        start = page.index("It reopened")
        good = Reason(ReasonKind.FIGURE, claimed="1994", given="1996", thing="the year the line reopened",
                      sentence="It reopened in 1996.", start=start, end=len(page))
        self.assertEqual(check(good, at("The line reopened in 1994.", page)), good)
        for bad in (Reason(ReasonKind.FIGURE, claimed="1994", given="1996", sentence="It reopened in 1996."),
                    Reason(ReasonKind.FIGURE_HINT, claimed="1994", given="1997", sentence="It reopened in 1996.",
                           start=start, end=len(page))):
            self.assertIsNone(check(bad, at("The line reopened in 1994.", page)))


class ReasonDataTests(SimpleTestCase):
    def test_a_reason_is_data_that_round_trips_and_is_put_in_words_only_for_display(self):
        figure = Reason(ReasonKind.FIGURE, claimed="1994", given="1996", thing="the year the line reopened",
                        sentence="It reopened in 1996.", start=25, end=45)
        self.assertEqual(Reason.from_json(figure.to_json()), figure)
        self.assertEqual(words([figure]), "the source gives the year the line reopened as 1996, not 1994")
        self.assertEqual(words([figure.to_json()]), words([figure]))

    def test_a_figure_that_may_be_of_another_thing_is_a_hint_to_check(self):
        hint = Reason(ReasonKind.FIGURE_HINT, claimed="400,000", given="210,000")
        reasons = verdict_reasons(verdict=Verdict.PARTIALLY_SUPPORTED, absent=[], figures=[hint], weakest_part=None,
                                  evidence_sentence=None)
        self.assertEqual(words(reasons), "the source supports the claim only in part; the page gives 210,000 where the "
                                         "claim says 400,000: check they are the same figure")
