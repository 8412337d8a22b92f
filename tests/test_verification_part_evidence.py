"""Each part of a claim shown with the page's sentences that together hold it: several where
needed, from anywhere on the page (a dateline too), or none; verbatim, in page order."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.verification.evidence.support import page_lines, part_sentences, parts_with_evidence, shown_evidence
from verifier_core.verification.language.figures import quantities
from verifier_core.verification.types import Evidence, PartVerdict

PAGE = """Kellhaven Rowing Club
Published 11 June 2016
The Kellhaven Rowing Club was founded by dock workers on the river Arle.
Its boathouse stands beside the old ferry slip.
Members row every morning in summer.
In 1921 the club formed a women's section, the first on the coast.
The club has 220 members today, and its junior squad counts 60 rowers.
"""


def lines_of(text: str):
    return page_lines(text, quantities(text))


def holding(part: str, text: str = PAGE) -> list[str]:
    return [text[a:b] for a, b in part_sentences(part, lines_of(text))]


class PartSentencesTests(SimpleTestCase):
    def test_a_part_whose_facts_sit_in_two_sentences_far_apart_gets_both_and_no_other(self):
        self.assertEqual(holding("The Kellhaven Rowing Club, founded by dock workers, formed a women's section in 1921"),
                         ["The Kellhaven Rowing Club was founded by dock workers on the river Arle.",
                          "In 1921 the club formed a women's section, the first on the coast."])

    def test_the_year_of_a_part_can_come_from_the_pages_own_dateline(self):
        self.assertEqual(holding("The club had 220 members in 2016"),
                         ["Published 11 June 2016",
                          "The club has 220 members today, and its junior squad counts 60 rowers."])

    def test_a_date_whose_day_and_month_and_year_sit_in_two_lines_gets_both(self):
        page = ("Published 19 October 2004\nThe band recorded its third album in a barn near the coast.\n"
                "The album Emotive hits stores on Election Day, November 2.\nTickets for the tour sold out.\n")
        self.assertEqual(holding("The album Emotive was released on November 2, 2004", page),
                         ["Published 19 October 2004", "The album Emotive hits stores on Election Day, November 2."])

    def test_a_line_giving_the_whole_date_needs_no_dateline(self):
        page = ("Published 19 October 2004\nThe album Emotive was released on November 2, 2004.\n"
                "Tickets for the tour sold out.\n")
        self.assertEqual(holding("The album Emotive was released on November 2, 2004", page),
                         ["The album Emotive was released on November 2, 2004."])

    def test_another_day_of_the_same_month_gives_no_part_of_the_date(self):
        page = "The album Emotive was announced in a barn near the coast.\nThe band played Leeds on November 9.\n"
        self.assertEqual(holding("The album Emotive was announced on November 2", page),
                         ["The album Emotive was announced in a barn near the coast."])

    def test_the_line_tying_the_subject_to_the_fact_beats_one_naming_the_subject_alone(self):
        page = ("Upton spoke to reporters in Kalamazoo on Monday.\n"
                "The bill would ban private sales of firearms at gun shows.\n"
                "A ban on private sales has been debated for years.\n"
                "The bill has friends in both parties.\n"
                "Upton is an original sponsor of the bill.\n")
        self.assertEqual(holding("Upton backed a bill banning private sales", page),
                         ["The bill would ban private sales of firearms at gun shows.",
                          "Upton is an original sponsor of the bill."])

    def test_a_part_the_page_does_not_hold_gets_no_sentence(self):
        self.assertEqual(holding("The lighthouse keeper painted watercolours"), [])

    def test_a_figure_in_another_unit_is_held_by_the_sentence_giving_it(self):
        page = "The boathouse of the club is large.\nIts hall is 31 metres long and was built of oak.\nA cafe opened there."
        self.assertIn("Its hall is 31 metres long and was built of oak.", holding("The boathouse hall is 102 ft long", page))

    def test_general_words_alone_pull_in_no_line(self):
        page = "The first years were many and well known.\nThe ferry crossed the river Arle at dawn.\n"
        self.assertEqual(holding("It became the first of many", page), [])

    def test_the_sentences_are_the_page_text_at_their_offsets_in_page_order(self):
        spans = part_sentences("The Kellhaven Rowing Club, founded by dock workers, formed a women's section in 1921",
                               lines_of(PAGE))
        self.assertEqual(spans, sorted(spans))
        for a, b in spans:
            self.assertIn(PAGE[a:b], PAGE.splitlines())


class ShownEvidenceTests(SimpleTestCase):
    def parts(self):
        claim = "The club was founded by dock workers, and had 220 members in 2016."
        return parts_with_evidence([PartVerdict("The club was founded by dock workers", 0, 36, 0.9, "supported"),
                                    PartVerdict("and had 220 members in 2016.", 38, len(claim), 0.4,
                                                "partially_supported")], PAGE, lines_of(PAGE))

    def test_each_part_carries_its_own_lines(self):
        first, second = self.parts()
        self.assertEqual(first.evidence.sentences,
                         ["The Kellhaven Rowing Club was founded by dock workers on the river Arle."])
        self.assertIn("The club has 220 members today, and its junior squad counts 60 rowers.", second.evidence.sentences)
        self.assertEqual(second.to_json()["evidence"], {"sentences": second.evidence.sentences})

    def test_the_evidence_shows_the_quote_and_every_parts_lines_in_page_order_verbatim(self):
        quote = "The club has 220 members today, and its junior squad counts 60 rowers."
        a = PAGE.index(quote)
        start = PAGE.index("In 1921")
        evidence = Evidence(PAGE[start:a + len(quote)], [quote], start, a + len(quote), [(a, a + len(quote))],
                            quote=quote, quote_span=(a, a + len(quote)))
        shown = shown_evidence(evidence, self.parts(), PAGE)
        self.assertEqual(shown.quote, quote)
        self.assertEqual(shown.passage, evidence.passage)
        self.assertEqual(shown.sentence_spans, sorted(shown.sentence_spans))
        self.assertEqual(shown.sentences[0], "Published 11 June 2016")
        self.assertIn(quote, shown.sentences)
        self.assertIn("The Kellhaven Rowing Club was founded by dock workers on the river Arle.", shown.sentences)
        self.assertEqual([PAGE[x:y] for x, y in shown.sentence_spans], shown.sentences)
        self.assertEqual(set(shown.to_json()), {"passage", "sentences", "start", "end"})

    def test_evidence_whose_quote_is_not_the_page_text_is_not_shown(self):
        evidence = Evidence(PAGE[:40], [], 0, 40, [], quote="Not on the page at all.", quote_span=(0, 23))
        self.assertIsNone(shown_evidence(evidence, self.parts(), PAGE))
