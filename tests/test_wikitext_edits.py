"""Wikitext changes for one claim: add, replace, tag, and their diff, on tricky pages."""
from __future__ import annotations

from datetime import date
from unittest import TestCase

from verifier_core.wikitext import extract
from verifier_core.wikitext.edits import (
    LocateError,
    NewSource,
    RefTarget,
    add_citation,
    correct_figure,
    new_citation,
    occurrence_target,
    replace_citation,
    tag_failed_verification,
    unified_diff,
    untag_failed_verification,
)

SOURCE = NewSource(url="https://example.org/a", title="A page", website="Example",
                   access_date=date(2026, 11, 23))
NEW_REF = ("<ref>{{cite web |url=https://example.org/a |title=A page |website=Example "
           "|access-date=23 November 2026}}</ref>")

REUSED = """The bridge opened in 1931.<ref name="smith">{{cite web |url=https://s.example/1 |title=Smith}}</ref> It carries a railway.<ref>{{cite news |url=https://n.example/2 |title=News}}</ref>

== History ==
Its arches are made of stone.<ref name="smith" /> The viaduct was listed in 1990.<ref name=smith/>
"""


def target_for(wikitext: str, claim_start: str, position: int = 0) -> RefTarget:
    """Where the claim beginning with `claim_start` has its citation, as the scan sees it."""
    extraction = extract(wikitext, "Page")
    claim = next(c for c in extraction.claims if c.text.startswith(claim_start))
    return occurrence_target(wikitext, claim.occurrences[position])


TAGGED = """The lamp was electric by 1931.<ref name="visit">{{cite web |url=https://v.example/1 |title=Visit}}</ref>{{failed verification|date=March 2024}}{{dead link|date=May 2024}} The tower is white.<ref name="visit" />{{failed verification|date=March 2024}}

== Later ==
The lamp was electric by 1931, a second time.<ref>{{cite web |url=https://w.example/2 |title=W}}</ref>{{Failed verification|date=May 2024}}<ref>{{cite web |url=https://x.example/3 |title=X}}</ref>
"""


def claim_targets(wikitext: str, claim_start: str) -> tuple[RefTarget, ...]:
    extraction = extract(wikitext, "Page")
    claim = next(c for c in extraction.claims if c.text.startswith(claim_start))
    return tuple(occurrence_target(wikitext, o) for o in claim.occurrences)


class FailingTagRemovedTests(TestCase):
    """Once the new source supports the claim, its {{failed verification}} may go in the same
    edit: on the claim's own citations only, its other tags kept."""

    def test_an_added_source_can_take_the_failed_verification_tag_off_the_claims_citation(self):
        targets = claim_targets(TAGGED, "The lamp was electric by 1931.")
        change = add_citation(TAGGED, target=targets[-1], source=SOURCE, untag=targets)
        self.assertIn('by 1931.<ref name="visit">{{cite web |url=https://v.example/1 |title=Visit}}</ref>'
                      "{{dead link|date=May 2024}}" + NEW_REF + " The tower", change.new)
        self.assertIn('white.<ref name="visit" />{{failed verification|date=March 2024}}', change.new)  # another claim's
        self.assertEqual(change.new.count("{{failed verification"), 1)
        self.assertIn("removed", change.what)

    def test_without_the_option_the_tag_stays(self):
        targets = claim_targets(TAGGED, "The lamp was electric by 1931.")
        change = add_citation(TAGGED, target=targets[-1], source=SOURCE)
        self.assertEqual(change.new.count("{{failed verification"), 2)
        self.assertNotIn("removed", change.what)

    def test_the_tag_on_any_of_the_claims_citations_goes_when_one_is_added_after_the_last(self):
        targets = claim_targets(TAGGED, "The lamp was electric by 1931, a second")
        self.assertEqual(len(targets), 2)
        change = add_citation(TAGGED, target=targets[-1], source=SOURCE, untag=targets)
        self.assertIn("|title=W}}</ref><ref>{{cite web |url=https://x.example/3 |title=X}}</ref>" + NEW_REF, change.new)
        self.assertNotIn("Failed verification", change.new)

    def test_a_replacement_takes_the_tag_off_the_claims_other_citation_too(self):
        targets = claim_targets(TAGGED, "The lamp was electric by 1931, a second")
        change = replace_citation(TAGGED, target=targets[1], source=SOURCE, untag=targets)
        self.assertIn("|title=W}}</ref>" + NEW_REF + "\n", change.new)
        self.assertNotIn("Failed verification", change.new)
        kept = replace_citation(TAGGED, target=targets[1], source=SOURCE)
        self.assertIn("{{Failed verification|date=May 2024}}", kept.new)


