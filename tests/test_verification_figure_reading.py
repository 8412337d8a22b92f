"""A figure reason is said only when the verifier reads the source's sentence as the claim
with the source's figure (figure_reading.py): the rule first, then the cross-encoder."""
from __future__ import annotations

from django.test import SimpleTestCase

from tests.verification_support import ShippedVerifierTestCase, fixture_page
from verifier_core.verification import ClaimInput
from verifier_core.verification.judgement.figure_reading import (
    READ_FLOOR,
    read_figures,
    read_mismatches,
    statement,
    window,
)
from verifier_core.verification.language.quantities import Mismatch, mismatches, quantities

RAILWAY_CLAIM = "The branch line reopened to passengers in 1994."
RAILWAY = ("The branch line closed in 1965. After years of work by volunteers, the six-kilometre section "
           "reopened to passengers in 1996. Trains now run every weekend.")


class FakeReader:
    """Reads the claim with the source's figure in place at `rival` and the claim as written
    at `given` (the cross-encoder itself is tested elsewhere)."""

    def __init__(self, rival: float, given: float = 0.0):
        self.rival, self.given, self.pairs, self.claim = rival, given, [], ""

    def __call__(self, pairs):
        self.pairs += pairs
        return [self.given if claim == self.claim else self.rival for claim, _ in pairs]


def read(claim: str, page: str, reader) -> list[str]:
    if isinstance(reader, FakeReader):
        reader.claim = claim
    return [m.reason for m in read_mismatches(claim, mismatches(claim, page), lambda q: page, reader)]


class FigureReadingTests(SimpleTestCase):
    def test_a_figure_of_the_claim_s_thing_contradicts_it_and_one_of_another_thing_is_only_a_hint(self):
        reader = FakeReader(rival=READ_FLOOR + 0.2, given=READ_FLOOR + 0.2)  # the figure does not move the reading
        (railway,) = read_figures(RAILWAY_CLAIM, mismatches(RAILWAY_CLAIM, RAILWAY), lambda q: RAILWAY, reader)
        self.assertTrue(railway.contradicts)
        claim = "On October 20, 2015, Blanchard signed to the Indianapolis Colts practice squad."
        page = "He was waived in 2014. Blanchard was signed to the Panthers practice squad on October 29, 2013."
        (other,) = read_figures(claim, mismatches(claim, page), lambda q: page, FakeReader(rival=READ_FLOOR + 0.2))
        self.assertTrue(other.same_fact)
        self.assertFalse(other.contradicts)  # another transfer: the Colts are not named there

    def test_a_window_is_the_figure_s_sentence_and_the_one_before(self):
        text = "It was built in 1902. The line closed in 1965. It reopened in 1996. Trains run daily."
        a, b = window(text, text.index("1996"), text.index("1996") + 4)
        self.assertEqual(text[a:b], "The line closed in 1965. It reopened in 1996.")

    def test_a_reason_the_verifier_reads_as_the_claim_stands(self):
        reader = FakeReader(rival=READ_FLOOR + 0.1)
        self.assertEqual(read(RAILWAY_CLAIM, RAILWAY, reader),
                         ["the source gives the year the branch line reopened as 1996, not 1994"])
        swapped, passage = reader.pairs[0]
        self.assertEqual(swapped, "The branch line reopened to passengers in 1996.")
        self.assertIn("reopened to passengers in 1996", passage)

    def test_a_reason_the_verifier_does_not_read_as_the_claim_is_not_said(self):
        self.assertEqual(read(RAILWAY_CLAIM, RAILWAY, FakeReader(rival=READ_FLOOR - 0.1)), [])

    def test_the_claim_s_statement_of_the_figure_is_read_on_its_own_too(self):
        claim = "The tower was designed by Josiah Penhallow and first lit on 1 October 1872."
        page = "Penhallow's granite came from the quarry. The lamp was first lit on 1 October 1862."
        statement_only = lambda pairs: [0.9 if c == "first lit on 1 October 1862." else 0.1 for c, _ in pairs]
        self.assertEqual(read(claim, page, statement_only),
                         ["the source gives the date the tower was first lit as 1 October 1862, not 1 October 1872"])
        self.assertEqual(read(claim, page, FakeReader(rival=0.1)), [])

    def test_a_figure_s_statement_is_its_clause_with_enough_words_to_stand(self):
        for claim, figure, said in (
                ("The tower was designed by Josiah Penhallow and first lit on 1 October 1862.", "1 October 1862",
                 "first lit on 1 October 1862."),
                ("In 1954, the Supreme Court ruled on the case, and schools had to desegregate.", "1954",
                 "In 1954, the Supreme Court ruled on the case"),
                ("He made his debut on 4 August, starting in a loss to Elsin, making 8 saves.", "8 saves",
                 "starting in a loss to Elsin, making 8 saves.")):
            at = claim.index(figure)
            a, b = statement(claim, at, at + len(figure))
            self.assertEqual(claim[a:b], said)

    def test_a_sentence_giving_the_claim_s_own_figure_that_reads_better_wins(self):
        claim = "The ferry line to the islands opened in 1994."
        page = ("The ferry line to the islands opened in 1996. Boats leave every hour.\n"
                "A ferry line opened in 1994 on the river.")
        self.assertTrue(mismatches(claim, page), "the rule gives a reason to read")
        self.assertEqual(read(claim, page, FakeReader(rival=0.8, given=0.9)), [])
        self.assertEqual(len(read(claim, page, FakeReader(rival=0.9, given=0.8))), 1)

    def test_a_sentence_giving_both_figures_is_no_evidence_for_the_claim_s(self):
        claim = "The harbour opened in 1994."
        page = "Storms closed the coast road in 1994. The harbour opened in 1996, after the 1994 storms."
        own = quantities(claim)[0]
        rival, beside, alone = (next(q for q in quantities(page) if q.start == page.index(t, k))
                                for t, k in (("1996", 0), ("1994", 40), ("1994", 0)))
        found = [Mismatch(own, "1996", "1996", "", rival.start, rival, (beside,))]
        reader = FakeReader(rival=0.9, given=1.0)
        reader.claim = claim
        self.assertEqual(read_mismatches(claim, found, lambda q: page, reader), found)
        self.assertEqual([c for c, _ in reader.pairs], ["The harbour opened in 1996."] * 2,
                         "only the claim with the source's figure (whole, and its statement of it) was read")
        elsewhere = [Mismatch(own, "1996", "1996", "", rival.start, rival, (beside, alone))]
        self.assertEqual(read_mismatches(claim, elsewhere, lambda q: page, reader), [])

    def test_a_figure_whose_text_is_unknown_keeps_the_rule_s_reason(self):
        found = mismatches(RAILWAY_CLAIM, RAILWAY)
        kept = read_mismatches(RAILWAY_CLAIM, found, lambda q: None, FakeReader(rival=0.0))
        self.assertEqual(kept, found)


