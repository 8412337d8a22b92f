"""The talk-page report: a wikitable whose cells show the article's words literally."""
from __future__ import annotations

import unittest
from datetime import date

from verifier_core.wikitext import extract
from verifier_core.wikitext.report import Link, ReportRow, flagged_claims_table, plain


class ReportTableTests(unittest.TestCase):
    def table(self, *rows: ReportRow) -> str:
        return flagged_claims_table(list(rows), title="Bridge", rev_id=42, checked=date(2026, 11, 23))

    def test_plain_text_stays_bare_and_markup_is_wrapped_in_nowiki(self):
        self.assertEqual(plain("It opened in 1931."), "It opened in 1931.")
        self.assertEqual(plain("a | b {{x}} ~~~~"), "<nowiki>a | b {{x}} ~~~~</nowiki>")
        self.assertEqual(plain("</nowiki><b>x"), "<nowiki>&lt;/nowiki&gt;&lt;b&gt;x</nowiki>")

    def test_one_row_per_claim_with_its_sources_verdict_and_suggestion(self):
        text = self.table(
            ReportRow("It opened in 1931.", "History", "not supported",
                      (Link("https://a.example/x y", "A ]page["),), Link("https://b.example/", "B")),
            ReportRow("It is red.", "", "needs a source"),
        )
        self.assertEqual(text.count("\n|-\n"), 2)
        self.assertIn("| It opened in 1931.<br/><small>History</small>\n", text)
        self.assertIn("| [https://a.example/x%20y <nowiki>A ]page[</nowiki>]\n", text)
        self.assertIn("| [https://b.example/ B]\n", text)
        self.assertIn("| none\n| needs a source\n| none found\n", text)
        self.assertIn("[[Special:Permalink/42|revision 42]] of [[Bridge]] on 2026-11-23: 2 claims", text)

    def test_a_url_with_markup_stays_one_link(self):
        link = Link("https://a.example/~~~~__NOTOC__''x''", "A")
        text = self.table(ReportRow("Claim.", "", "not supported", (link,)))
        self.assertIn("| [https://a.example/%7E%7E%7E%7E%5F%5FNOTOC%5F%5F%27%27x%27%27 A]\n", text)

    def test_a_link_that_is_not_http_is_shown_as_text(self):
        self.assertIn("| <nowiki>javascript:alert(1)</nowiki>\n", self.table(
            ReportRow("Claim.", "", "not supported", (Link("javascript:alert(1)"),))))

    def test_the_table_parses_back_to_the_same_number_of_rows(self):
        text = self.table(*[ReportRow(f"Claim {n} | with a pipe.", "", "not supported") for n in range(3)])
        extraction = extract(text, "Talk:Bridge")
        self.assertFalse(extraction.warnings)
        self.assertEqual(sum("with a pipe" in p for s in extraction.sections for par in s.paragraphs
                             for p in par.sentences), 3)