class NewCitationTests(TestCase):
    def test_it_fills_url_title_website_and_access_date(self):
        self.assertEqual(new_citation(SOURCE), NEW_REF)

    def test_it_keeps_pipes_and_braces_of_a_title_from_ending_the_template(self):
        ref = new_citation(NewSource(url="https://x.example/a|b c", title="A | B }} <ref>",
                                 access_date=date(2026, 1, 2)))
        self.assertIn("url=https://x.example/a%7Cb%20c ", ref)
        self.assertIn("title=A &#124; B &#125;&#125; &lt;ref&gt;", ref)
        self.assertEqual(ref.count("</ref>"), 1)
        self.assertNotIn("website=", ref)

    def test_a_title_and_site_name_with_markup_reach_the_citation_as_plain_words(self):
        hostile = "Harbour [[Category:Spam]] ~~~~ [https://spam.example buy] __NOINDEX__"
        ref = new_citation(NewSource(url="https://h.example/x", title=hostile, website="{{subst:Spam}} ''Site''",
                                     access_date=date(2026, 1, 2)))
        body = ref.removeprefix("<ref>{{cite web |url=https://h.example/x |").removesuffix("}}</ref>")
        for markup in ("[", "]", "{", "}", "~~~", "__", "''", "https:"):
            self.assertNotIn(markup, body)
        self.assertIn("title=Harbour &#91;&#91;Category&#58;Spam&#93;&#93; ", body)
        self.assertIn("website=&#123;&#123;subst&#58;Spam&#125;&#125; &#39;&#39;Site&#39;&#39; ", body)

    def test_the_site_name_the_article_already_writes_is_kept_as_it_writes_it(self):
        article = ('A.<ref>{{cite web |url=https://times.example/a |title=A |website=[[The Times]]}}</ref>\n'
                   'B.<ref>{{cite web |url=https://other.example/b |title=B}}</ref>\n')
        change = add_citation(article, target=target_for(article, "B"),
                              source=NewSource(url="https://times.example/c", title="C", website="Times | [[Spam]]",
                                               access_date=date(2026, 1, 2)))
        self.assertIn("|title=C |website=[[The Times]] |access-date=", change.new)

    def test_an_address_that_is_not_a_web_address_is_refused_in_words(self):
        for url in ("javascript:alert(1)", "ftp://x.example/a", "//x.example/a"):
            with self.assertRaisesRegex(LocateError, "is not a web address"):
                new_citation(NewSource(url=url, title="T", access_date=date(2026, 1, 2)))
            with self.assertRaisesRegex(LocateError, "is not a web address"):
                replace_citation(REUSED, target=target_for(REUSED, "It carries"),
                                 source=NewSource(url=url, title="T", access_date=date(2026, 1, 2)))

    def test_an_address_with_markup_stays_one_working_url(self):
        ref = new_citation(NewSource(url="https://x.example/a]] [[Category:X]] ~~~~ __NOTOC__ ''b''",
                                     title="", access_date=date(2026, 1, 2)))
        self.assertIn("url=https://x.example/a%5D%5D%20%5B%5BCategory:X%5D%5D%20%7E%7E%7E%7E%20%5F%5FNOTOC"
                      "%5F%5F%20%27%27b%27%27 ", ref)
        self.assertNotIn("[[", ref)


