"""The quote shown as "the source says it": the body sentence that best supports the
claim, verbatim, never a heading, menu item, caption, byline, date or a short phrase."""
from __future__ import annotations

from django.test import SimpleTestCase

from tests.verification_support import fixture_page
from verifier_core.verification.evidence.engine import prepare_source
from verifier_core.verification.evidence.quote import select_evidence
from verifier_core.verification.evidence.sentences import body_sentences, is_body


def quote(claim: str, text: str, title: str = "") -> str:
    prepared = prepare_source(claim, text, top_k=4, meta={"title": title})
    evidence = select_evidence(text, claim, prepared.body, prepared.passages, prepared.selected, prepared.title)
    return evidence.sentences[0] if evidence and evidence.sentences else ""


class BodySentenceTests(SimpleTestCase):
    def test_headings_menus_bylines_dates_labels_and_short_phrases_are_not_body_sentences(self):
        for line in ("# About Us", "Skip to content", "Home News Sport Weather", "By Holly Penrose",
                     "Published 9:42 a.m. ET Feb. 3, 2016", "Sept. 14, 2017, 4:05 p.m.", "TITLE: Boathouse news",
                     "Read more.", "The great flood of 1929", "Photo: the boathouse after the fire in 2009."):
            self.assertFalse(is_body(line), line)

    def test_a_statement_is_a_body_sentence(self):
        self.assertTrue(is_body("In 1921 the club formed a women's section."))
        self.assertTrue(is_body("The river is tidal as far as Arle Weir at Lowick, about 9 km above the mouth."))

    def test_lines_wrapped_mid_sentence_are_one_sentence_with_offsets_into_the_text(self):
        text = ("3. THE TIDAL LIMIT\nThe river is tidal as far as Arle Weir at Lowick, about 9 km\n"
                "(5.5 miles) above the mouth at Kellhaven. Below the weir all trips must\nbe planned around the tide.")
        found = [text[s.start:s.end] for s in body_sentences(text)]
        self.assertEqual(found, ["The river is tidal as far as Arle Weir at Lowick, about 9 km\n(5.5 miles) above "
                                 "the mouth at Kellhaven.", "Below the weir all trips must\nbe planned around the tide."])

    def test_a_leading_ellipsis_is_not_part_of_the_sentence_and_the_title_is_not_one(self):
        text = "Club history of the Kellhaven rowers\n… At Gull Point the first keepers lodged in the town."
        found = [text[s.start:s.end] for s in body_sentences(text, title="Club history of the Kellhaven rowers")]
        self.assertEqual(found, ["At Gull Point the first keepers lodged in the town."])


class QuoteTests(SimpleTestCase):
    def test_the_rowing_claim_quotes_the_line_about_the_women_s_section(self):
        page = fixture_page("krc-history.html")
        self.assertEqual(quote("In 1921 she rowed in the first women's crew of the town's rowing club.", page.text,
                               page.title), "In 1921 the club formed a women's section.")

    def test_a_figure_in_other_units_finds_its_sentence(self):
        page = fixture_page("klt-history.html")
        self.assertEqual(quote("Kellhaven Lighthouse, Height: 31 m (102 ft)", page.text, page.title),
                         "The tower rises 31 metres (102 feet) from its base.")

    def test_a_pdf_quote_is_the_line_of_the_fact_not_the_document_title(self):
        page = fixture_page("aeha-lights-and-marks-2019.pdf")
        self.assertEqual(quote("The light has a nominal range of 22 nautical miles", page.text, page.title),
                         "Nominal range: 22 nautical miles.")

    def test_a_heading_that_repeats_the_claim_is_never_the_quote(self):
        page = fixture_page("dlhs-flood-1929.html")
        found = quote("In the flood of November 1929 the river rose 4.8 metres above its normal level at Dunmere "
                      "Bridge.", page.text, page.title)
        self.assertNotEqual(found, "The great flood of 1929")
        self.assertIn("4.8 metres", found)

    def test_a_quote_is_verbatim_and_shares_a_word_with_the_claim(self):
        text = "Opening times\nTickets cost six pounds.\nThe tower opened to visitors in 1994 after a long campaign."
        found = quote("The tower opened in 1994.", text)
        self.assertEqual(found, "The tower opened to visitors in 1994 after a long campaign.")
        self.assertIn(found, text)

    def test_no_sentence_sharing_a_word_gives_no_quote(self):
        self.assertEqual(quote("The viaduct has nine arches.", "Tickets cost six pounds at the gate today."), "")
