"""plain_wikitext: a value from the web written as plain text in a template parameter, a
link's label or a URL (issue 41). What the wiki's own parser makes of such values is tested
in tests/test_edits_plain_wiki.py; here, what is written, read back with mwparserfromhell
and with plain string checks that do not reuse the module's patterns."""
from __future__ import annotations

import html
import re
import unicodedata
import unittest

import mwparserfromhell
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier_core.wikitext.plain import NotPlain, plain_wikitext

HOSTILE = [
    "Harbour [[Category:Spam]] ~~~~ [https://spam.example buy] __NOINDEX__",
    "[[File:X.jpg]]", "{{subst:Foo}}", "{{{1}}}", "~~~~~", "__NOTOC__", "<!-- x", "</ref>",
    "<nowiki>", "</nowiki>", "&#91;&#91;Category:X&#93;&#93;", "\n== H ==", "\n* item", "\n{|", "----",
    "a\u202eb", "''bold''", "[http://x y]", "ISBN 978-3-16-148410-0", "RFC 123", "PMID 1",
    "see https://spam.example/x", "mailto:a@b.example", "&lt;b&gt;", "x\x7f'\"`UNIQ--nowiki-00000001-QINU`\"'\x7fy",
    "a|b=c", "éISBN 978-3-16-148410-0", "xRFC 123", "-{zh-hans:x}-", "'quoted'", "line\u2028break", "{{#invoke:X|y}}", "<br>", "; term : def",
]


def shown(written: str) -> str:
    """What the wiki shows for `written`: its character references decoded."""
    return html.unescape(written)


class PlainTextTests(unittest.TestCase):
    def test_an_ordinary_title_is_written_as_it_is(self):
        for title in ("The history of the Kell bridge", "Smith's harbour: 1800–1900", "Tom & Jerry, 50% off",
                      "Ålesund havn – «Brygga»", "Mémoire d'un pont, 1931"):
            self.assertEqual(plain_wikitext(title), title)

    def test_no_markup_character_of_a_hostile_value_is_left_bare(self):
        for value in HOSTILE:
            written = plain_wikitext(value)
            for bare in ("[", "]", "{", "}", "<", ">", "|", "~~~", "__", "''", "\n", "\u202e", "\x7f"):
                self.assertNotIn(bare, written, (value, written))
            self.assertNotRegex(written, r"(?i)\b(?:https?|mailto):\S", (value, written))
            self.assertNotRegex(written, r"(?:ISBN|RFC|PMID)\s", (value, written))

    def test_the_words_shown_are_the_values_words_on_one_line(self):
        for value in HOSTILE:
            expected = " ".join(" ".join(value.split()).replace("\u202e", "").replace("\x7f", "").split())
            self.assertEqual(shown(plain_wikitext(value)), expected, value)

    def test_as_a_parameter_it_stays_one_parameter_of_one_template(self):
        for value in HOSTILE:
            code = mwparserfromhell.parse("{{cite web |title=" + plain_wikitext(value) + " |website=x}}")
            self.assertEqual(len(code.filter_templates(recursive=True)), 1, value)
            self.assertEqual(len(code.filter_wikilinks()) + len(code.filter_external_links()), 0, value)
            self.assertEqual([str(p.name).strip() for p in code.filter_templates()[0].params], ["title", "website"])

    def test_as_a_label_it_stays_the_label_of_one_link(self):
        for value in HOSTILE:
            code = mwparserfromhell.parse("[https://ok.example/ " + plain_wikitext(value, "label") + "]")
            links = code.filter_external_links()
            self.assertEqual(len(links), 1, value)
            self.assertEqual(str(links[0].url), "https://ok.example/")

    def test_a_character_the_wiki_normalises_into_markup_is_judged_as_the_wiki_reads_it(self):
        self.assertEqual(plain_wikitext("\u037e term"), "&#59; term")  # GREEK QUESTION MARK: NFC ";"

    def test_an_entity_of_the_page_shows_as_the_page_wrote_it(self):
        self.assertEqual(shown(plain_wikitext("&#91;&#91;Category:X&#93;&#93;")), "&#91;&#91;Category:X&#93;&#93;")
        self.assertEqual(shown(plain_wikitext("&lt;i&gt;")), "&lt;i&gt;")

    @settings(max_examples=200, derandomize=True)
    @given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60))
    def test_any_text_keeps_its_words_and_no_markup_character(self, value):
        written = plain_wikitext(value)
        self.assertFalse(re.search(r"[\[\]{}<>|\n\r]|~~~|__|''", written), written)
        value = unicodedata.normalize("NFC", value)
        kept = "".join(c for c in " ".join(value.split()) if unicodedata.category(c) != "Cc")
        kept = "".join(c for c in kept if c not in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                       "\u2066\u2067\u2068\u2069\ufeff")
        self.assertEqual(shown(written), " ".join(kept.split()))


class PlainUrlTests(unittest.TestCase):
    def test_an_ordinary_url_is_written_as_it_is(self):
        for url in ("https://example.org/bridge-history", "http://127.0.0.1:8080/a/b?x=1&y=2#top",
                    "https://de.example/Brücke_(Köln)", "https://[::1]:8443/x"):
            self.assertEqual(plain_wikitext(url, "url"), url)

    def test_characters_that_would_end_or_break_it_are_percent_encoded(self):
        written = plain_wikitext("https://x.example/a|b c{d}[e]<f>\"g''h~~~~i__NOTOC__j\u202ek\u00a0l\tm", "url")
        self.assertEqual(written, "https://x.example/a%7Cb%20c%7Bd%7D%5Be%5D%3Cf%3E%22g%27%27h%7E%7E%7E%7Ei"
                                  "%5F%5FNOTOC%5F%5Fj%E2%80%AEk%C2%A0l%09m")

    def test_an_entity_in_it_is_kept_as_the_address_has_it(self):
        self.assertEqual(plain_wikitext("https://x.example/?a=1&lt;b", "url"), "https://x.example/?a=1&amp;lt;b")

    def test_it_stays_one_link_in_a_link_and_one_parameter_in_a_template(self):
        url = plain_wikitext("https://x.example/a]b [[c]] {{d|e}} x y", "url")
        links = mwparserfromhell.parse(f"[{url} label]").filter_external_links()
        self.assertEqual([str(link.url) for link in links], [url])
        template = mwparserfromhell.parse("{{webarchive |url=" + url + " |date=x}}").filter_templates()
        self.assertEqual(len(template), 1)
        self.assertEqual(str(template[0].get("url").value).strip(), url)

    def test_an_address_that_is_not_http_or_https_is_refused_in_words(self):
        for url in ("javascript:alert(1)", "ftp://x.example/f", "//x.example/a", "data:text/html,<b>",
                    "x.example/a", "", "http:/x.example", "mailto:a@b.example"):
            with self.assertRaises(NotPlain) as caught:
                plain_wikitext(url, "url")
            self.assertIn("is not a web address (http or https)", str(caught.exception))

    def test_an_address_whose_site_is_not_plain_is_refused_in_words(self):
        for url in ("http://user:pw@x.example/", "http://ex ample.org/", "http://x.example{{a}}/",
                    "https://a.example:8o/", "http://ex\tample.org/"):
            with self.assertRaisesRegex(NotPlain, "does not name a web site plainly"):
                plain_wikitext(url, "url")

    def test_an_unknown_place_is_an_error(self):
        with self.assertRaises(ValueError):
            plain_wikitext("x", "heading")
