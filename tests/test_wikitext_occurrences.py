"""Citations by occurrence: each claim knows where its own citations stand, and every edit
acts there, never on another sentence that cites the same page (issue 30)."""
from __future__ import annotations

from datetime import date
from unittest import TestCase

from verifier_core.wikitext import extract
from verifier_core.wikitext.edits import (
    LocateError,
    NewSource,
    add_citation,
    occurrence_target,
    replace_citation,
    tag_failed_verification,
    untag_failed_verification,
)

SOURCE = NewSource(url="https://better.example/page", title="Better", access_date=date(2026, 11, 27))
TWICE = """Margaret studied at Northgate College.<ref name="ngc">{{cite web |url=http://s.example/ngc-ellery.html |title=Notable alumni |publisher=Northgate}}</ref>

== Later life ==
In 1947 she became the first woman on the council.<ref name="ngc"/>

== Legacy ==
A wiki user's new sentence cites the same page.<ref>{{cite web |url=http://s.example/ngc-ellery.html |title=Alumni again}}</ref>
"""


def claim_of(text: str, start: str):
    return next(c for c in extract(text, "Page").claims if c.text.startswith(start))


def target_of(text: str, start: str, position: int = 0):
    return occurrence_target(text, claim_of(text, start).occurrences[position])


class OccurrenceTests(TestCase):
    def test_each_use_of_a_page_cited_twice_is_its_own_occurrence(self):
        places = [(c.text[:12], TWICE[o.start:o.end], o.kind, o.name)
                  for c in extract(TWICE, "Page").claims for o in c.occurrences]
        self.assertEqual([p[1][:17] for p in places], ['<ref name="ngc">{', '<ref name="ngc"/>', "<ref>{{cite web |"])
        self.assertEqual([p[2] for p in places], ["ref", "reuse", "ref"])

    def test_offsets_hold_across_comments_before_and_inside_refs(self):
        text = "<!-- a note -->Claim one here.<ref>A<!-- x --></ref> Claim two here.<!-- y --><ref name=b>B</ref>\n"
        found = [text[o.start:o.end] for c in extract(text, "Page").claims for o in c.occurrences]
        self.assertEqual(found, ["<ref>A<!-- x --></ref>", "<ref name=b>B</ref>"])

    def test_refs_inside_templates_tables_and_lists_have_their_places(self):
        text = ("{{Infobox thing |height = 31 m<ref name=h>{{cite web |url=https://h.example/}}</ref> }}\n"
                "{| class=wikitable\n! Year !! Event\n|-\n| 1990 || Opened<ref>{{cite web |url=https://t.example/}}</ref>\n|}\n"
                "* A listed fact.<ref>{{cite web |url=https://l.example/}}</ref>\n"
                "Shown in prose too.{{sfn|Hale|2009|p=88}}\n\n== Bibliography ==\n"
                "* {{cite book |last=Hale |year=2009 |title=Tides}}\n")
        found = {text[o.start:o.end] for c in extract(text, "Page").claims for o in c.occurrences}
        self.assertIn("<ref name=h>{{cite web |url=https://h.example/}}</ref>", found)
        self.assertIn("<ref>{{cite web |url=https://t.example/}}</ref>", found)
        self.assertIn("<ref>{{cite web |url=https://l.example/}}</ref>", found)
        self.assertIn("{{sfn|Hale|2009|p=88}}", found)

    def test_a_tag_after_one_use_of_a_named_ref_is_that_use_s_own(self):
        text = TWICE.replace('council.<ref name="ngc"/>', 'council.<ref name="ngc"/>{{failed verification|date=May 2026}}')
        claims = extract(text, "Page").claims
        self.assertEqual([o.tags for c in claims for o in c.occurrences], [[], ["failed verification"], []])