class AddCitationTests(TestCase):
    def test_it_adds_the_new_ref_right_after_the_claims_own_use_of_a_reused_ref(self):
        change = add_citation(REUSED, target=target_for(REUSED, "Its arches"), source=SOURCE)
        self.assertIn('stone.<ref name="smith" />' + NEW_REF + " The viaduct", change.new)
        self.assertEqual(change.new.count(NEW_REF), 1)
        self.assertEqual(change.snippet, NEW_REF)

    def test_it_tells_apart_several_claims_with_the_same_ref(self):
        change = add_citation(REUSED, target=target_for(REUSED, "The viaduct"), source=SOURCE)
        self.assertIn("in 1990.<ref name=smith/>" + NEW_REF, change.new)

    def test_it_adds_after_a_dead_link_tag_attached_to_the_citation(self):
        text = "Water boils at 100 C.<ref>[https://w.example/ Water]</ref>{{dead link|date=May 2020}} Next.\n"
        change = add_citation(text, target=target_for(text, "Water boils"), source=SOURCE)
        self.assertIn("{{dead link|date=May 2020}}" + NEW_REF + " Next.", change.new)

    def test_it_replaces_citation_needed_when_the_claim_has_no_citation(self):
        text = "One fact.<ref>[https://o.example/ O]</ref> A bold claim.{{citation needed|date=May 2020}} Done.\n"
        claim = next(c for c in extract(text, "Page").claims if c.needs_citation)
        change = add_citation(text, target=None, needs_span=claim.needs_citation_span, source=SOURCE)
        self.assertIn("A bold claim." + NEW_REF + " Done.", change.new)
        self.assertNotIn("citation needed", change.new)

    def test_it_finds_a_ref_inside_an_infobox_parameter(self):
        text = ("{{Infobox settlement |population = 5,000<ref name=census>{{cite web "
                "|url=https://c.example/ |title=Census}}</ref> }}\nThe town has 5,000 people.<ref name=census/>\n")
        change = add_citation(text, target=target_for(text, "The town has"), source=SOURCE)
        self.assertIn("5,000 people.<ref name=census/>" + NEW_REF, change.new)

    def test_it_ignores_a_ref_commented_out(self):
        text = "<!-- Old claim.<ref name=a>x</ref> -->New claim here.<ref name=a>{{cite web|url=https://a.example/}}</ref>\n"
        change = add_citation(text, target=target_for(text, "New claim"), source=SOURCE)
        self.assertIn("here.<ref name=a>{{cite web|url=https://a.example/}}</ref>" + NEW_REF, change.new)

    def test_it_says_the_citation_moved_when_the_text_no_longer_holds_it_there(self):
        target = target_for(REUSED, "Its arches")
        moved = "A new first sentence. " + REUSED
        with self.assertRaisesRegex(LocateError, "moved since the check; check this revision"):
            add_citation(moved, target=target, source=SOURCE)


