"""Where a claim reads in the rendered article (verifier_core.wikitext.rendered) and a page's
sections as MediaWiki cuts them (verifier_core.wikitext.sections): pure functions, small
hand-written pages. The real wiki's rendering is checked in test_api_edit_check."""
from __future__ import annotations

from django.test import SimpleTestCase

from verifier_core.wikitext.rendered import claim_target, rendered_page
from verifier_core.wikitext.sections import section_change, section_span


def sup(ref_id: str, note: str) -> str:
    return f'<sup id="{ref_id}" class="reference"><a href="#{note}">[x]</a></sup>'


NOTES = ('<div class="mw-references-wrap"><ol class="references">'
         '<li id="cite_note-a"><cite><a class="external text" href="http://x.test/a">A</a></cite></li>'
         '<li id="cite_note-b"><a class="external text" href="http://x.test/b">B</a></li>'
         '<li id="cite_note-sfn"><a href="#CITEREFTrewin1998">Trewin 1998</a>, p. 4</li>'
         '</ol></div><ul><li><cite id="CITEREFTrewin1998"><a class="external text" href="http://x.test/book">'
         'Lights</a></cite></li></ul>')


class RenderedTargetTests(SimpleTestCase):
    def page(self, body: str):
        return rendered_page(f'<div class="mw-parser-output">{body}{NOTES}</div>')

    def test_adjacent_markers_make_one_run_with_their_sources_in_order(self):
        page = self.page(f"<p>It opened in <b>1931</b>.{sup('r1', 'cite_note-a')} {sup('r2', 'cite_note-b')} Next.</p>")
        self.assertEqual([r.urls for r in page.runs], [("http://x.test/a", "http://x.test/b")])
        target = claim_target(page, text="It opened in 1931.", urls={"http://x.test/a", "http://x.test/b"})
        self.assertEqual((target.text, target.after, target.whole), ("It opened in 1931.", "r2", True))

    def test_a_short_footnote_takes_the_source_of_the_full_citation_it_points_to(self):
        page = self.page(f"<p>The light was first lit in 1862.{sup('r1', 'cite_note-sfn')}</p>")
        self.assertEqual(page.runs[0].urls, ("http://x.test/book",))

    def test_a_claim_that_renders_differently_keeps_its_tail_only(self):
        page = self.page(f"<p>The tower is 31 metres (102 ft) tall and white.{sup('r1', 'cite_note-a')}</p>")
        target = claim_target(page, text="The tower is 31 m tall and white.", urls={"http://x.test/a"})
        self.assertEqual((target.text, target.whole), ("tall and white.", False))

    def test_a_tail_that_starts_at_a_word_keeps_that_word(self):
        page = self.page(f"<table><tr><th>Height</th><td>31 m (102 ft){sup('r1', 'cite_note-a')}</td></tr></table>")
        target = claim_target(page, text="Height: 31 m (102 ft)", urls={"http://x.test/a"})
        self.assertEqual(target.text, "31 m (102 ft)")

    def test_no_run_of_other_sources_and_no_tail_of_two_words_is_taken(self):
        page = self.page(f"<p>It is red.{sup('r1', 'cite_note-a')}</p>")
        self.assertIsNone(claim_target(page, text="It is red.", urls={"http://x.test/b"}))
        self.assertIsNone(claim_target(page, text="Once it was red.", urls={"http://x.test/a"}))

    def test_text_never_runs_across_blocks_or_reference_lists(self):
        page = self.page(f"<p>First paragraph ends.</p><p>{sup('r1', 'cite_note-a')}Second.</p>")
        self.assertIsNone(claim_target(page, text="First paragraph ends.", urls={"http://x.test/a"}))
        self.assertNotIn("Lights", page.text.split("Second.")[0])


PAGE = """Lead text.<ref name="a">A</ref>

== History ==
Old text.<ref>B</ref>

=== Early ===
Early text.

== Later ==
Later text.<ref name="a" />
"""


class SectionTests(SimpleTestCase):
    def test_a_section_holds_its_subsections_up_to_the_next_heading_of_its_level(self):
        start, end = section_span(PAGE, 1)
        self.assertEqual(PAGE[start:end], "== History ==\nOld text.<ref>B</ref>\n\n=== Early ===\nEarly text.\n\n")
        self.assertEqual(PAGE[slice(*section_span(PAGE, 0))], 'Lead text.<ref name="a">A</ref>\n\n')
        self.assertIsNone(section_span(PAGE, 9))

    def test_a_change_inside_one_section_is_that_sections_new_text(self):
        change = section_change(PAGE, PAGE.replace("Early text.", "Early text.{{fv}}"), 2)
        self.assertEqual((change.number, change.old, change.new),
                         (2, "=== Early ===\nEarly text.", "=== Early ===\nEarly text.{{fv}}"))

    def test_a_change_reaching_another_section_is_the_whole_page(self):
        new = PAGE.replace('Lead text.<ref name="a">A</ref>', "Lead text.<ref>C</ref>").replace(
            '<ref name="a" />', '<ref name="a">A</ref>')
        change = section_change(PAGE, new, 0)
        self.assertEqual((change.number, change.new), (None, new))
