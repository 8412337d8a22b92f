"""Citations written the way the article writes them (tests/fixtures_cite_styles): date
format, cite template, site parameter and name, re-use of a named ref; and the preview
diff that marks the words that change."""
from __future__ import annotations

from datetime import date
from pathlib import Path
from unittest import TestCase

from verifier_core.wikitext import extract
from verifier_core.wikitext.diff import diff_lines, word_diff, word_unified_diff
from verifier_core.wikitext.edits import NewSource, add_citation, occurrence_target, replace_citation
from verifier_core.wikitext.style import DMY, ISO, MDY, article_citations, format_date

STYLES = Path(__file__).resolve().parent / "fixtures_cite_styles"
TODAY = date(2026, 11, 25)


def page(name: str) -> str:
    return (STYLES / name).read_text(encoding="utf-8")


def added_ref(name: str, claim_start: str, source: NewSource) -> str:
    """The snippet Side editor adds after the claim beginning with `claim_start`."""
    text = page(name)
    extraction = extract(text, "Page")
    claim = next(c for c in extraction.claims if c.text.startswith(claim_start))
    return add_citation(text, target=occurrence_target(text, claim.occurrences[0]), source=source).snippet


def new_page(url: str, website: str = "A New Site") -> NewSource:
    return NewSource(url=url, title="A new page", website=website, access_date=TODAY)


class ArticleStyleTests(TestCase):
    def test_it_writes_a_dmy_cite_web_with_website_in_a_dmy_article(self):
        ref = added_ref("dmy_cite_web_website.wiki", "It was built", new_page("https://new.example/a"))
        self.assertEqual(ref, "<ref>{{cite web |url=https://new.example/a |title=A new page "
                              "|website=A New Site |access-date=25 November 2026}}</ref>")

    def test_it_writes_a_cite_news_with_work_and_mdy_dates_where_the_refs_do(self):
        ref = added_ref("mdy_cite_news_work.wiki", "It was closed", new_page("https://new.example/b"))
        self.assertEqual(ref, "<ref>{{cite news |url=https://new.example/b |title=A new page "
                              "|work=A New Site |access-date=November 25, 2026}}</ref>")

    def test_it_follows_iso_access_dates_over_use_dmy_dates_and_names_the_site_in_publisher(self):
        ref = added_ref("iso_cite_web_publisher.wiki", "Its light", new_page("https://new.example/c"))
        self.assertIn("|publisher=A New Site |access-date=2026-11-25}}", ref)
        self.assertNotIn("November", ref)

    def test_without_access_dates_it_takes_the_format_of_use_mdy_dates(self):
        self.assertEqual(article_citations(page("mdy_template_only.wiki")).style.date_format, MDY)
        self.assertEqual(article_citations(page("dmy_cite_web_website.wiki")).style.date_format, DMY)
        self.assertEqual(article_citations("Plain text.<ref>[https://a.example A]</ref>").style.date_format, DMY)

    def test_a_site_the_article_already_cites_is_named_and_templated_as_the_article_does(self):
        ref = added_ref("mdy_cite_news_work.wiki", "Its three spans",
                        new_page("https://carlowherald.example/2010/repaint", website="The Carlow Herald Online"))
        self.assertIn("|work=Carlow Herald |", ref)
        self.assertNotIn("Online", ref)

    def test_a_citation_with_no_site_name_has_no_site_parameter_rather_than_a_host(self):
        ref = added_ref("dmy_cite_web_website.wiki", "It was built", new_page("https://127.0.0.2:8148/x", ""))
        self.assertNotIn("website=", ref)
        self.assertNotIn("127.0.0.2 ", ref)

    def test_dates_are_written_in_each_format(self):
        self.assertEqual([format_date(TODAY, f) for f in (DMY, MDY, ISO)],
                         ["25 November 2026", "November 25, 2026", "2026-11-25"])