class ReplaceCitationTests(TestCase):
    def test_it_keeps_named_refs_reused_elsewhere_when_replacing_their_definition(self):
        change = replace_citation(REUSED, target=target_for(REUSED, "The bridge opened"), source=SOURCE)
        self.assertIn("opened in 1931." + NEW_REF + " It carries", change.new)
        # The definition moved to the next use, so both other uses still resolve.
        self.assertIn('stone.<ref name="smith">{{cite web |url=https://s.example/1 |title=Smith}}</ref>',
                      change.new)
        self.assertIn("1990.<ref name=smith/>", change.new)
        after = extract(change.new, "Page")
        self.assertFalse([w for w in after.warnings if "unresolved" in w])
        urls = {after.citations[i].url for c in after.claims for i in c.citation_indices}
        self.assertIn("https://s.example/1", urls)

    def test_it_replaces_only_this_use_of_a_reused_ref(self):
        change = replace_citation(REUSED, target=target_for(REUSED, "Its arches"), source=SOURCE)
        self.assertIn("stone." + NEW_REF + " The viaduct", change.new)
        self.assertEqual(change.new.count("smith"), 2)
        self.assertIn('1931.<ref name="smith">{{cite web |url=https://s.example/1', change.new)

    def test_it_replaces_an_unnamed_ref_whole(self):
        change = replace_citation(REUSED, target=target_for(REUSED, "It carries"), source=SOURCE)
        self.assertIn("a railway." + NEW_REF + "\n", change.new)
        self.assertNotIn("n.example", change.new)

    @staticmethod
    def replace_list_defined(body: str, claim_start: str) -> str:
        text = body + "\n\n== References ==\n<references>\n<ref name=ld>{{cite web |url=https://l.example/ |title=L}}</ref>\n</references>\n"
        return replace_citation(text, target=target_for(text, claim_start), source=SOURCE).new

    def test_it_removes_a_list_defined_ref_that_loses_its_only_use(self):
        new = self.replace_list_defined("Only claim here.<ref name=ld/>", "Only claim")
        self.assertIn("Only claim here." + NEW_REF, new)
        self.assertNotIn("l.example", new)
        self.assertIn("<references>", new)

    def test_it_finds_list_defined_refs_in_reflist_refs_too(self):
        text = ("A claim in prose.<ref name=r1/>\n\n{{reflist|refs=\n"
                "<ref name=r1>{{cite web |url=https://r.example/ |title={{!}}R}}</ref>\n}}\n")
        new = replace_citation(text, target=target_for(text, "A claim"), source=SOURCE).new
        self.assertIn("A claim in prose." + NEW_REF, new)
        self.assertNotIn("r.example", new)
        self.assertTrue(new.rstrip().endswith("}}"))

    def test_it_keeps_a_list_defined_ref_still_used_elsewhere(self):
        new = self.replace_list_defined("First claim.<ref name=ld/> Second claim.<ref name=ld/>", "Second")
        self.assertIn("First claim.<ref name=ld/> Second claim." + NEW_REF, new)
        self.assertIn("l.example", new)


class TagTests(TestCase):
    def test_it_tags_the_claims_citation_with_the_month(self):
        change = tag_failed_verification(REUSED, target=target_for(REUSED, "Its arches"), when=date(2026, 11, 23))
        self.assertIn('stone.<ref name="smith" />{{failed verification|date=November 2026}} The viaduct',
                      change.new)
        self.assertEqual(change.new.count("failed verification"), 1)

    def test_it_refuses_to_tag_twice(self):
        text = "Claim one.<ref>[https://a.example/ A]</ref>{{failed verification|date=May 2020}}\n"
        with self.assertRaisesRegex(LocateError, "already tagged"):
            tag_failed_verification(text, target=target_for(text, "Claim one"), when=date(2026, 1, 1))


FIGURES = """The line closed in 1965. It reopened in 1994 with two platforms.<ref name="g">{{cite web |url=https://g.example/ |title=1994 timetable}}</ref> Trains ran again in 1994.<ref name="g" />
The tower is {{convert|41|m}} tall.<ref>[https://t.example/ T]</ref> It was lit in [[1862 in science|1862]].<ref>[https://l.example/ L]</ref>
"""