class ShippedReadingTests(ShippedVerifierTestCase):
    """The committed checkpoint keeps a misquoted figure and drops reasons about other things
    (made-up pages in the shapes WiCE's dev half showed)."""

    def reasons(self, claim: str, title: str, page: str) -> list[str]:
        return read(claim, page, lambda pairs: self.verifier.read_pairs(title, pairs))

    def test_a_misquoted_year_is_read_as_the_source_s_own(self):
        self.assertEqual(self.reasons(RAILWAY_CLAIM, "Westmoor Railway", RAILWAY),
                         ["the source gives the year the branch line reopened as 1996, not 1994"])
        verdict = self.verifier.score_source(ClaimInput(RAILWAY_CLAIM, title="Westmoor Railway"), RAILWAY)
        self.assertEqual((verdict.verdict, verdict.confidence), ("not_supported", "high"))

    def test_a_figure_of_another_thing_is_not_read_as_the_claim_s(self):
        other_work = (
            "Additional new operas are currently in the development phase and will receive their premieres in "
            "2018 and beyond.", "Arle Valley Opera",
            "Her poems have appeared in Harbour Review, Salt Quarterly and the anthology Night Verse, among other "
            "magazines. She also writes song lyrics; she and the composer Ann Lee will premiere their first opera, "
            "Kept, in 2017, with support from a festival fund for new composers.")
        season_not_match = (
            "He made his league debut on 4 August 2018, starting in a 2-1 loss to Port Elsin, making 8 saves and "
            "allowing 2 goals.", "Sam Doyle",
            "Age: 25. Hometown: Dayton. Selected 26th overall in the 2017 draft. Doyle did not feature in any matches "
            "during his 2017 rookie season. He made five appearances in 2018, making 25 saves in 450 minutes. "
            "College: he appeared in 22 games.")
        for claim, title, page in (other_work, season_not_match):
            with self.subTest(title):
                self.assertTrue(mismatches(claim, page), "the rule alone gives a reason")
                self.assertEqual(self.reasons(claim, title, page), [])
                verdict = self.verifier.score_source(ClaimInput(claim, title=title), page)
                self.assertNotIn("the source gives", verdict.reason)

    def test_a_vandal_s_year_on_the_demo_s_two_part_claim_is_read_as_misdated(self):
        # The demo's lighthouse claim also names the designer, whom the lighting's sentence
        # does not: the claim's statement of the date is read on its own.
        page = fixture_page("klt-history.html")
        claim = "The tower was designed by the engineer Josiah Penhallow and first lit on 1 October 1872."
        verdict = self.verifier.score_source(ClaimInput(claim, title="Kellhaven Lighthouse"), page.text, meta=page.meta)
        self.assertEqual((verdict.verdict, verdict.confidence), ("not_supported", "high"))
        self.assertIn("the source gives the date the tower was first lit as 1 October 1862, not 1 October 1872",
                      verdict.reason)