class NamedRefReuseTests(TestCase):
    def test_a_page_the_next_sentence_already_cites_by_name_is_reused_not_copied(self):
        text = page("named_ref_reuse.wiki")
        source = new_page("http://vellambus.example/history/1931/?utm_source=feed")
        ref = added_ref("named_ref_reuse.wiki", "The Vellam Tramway", source)
        self.assertEqual(ref, '<ref name="vellam-bus" />')
        extraction = extract(text, "Page")
        claim = extraction.claims[0]
        new = add_citation(text, target=occurrence_target(text, claim.occurrences[0]), source=source).new
        after = extract(new, "Page")
        self.assertEqual(len(after.citations), len(extraction.citations))
        self.assertEqual(new.count("vellambus.example"), 1)

    def test_a_replacement_by_a_page_cited_by_name_reuses_the_name(self):
        text = page("named_ref_reuse.wiki")
        extraction = extract(text, "Page")
        claim = extraction.claims[0]
        change = replace_citation(text, target=occurrence_target(text, claim.occurrences[0]),
                                  source=new_page("https://www.vellambus.example/history/1931"))
        self.assertIn('opened in 1899.<ref name="vellam-bus" /> The line', change.new)
        self.assertNotIn("tramhistory.example", change.new)

    def test_a_named_ref_in_a_group_is_not_reused_for_a_citation(self):
        text = ('A note.<ref group="n" name="x">{{cite web |url=https://n.example/a |title=N}}</ref> '
                "Claim here.<ref>{{cite web |url=https://c.example/ |title=C}}</ref>")
        self.assertIsNone(article_citations(text).reuse_for("https://n.example/a"))

    def test_an_unnamed_ref_of_the_same_page_gets_a_descriptive_name_and_is_reused(self):
        text = page("named_ref_reuse.wiki").replace('name="vellam-bus"', 'name=":0"')
        extraction = extract(text, "Page")
        claim = next(c for c in extraction.claims if c.text.startswith("The depot"))
        change = add_citation(text, target=occurrence_target(text, claim.occurrences[0]),
                              source=new_page("https://tramhistory.example/vellam/opening/"))
        self.assertEqual((change.snippet, change.renamed), ('<ref name="opening" />', '<ref name="opening">'))
        self.assertIn('opened in 1899.<ref name="opening">{{cite web |url=https://www.tramhistory.example', change.new)
        self.assertIn('bus garage.<ref name=":0" /><ref name="opening" />', change.new)
        after = extract(change.new, "Page")
        self.assertEqual(len(after.citations), len(extraction.citations))
        self.assertFalse([w for w in after.warnings if "unresolved" in w])

    def test_a_site_on_a_bare_address_is_not_named_after_another_page_on_it(self):
        text = ("A fact.<ref>{{cite web |url=http://127.0.0.2:8148/pages/a.html |title=A "
                "|website=Kellhaven Rowing Club}}</ref>")
        style = article_citations(text).style_for("http://127.0.0.2:8148/pages/b.html")
        self.assertEqual(style.site_name, "")


class WordDiffTests(TestCase):
    def test_a_ref_added_to_a_long_paragraph_is_the_only_change_marked(self):
        text = page("dmy_cite_web_website.wiki")
        extraction = extract(text, "Page")
        claim = next(c for c in extraction.claims if c.text.startswith("It was built"))
        change = add_citation(text, target=occurrence_target(text, claim.occurrences[0]),
                              source=new_page("https://new.example/a"))
        lines = diff_lines(change.old, change.new, title="Mill")
        removed = [l for l in lines if l.kind == "del"]
        added = [l for l in lines if l.kind == "add"]
        self.assertEqual((len(removed), len(added)), (1, 1))
        self.assertFalse([t for t, changed in removed[0].parts if changed])
        self.assertEqual([t for t, changed in added[0].parts if changed], [change.snippet])
        self.assertEqual(added[0].text, "+" + change.new.splitlines()[1])

    def test_a_replaced_word_is_marked_on_both_sides_as_one_run(self):
        old, new = word_diff("The bridge opened in 1931 to traffic.", "The bridge opened in 1932 to traffic.")
        self.assertEqual([t for t, c in old if c], ["1931"])
        self.assertEqual([t for t, c in new if c], ["1932"])

    def test_a_line_without_a_partner_is_changed_as_a_whole(self):
        lines = diff_lines("One.\n", "One.\nTwo new words.\n", context=0)
        self.assertEqual([(l.kind, l.parts) for l in lines if l.kind == "add"],
                         [("add", (("+", False), ("Two new words.", True)))])

    def test_the_word_diff_keeps_a_removed_line_that_has_no_partner(self):
        text = word_unified_diff("a\nold one\nold two\nz\n", "a\nnew one\nz\n", title="Mill")
        self.assertIn("[-old two-]", text)
        self.assertIn("[-old-]{+new+} one", text)