class CorrectFigureTests(TestCase):
    def test_only_the_claims_own_figure_changes_not_the_same_figure_elsewhere_or_in_its_ref(self):
        change = correct_figure(FIGURES, target=target_for(FIGURES, "It reopened"), claimed="1994", given="1996")
        self.assertIn("It reopened in 1996 with two platforms.<ref name=\"g\">{{cite web |url=https://g.example/ "
                      "|title=1994 timetable}}</ref> Trains ran again in 1994.", change.new)
        self.assertEqual(change.what, "Corrected a figure to what its cited source gives: 1994 → 1996")

    def test_a_figure_of_another_sentence_is_not_the_claims(self):
        with self.assertRaisesRegex(LocateError, "“1965” is not written in the claim's own sentence as plain text "
                                                 "or by a template that can be changed; correct it by hand"):
            correct_figure(FIGURES, target=target_for(FIGURES, "It reopened"), claimed="1965", given="1966")

    def test_a_figure_a_template_or_a_link_writes_is_left_to_the_editor(self):
        for start, claimed in (("The tower", "41 m"), ("It was lit", "1862")):
            with self.subTest(claimed), self.assertRaisesRegex(LocateError, "correct it by hand"):
                correct_figure(FIGURES, target=target_for(FIGURES, start), claimed=claimed, given="9")

    def test_a_no_break_space_is_kept_and_a_figure_in_two_units_is_left_to_the_editor(self):
        text = "The tower rises 41&nbsp;m above the rocks.<ref>[https://a.example/ A]</ref>\n"
        change = correct_figure(text, target=target_for(text, "The tower"), claimed="41 m", given="31 m")
        self.assertIn("rises 31&nbsp;m above", change.new)
        text = "The tower rises 41 m (135 ft) above the rocks.<ref>[https://a.example/ A]</ref>\n"
        with self.assertRaisesRegex(LocateError, "other units"):
            correct_figure(text, target=target_for(text, "The tower"), claimed="41 m", given="31 m")

    def test_a_figure_written_twice_in_the_sentence_is_refused(self):
        text = "In 1994 the line closed and in 1994 it reopened.<ref>[https://a.example/ A]</ref>\n"
        with self.assertRaises(LocateError) as refused:
            correct_figure(text, target=target_for(text, "In 1994"), claimed="1994", given="1996")
        self.assertEqual(str(refused.exception), "the figure “1994” is written 2 times in the claim's own sentence, "
                         "so which one its source contradicts is not certain; correct it by hand")
        self.assertNotIn("once twice", str(refused.exception))


PIERS = ("The old pier was 41 m long.{{sfn|Smith|2000|p=1}} The new pier is {{convert|41|m}} long."
         "<ref>[https://p.example/ P]</ref> Its café (built {{circa|1900}}) was 41 m long.) "
         "It opened on {{start date|1931|5|1}}.<ref>[https://q.example/ Q]</ref>\n\n"
         "== Bibliography ==\n* {{cite book |last=Smith |year=2000 |title=Piers}}\n")


def claim_for(wikitext: str, claim_start: str):
    return next(c for c in extract(wikitext, "Page").claims if c.text.startswith(claim_start))


