"""Wikilinks and redirects from verifier_core.wikitext."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.wikitext import WikiLink, extract, extract_links, redirect_target


class ExtractLinksTests(SimpleTestCase):
    def test_it_returns_target_and_anchor_of_piped_and_plain_links(self):
        links = extract_links("See [[Paris|the capital]] and [[London]].")
        self.assertEqual(links, [WikiLink("Paris", "the capital"), WikiLink("London", "London")])

    def test_it_normalises_targets(self):
        links = extract_links("[[new_york_city#History|NYC]] [[ eiffel  Tower ]]")
        self.assertEqual([link.target for link in links], ["New york city", "Eiffel Tower"])

    def test_it_skips_files_categories_interwiki_and_other_namespaces(self):
        text = (
            "[[File:A.jpg|thumb|A [[Cat]]]] [[Image:B.png]] [[Category:X]] [[de:Katze]] "
            "[[Wikipedia:Policy]] [[Template:Foo]] [[:Category:Y|Y]] [[Datei:C.jpg]] [[Star Wars: Andor]]"
        )
        self.assertEqual([link.target for link in extract_links(text)], ["Cat", "Star Wars: Andor"])

    def test_it_includes_the_link_trail_and_the_pipe_trick(self):
        links = extract_links("Many [[bunker]]s and [[Paris (band)|]].")
        self.assertEqual(links, [WikiLink("Bunker", "bunkers"), WikiLink("Paris (band)", "Paris")])

    def test_it_finds_links_inside_templates_and_refs(self):
        links = extract_links("{{Infobox|capital=[[Rome]]}} Text.<ref>[[Livy]]</ref>")
        self.assertEqual([link.target for link in links], ["Rome", "Livy"])

    def test_it_strips_markup_from_anchors(self):
        (link,) = extract_links("[[Moby-Dick|''Moby-Dick'']]")
        self.assertEqual(link.anchor, "Moby-Dick")

    def test_it_ignores_links_in_comments_and_never_raises(self):
        self.assertEqual(extract_links("<!-- [[Hidden]] -->"), [])
        self.assertEqual(extract_links("[[|]] [[ ]] [[#only fragment]] [[{{x}}]]"), [])

    def test_extract_fills_links(self):
        e = extract("Text about [[Oslo]].", "T")
        self.assertEqual(e.links, [WikiLink("Oslo", "Oslo")])


class RedirectTests(SimpleTestCase):
    def test_it_reads_the_redirect_target(self):
        self.assertEqual(redirect_target("#REDIRECT [[Toronto]]"), "Toronto")
        self.assertEqual(redirect_target("  #redirect:[[new_york#Top|x]]\n{{R from move}}"), "New york")

    def test_it_returns_none_for_an_ordinary_page(self):
        self.assertIsNone(redirect_target("Toronto is a city. #REDIRECT [[X]]"))

    def test_a_redirect_page_has_a_target_and_no_claims(self):
        e = extract("#REDIRECT [[Toronto]] {{R from alternative name}}", "Old name")
        self.assertEqual(e.redirect_target, "Toronto")
        self.assertEqual((e.claims, e.citations, e.sections), ([], [], []))