class EditsAtTheClaimsOwnCitationTests(TestCase):
    def test_add_goes_after_the_claims_own_reuse_not_the_other_sentence_citing_the_page(self):
        new = add_citation(TWICE, target=target_of(TWICE, "In 1947"), source=SOURCE).new
        self.assertIn('council.<ref name="ngc"/><ref>{{cite web |url=https://better.example/page', new)
        self.assertIn("same page.<ref>{{cite web |url=http://s.example/ngc-ellery.html |title=Alumni again}}</ref>\n",
                      new)

    def test_replace_swaps_only_the_claims_own_use(self):
        new = replace_citation(TWICE, target=target_of(TWICE, "In 1947"), source=SOURCE).new
        self.assertIn("council.<ref>{{cite web |url=https://better.example/page", new)
        self.assertEqual(new.count("ngc-ellery.html"), 2)  # the definition and the other sentence's ref stay

    def test_tag_goes_on_the_claims_own_use(self):
        new = tag_failed_verification(TWICE, target=target_of(TWICE, "In 1947"), when=date(2026, 11, 27)).new
        self.assertIn('council.<ref name="ngc"/>{{failed verification|date=November 2026}}', new)
        self.assertEqual(new.count("failed verification"), 1)

    def test_a_claim_with_nowiki_is_tagged_at_its_own_citation(self):
        text = ('The river rises in the hills.<ref name="acp"/>\n\n== Charts ==\n'
                "Old charts mark the bar as <nowiki>[shoal]</nowiki> at low water.<ref>{{cite web |url=https://c.example/}}</ref>\n\n"
                '== Notes ==\n<references><ref name="acp">{{cite web |url=https://a.example/}}</ref></references>\n')
        new = tag_failed_verification(text, target=target_of(text, "Old charts"), when=date(2026, 1, 5)).new
        self.assertIn("low water.<ref>{{cite web |url=https://c.example/}}</ref>{{failed verification|date=January 2026}}", new)
        self.assertIn('hills.<ref name="acp"/>\n', new)

    def test_replace_takes_away_the_tags_about_the_replaced_source_and_keeps_the_others(self):
        text = ("It opened in 1931.<ref>{{cite web |url=https://old.example/}}</ref>{{failed verification|date=May 2020}}"
                "{{dead link|date=June 2021}}{{when?}} Next sentence.\n")
        new = replace_citation(text, target=target_of(text, "It opened"), source=SOURCE).new
        self.assertNotIn("failed verification", new)
        self.assertNotIn("dead link", new)
        self.assertIn("|access-date=27 November 2026}}</ref>{{when?}} Next sentence.", new)

    def test_add_keeps_the_tag_on_a_ref_that_still_fails(self):
        text = "It opened in 1931.<ref>{{cite web |url=https://old.example/}}</ref>{{failed verification|date=May 2020}} Next.\n"
        new = add_citation(text, target=target_of(text, "It opened"), source=SOURCE).new
        self.assertIn("</ref>{{failed verification|date=May 2020}}<ref>{{cite web |url=https://better.example/page", new)

    def test_a_citation_needed_span_keeps_its_words_when_the_source_is_added(self):
        text = "Some words {{citation needed span|text=the bold part|date=May 2020}} end here.\n"
        claim = claim_of(text, "Some words")
        new = add_citation(text, target=None, needs_span=claim.needs_citation_span, source=SOURCE).new
        self.assertIn("Some words the bold part<ref>{{cite web", new)
        self.assertNotIn("citation needed", new)

    def test_a_short_footnote_is_not_replaced_but_can_be_tagged(self):
        text = "Shown in prose.{{sfn|Hale|2009|p=88}}\n\n== Bibliography ==\n* {{cite book |last=Hale |year=2009 |title=Tides}}\n"
        with self.assertRaisesRegex(LocateError, "short footnotes"):
            replace_citation(text, target=target_of(text, "Shown"), source=SOURCE)
        new = tag_failed_verification(text, target=target_of(text, "Shown"), when=date(2026, 2, 1)).new
        self.assertIn("{{sfn|Hale|2009|p=88}}{{failed verification|date=February 2026}}", new)

    def test_a_tag_comes_off_again_at_the_claims_own_citation(self):
        text = TWICE.replace('council.<ref name="ngc"/>', 'council.<ref name="ngc"/>{{failed verification|date=May 2026}}')
        new = untag_failed_verification(text, target=target_of(text, "In 1947")).new
        self.assertEqual(new, TWICE)
        with self.assertRaisesRegex(LocateError, "no {{failed verification}}"):
            untag_failed_verification(TWICE, target=target_of(TWICE, "In 1947"))


class ArticleSpellingTests(TestCase):
    def test_a_reuse_follows_the_article_s_spacing_and_names_are_never_colon_numbers(self):
        text = ("The regatta began in 1880.<ref name=avg-regatta>{{cite web |url=https://avg.example/regatta}}</ref> "
                "It is held each June.<ref name=avg-regatta/> Crews come from afar.<ref>{{cite web |url=https://krc.example/crews.html}}</ref>\n"
                "The race is rowed upstream.<ref>{{cite web |url=https://x.example/}}</ref>\n")
        page = NewSource(url="https://krc.example/crews.html", title="Crews")
        change = add_citation(text, target=target_of(text, "The race"), source=page)
        self.assertEqual(change.snippet, "<ref name=crews/>")
        self.assertIn("afar.<ref name=crews>{{cite web |url=https://krc.example/crews.html}}</ref>", change.new)
        self.assertNotIn(":0", change.new)