class CorrectionInItsOwnSentenceTests(TestCase):
    """Issue 41: the claim's sentence is found from the claim's span, not by punctuation."""

    def test_a_figure_after_an_sfn_sentence_is_changed_in_its_own_sentence_not_the_one_before(self):
        change = correct_figure(PIERS, target=target_for(PIERS, "The new pier"), claimed="41 m", given="45 m")
        self.assertEqual(change.new, PIERS.replace("{{convert|41|m}}", "{{convert|45|m}}"))
        self.assertTrue(change.new.startswith("The old pier was 41 m long.{{sfn|Smith|2000|p=1}} The new pier"))

    def test_the_claims_span_comes_from_the_extractor_and_ends_at_its_citation(self):
        claim = claim_for(PIERS, "The new pier")
        start, end = claim.span
        self.assertEqual(PIERS[start:end], " The new pier is {{convert|41|m}} long.")
        self.assertEqual(end, claim.occurrences[0].start)

    def test_the_span_is_in_the_text_as_written_with_its_comments(self):
        text = "<!-- lead -->" + PIERS.replace("{{sfn|Smith|2000|p=1}}", "<!-- a -->{{sfn|Smith|2000|p=1}}<!-- b -->")
        claim = claim_for(text, "The new pier")
        self.assertEqual(text[claim.span[0]:claim.span[1]], "<!-- b --> The new pier is {{convert|41|m}} long.")
        change = correct_figure(text, target=target_for(text, "The new pier"), claimed="41 m", given="45 m")
        self.assertEqual(change.new, text.replace("{{convert|41|m}}", "{{convert|45|m}}"))

    def test_without_a_span_the_sentence_is_found_again_by_its_words_past_a_closing_parenthesis(self):
        claim = claim_for(PIERS, "It opened")
        self.assertIsNone(claim.span)  # the sentence before it has no citation of its own
        change = correct_figure(PIERS, target=target_for(PIERS, "It opened"), claimed="1931", given="1932",
                                claim=claim)
        self.assertEqual(change.new, PIERS.replace("{{start date|1931|5|1}}", "{{start date|1932|5|1}}"))

    def test_a_span_that_no_longer_reads_as_the_claim_is_not_trusted(self):
        claim = claim_for(PIERS, "The new pier")
        stale = type(claim)(**{**claim.__dict__, "span": (0, claim.span[1])})  # reaches into the sentence before
        change = correct_figure(PIERS, target=target_for(PIERS, "The new pier"), claimed="41 m", given="45 m",
                                claim=stale)
        self.assertEqual(change.new, PIERS.replace("{{convert|41|m}}", "{{convert|45|m}}"))

    def test_a_whole_date_in_a_date_template_changes_its_three_parameters(self):
        change = correct_figure(PIERS, target=target_for(PIERS, "It opened"), claimed="1 May 1931",
                                given="2 June 1932")
        self.assertEqual(change.new, PIERS.replace("{{start date|1931|5|1}}", "{{start date|1932|6|2}}"))

    def test_a_circa_year_changes_in_its_parameter(self):
        text = "The mill was built {{circa|1900}} by the river.<ref>[https://m.example/ M]</ref>\n"
        change = correct_figure(text, target=target_for(text, "The mill"), claimed="1900", given="1905")
        self.assertEqual(change.new, text.replace("{{circa|1900}}", "{{circa|1905}}"))

    def test_a_template_figure_that_cannot_be_changed_with_certainty_is_refused_in_words(self):
        cases = (("The span is {{convert|41|to|45|m}} wide.", "41", "42", "{{convert}}"),
                 ("The span is {{convert|41|m}} wide.", "41 m", "135 ft", "{{convert}}"),
                 ("The span is {{nowrap|41 m}} wide.", "41 m", "42 m", "{{nowrap}}"))
        for sentence, claimed, given, writer in cases:
            text = sentence + "<ref>[https://s.example/ S]</ref>\n"
            with self.subTest(sentence), self.assertRaises(LocateError) as refused:
                correct_figure(text, target=target_for(text, "The span"), claimed=claimed, given=given)
            self.assertIn(f"is written by the template {writer}, which cannot be changed to “{given}” with certainty",
                          str(refused.exception))

    def test_words_that_are_not_before_the_citation_any_more_are_refused(self):
        claim = claim_for(PIERS, "The new pier")
        moved = PIERS.replace("The new pier is", "The pier now is")
        target = target_for(moved, "The pier now")
        with self.assertRaisesRegex(LocateError, "the claim's words are not found before its citation"):
            correct_figure(moved, target=target, claimed="41 m", given="45 m", claim=claim)


class DiffTests(TestCase):
    def test_the_diff_shows_the_changed_line_only(self):
        change = replace_citation(REUSED, target=target_for(REUSED, "It carries"), source=SOURCE)
        diff = unified_diff(change.old, change.new, title="Bridge", context=0)
        self.assertTrue(diff.startswith("--- Bridge (current)\n+++ Bridge (proposed)\n"))
        self.assertEqual([l[0] for l in diff.splitlines()[3:]], ["-", "+"])
        self.assertIn(NEW_REF, diff)


class CorrectFigureFromThePageTests(TestCase):
    def test_the_figure_a_page_gives_is_written_as_plain_words(self):
        change = correct_figure(FIGURES, target=target_for(FIGURES, "It reopened"), claimed="1994",
                                given="1996 [[Category:Spam]] ~~~~")
        self.assertIn("It reopened in 1996 &#91;&#91;Category&#58;Spam&#93;&#93; &#126;&#126;&#126;&#126; with",
                      change.new)
