"""The statement each claim is checked as (verifier_core.wikitext.statements): list items,
table rows and cells, infobox fields, clauses cut by a citation or an inline template,
and the fragments from which no statement can be built."""
from __future__ import annotations

from pathlib import Path

from django.test import SimpleTestCase

from verifier_core.wikitext import extract
from verifier_core.wikitext.statements import content_words, subject_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wikitext"
MARKUP = ("{{", "}}", "[[", "]]", "|", "<ref", "==", "{|", "|}", "!!", "align=", "rowspan", "class=")


def claim(extraction, text: str):
    return next(c for c in extraction.claims if c.text == text)


class FragmentFixtureTests(SimpleTestCase):
    """fixtures/wikitext/fragments.wiki: one fragment of each kind."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.e = extract((FIXTURES / "fragments.wiki").read_text(encoding="utf-8"), "Kellhaven Lifeboat Station")

    def test_it_checks_an_infobox_field_as_subject_label_and_value(self):
        c = claim(self.e, "Opened: 1891")
        self.assertEqual((c.statement, c.kind, c.checkable), ("Kellhaven Lifeboat Station, Opened: 1891", "field", True))

    def test_it_checks_every_cut_of_an_infobox_value_as_the_whole_value(self):
        for text in ("Crew: 24", "(2019)"):
            self.assertEqual(claim(self.e, text).statement, "Kellhaven Lifeboat Station, Crew: 24 (2019)")

    def test_it_checks_a_lone_name_in_a_list_with_the_sentence_before_the_list(self):
        c = claim(self.e, "Ada Quill")
        self.assertEqual(c.statement, "The station's coxswains have included: Ada Quill")
        self.assertEqual((c.kind, c.checkable), ("item", True))

    def test_it_checks_a_table_cell_under_its_caption_and_column_headers(self):
        c = claim(self.e, "1990–2004; Mersey; Esk Maid")
        self.assertEqual(c.statement, "Lifeboats on station: Years: 1990–2004; Class: Mersey; Name: Esk Maid")
        self.assertEqual(c.kind, "row")

    def test_it_gives_a_row_the_cell_that_spans_down_from_the_row_above(self):
        # The second row has no Years cell of its own: rowspan=2 carries 1990–2004 down.
        c = claim(self.e, "D-class; Spirit of Vell")
        self.assertEqual(c.statement, "Lifeboats on station: Years: 1990–2004; Class: D-class; Name: Spirit of Vell")

    def test_it_does_not_cut_a_sentence_at_an_inline_question_template(self):
        c = claim(self.e, "Today, the station operates two all-weather lifeboats.")
        self.assertEqual((c.checked, c.tags, c.checkable), ("", ["when?"], True))
        self.assertNotIn("Today", [x.text for x in self.e.claims])

    def test_it_checks_a_clause_cut_at_its_start_as_its_whole_sentence(self):
        c = claim(self.e, "The earliest")
        self.assertEqual((c.statement, c.kind), ("The earliest crews rowed open boats across the bar.", "clause"))

    def test_a_fragment_with_no_statement_to_build_is_not_checkable(self):
        for text in ("Reprinted in", "2011; 2011"):
            with self.subTest(text=text):
                self.assertFalse(claim(self.e, text).checkable)

    def test_a_sentence_that_stands_alone_is_checked_as_it_is(self):
        c = claim(self.e, "Kellhaven Lifeboat Station is a lifeboat station on the Esk estuary.")
        self.assertEqual((c.checked, c.kind, c.checkable), ("", "sentence", True))

    def test_no_claim_or_statement_carries_markup(self):
        for c in self.e.claims:
            for junk in MARKUP:
                with self.subTest(claim=c.text, junk=junk):
                    self.assertNotIn(junk, c.text)
                    self.assertNotIn(junk, c.statement)


class InlineFragmentTests(SimpleTestCase):
    def test_it_checks_an_item_of_a_run_of_citations_as_its_sentence(self):
        e = extract("Anarchists in France<ref>A</ref> and Italy<ref>B</ref> joined the Resistance.", "Anarchism")
        for text in ("Anarchists in France", "and Italy"):
            self.assertEqual(claim(e, text).statement, "Anarchists in France and Italy joined the Resistance.")

    def test_it_gives_items_under_a_term_the_term_as_lead_in(self):
        e = extract("== Twin towns ==\n;Friendship cities\n* Lisbon, Portugal<ref>L</ref>", "Toronto")
        self.assertEqual(claim(e, "Lisbon, Portugal").statement, "Toronto, Twin towns, Friendship cities: Lisbon, Portugal")

    def test_it_gives_a_list_right_after_a_heading_the_subject_and_section(self):
        e = extract("== Notable columnists ==\n* Ernest Hemingway<ref>H</ref>", "Toronto Star (newspaper)")
        c = claim(e, "Ernest Hemingway")
        self.assertEqual((c.statement, c.checkable), ("Toronto Star, Notable columnists: Ernest Hemingway", True))

    def test_a_lone_word_before_a_template_and_a_citation_is_not_checkable(self):
        e = extract("Today{{when?}}.<ref>T</ref>", "Kellhaven")
        (c,) = e.claims
        self.assertEqual((c.text, c.checkable, c.tags), ("Today", False, ["when?"]))

    def test_a_short_sentence_is_checked_with_the_article_subject(self):
        e = extract("The club has a gallery. Admission is free.<ref>A</ref>", "Arts Club of Chicago")
        c = claim(e, "Admission is free.")
        self.assertEqual((c.statement, c.checkable), ("Arts Club of Chicago: Admission is free.", True))

    def test_a_citation_in_a_reference_column_checks_the_row_before_it(self):
        e = extract("{|\n! Date !! Place !! Ref\n|-\n| 1663-02-05 || Charlevoix || <ref>NRC</ref>\n|}", "Quakes")
        (c,) = e.claims
        self.assertEqual(c.statement, "Quakes: Date: 1663-02-05; Place: Charlevoix")

    def test_a_citation_needed_tag_still_ends_its_own_claim(self):
        e = extract("Cats fly,{{citation needed}} and dogs bark.<ref>D</ref>", "Pets")
        self.assertEqual([c.text for c in e.claims], ["Cats fly", "and dogs bark."])
        self.assertTrue(e.claims[0].needs_citation)

    def test_table_syntax_left_as_text_never_reaches_a_claim(self):
        e = extract('Staff: {| class="wikitable" |- ! Name<ref>N</ref> !! Role |- align="left" | Ada || Chair', "Club")
        for c in e.claims:
            for junk in MARKUP:
                self.assertNotIn(junk, c.text)
                self.assertNotIn(junk, c.statement)


class ContentWordTests(SimpleTestCase):
    def test_it_counts_words_that_are_not_stop_words_or_figures(self):
        self.assertEqual(content_words("In 1998, the Star bought 2 papers"), 3)
        self.assertEqual(content_words("2011; 2011"), 0)

    def test_it_drops_a_disambiguation_from_the_subject(self):
        self.assertEqual(subject_of("Mercury_(planet)"), "Mercury")
