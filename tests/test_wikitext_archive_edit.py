"""The archived copy written into a citation as the article writes its others, or {{dead link}}."""
from __future__ import annotations

import unittest
from datetime import date

from sideapp.sources.rescue import CitedPage, archive_decision, url_status
from verifier_core.wikitext.archive_edit import add_archive, archive_style, tag_dead_link
from verifier_core.wikitext.edits import LocateError, target_at

COPY = "http://127.0.0.1:8403/demo/20181121093000/http://gz.example/dues"
DMY_ARTICLE = """{{Use dmy dates}}
Dues rose.<ref>{{cite news |url=http://gz.example/dues |title=Dues rise |work=Gazette |access-date=21 November 2018}}</ref>
Old.<ref>{{cite web |url=http://a.example/b |title=B |access-date=2 May 2017 |archive-url=https://web.archive.org/web/2017/http://a.example/b |archive-date=3 May 2017 |url-status=dead}}</ref>"""


def ref_target(wikitext: str, needle: str, **kw):
    start = wikitext.index(needle)
    end = wikitext.index("</ref>", start) + len("</ref>") if "kind" not in kw else start + len(needle)
    return target_at(wikitext, start, end, **kw)


class ArchiveEditTests(unittest.TestCase):
    def test_an_archive_url_with_markup_is_written_as_one_working_url(self):
        copy = "http://w.example/web/2018/http://gz.example/dues]] [[Category:Spam]] {{x}} ~~~~ __NOINDEX__"
        for text, needle in ((DMY_ARTICLE, "<ref>{{cite news"), ('A.<ref>[http://e.example/a Title]</ref>', "<ref>")):
            change = add_archive(text, target=ref_target(text, needle), archive_url=copy,
                                 archive_date=date(2018, 11, 21), url_status="dead")
            added = change.new.replace(text[:text.index(needle)], "", 1)
            for markup in ("]]", "[[", "{{x", "~~~", "__"):
                self.assertNotIn(markup, change.snippet)
            self.assertIn("http://w.example/web/2018/http://gz.example/dues%5D%5D%20%5B%5BCategory:Spam%5D%5D"
                          "%20%7B%7Bx%7D%7D%20%7E%7E%7E%7E%20%5F%5FNOINDEX%5F%5F", added)

    def test_an_archive_url_that_is_not_a_web_address_is_refused_in_words(self):
        with self.assertRaisesRegex(LocateError, "is not a web address"):
            add_archive(DMY_ARTICLE, target=ref_target(DMY_ARTICLE, "<ref>{{cite news"),
                        archive_url="javascript:alert(1)", archive_date=date(2018, 11, 21), url_status="dead")

    def test_a_cite_template_gets_the_three_parameters_in_the_articles_style(self):
        target = ref_target(DMY_ARTICLE, "<ref>{{cite news")
        change = add_archive(DMY_ARTICLE, target=target, archive_url=COPY, archive_date=date(2018, 11, 21),
                             url_status="dead")
        self.assertIn(f"|access-date=21 November 2018 |archive-url={COPY} |archive-date=21 November 2018 "
                      "|url-status=dead}}</ref>", change.new)
        self.assertEqual(change.snippet, f"|archive-url={COPY} |archive-date=21 November 2018 |url-status=dead")
        self.assertEqual(change.new.replace(" " + change.snippet, ""), DMY_ARTICLE)

    def test_archive_dates_follow_the_articles_archive_dates_and_its_spelling(self):
        text = ("A.<ref>{{cite web|url=http://x.example/a|title=A|accessdate=2019-01-02}}</ref> "
                "B.<ref>{{cite web|url=http://x.example/b|title=B|archiveurl=http://w/b|archivedate=March 4, 2019}}</ref>")
        style = archive_style(text)
        self.assertEqual((style.date_format, style.url_param, style.date_param), ("mdy", "archiveurl", "archivedate"))
        change = add_archive(text, target=ref_target(text, "A.<ref>".removeprefix("A.")), archive_url="http://w/a",
                             archive_date=date(2019, 1, 2), url_status="usurped")
        self.assertIn("|accessdate=2019-01-02|archiveurl=http://w/a|archivedate=January 2, 2019|url-status=usurped}}",
                      change.new)

    def test_a_bare_link_gets_webarchive_after_it_and_a_reuse_changes_the_definition(self):
        text = 'A.<ref name="b">[http://e.example/a Title] Example, 2019.</ref> B.<ref name="b"/>'
        target = ref_target(text, '<ref name="b"/>', kind="reuse", name="b")
        change = add_archive(text, target=target, archive_url="https://web.archive.org/web/2019/http://e.example/a",
                             archive_date=date(2019, 3, 2), url_status="dead")
        self.assertEqual(change.new, 'A.<ref name="b">[http://e.example/a Title] {{webarchive '
                         '|url=https://web.archive.org/web/2019/http://e.example/a |date=2 March 2019}} Example, '
                         '2019.</ref> B.<ref name="b"/>')

    def test_its_dead_link_tag_goes_and_an_archived_citation_is_refused(self):
        text = "A.<ref>{{cite web |url=http://x.example/a |title=A}}</ref>{{dead link|date=June 2023}} more"
        change = add_archive(text, target=ref_target(text, "<ref>"), archive_url="http://w/a",
                             archive_date=date(2020, 1, 1), url_status="dead")
        self.assertNotIn("dead link", change.new)
        with self.assertRaisesRegex(LocateError, "archived copy already"):
            add_archive(DMY_ARTICLE, target=ref_target(DMY_ARTICLE, "<ref>{{cite web"), archive_url="http://w",
                        archive_date=date(2020, 1, 1), url_status="dead")

    def test_the_dead_link_tag_side_editor_wrote_inside_the_ref_goes_too(self):
        tagged = tag_dead_link(DMY_ARTICLE, target=ref_target(DMY_ARTICLE, "<ref>{{cite news"),
                               when=date(2026, 11, 27)).new
        change = add_archive(tagged, target=ref_target(tagged, "<ref>{{cite news"), archive_url=COPY,
                             archive_date=date(2018, 11, 21), url_status="dead")
        self.assertNotIn("dead link", change.new)
        self.assertIn(f"|url-status=dead}}}}</ref>\nOld.", change.new)

    def test_a_dead_link_tag_after_a_reuse_of_the_named_ref_goes_with_the_one_after_its_definition(self):
        text = ('A.<ref name="d">{{cite web |url=http://x.example/d |title=D}}</ref>{{dead link|date=May 2024}} '
                'B.<ref name="d" />{{Dead link|date=May 2024|bot=x}} C.<ref>{{cite web |url=http://y.example |title=Y}}'
                '</ref>{{dead link|date=May 2024}}')
        change = add_archive(text, target=ref_target(text, '<ref name="d" />', kind="reuse", name="d"),
                             archive_url="http://w/d", archive_date=date(2020, 1, 1), url_status="dead")
        self.assertEqual(change.new.count("ead link"), 1)  # the other citation keeps its own
        self.assertIn('B.<ref name="d" /> C.', change.new)
        self.assertIn("|archive-url=http://w/d", change.new)

    def test_a_dead_link_without_a_copy_is_tagged_once_with_its_month(self):
        target = ref_target(DMY_ARTICLE, "<ref>{{cite news")
        change = tag_dead_link(DMY_ARTICLE, target=target, when=date(2026, 11, 27))
        self.assertIn("21 November 2018}}{{dead link|date=November 2026}}</ref>", change.new)
        with self.assertRaisesRegex(LocateError, "already tagged"):
            tag_dead_link(change.new, target=ref_target(change.new, "<ref>{{cite news"), when=date(2026, 11, 27))


class ArchiveOfferTests(unittest.TestCase):
    def page(self, **kw):
        facts = dict(key=1, verdict="supported", page_state="gone", read="copy", has_archive=False, dead_tagged=False)
        return CitedPage(**{**facts, **kw})

    def test_a_supporting_copy_of_a_dead_page_is_offered_and_a_failing_one_never(self):
        self.assertTrue(archive_decision([self.page()]).offered)
        refused = archive_decision([self.page(verdict="not_supported")])
        self.assertFalse(refused.offered)
        self.assertIn("does not support the claim", refused.why_not)

    def test_a_live_page_that_supports_is_left_alone(self):
        decision = archive_decision([self.page(page_state="live", read="live")])
        self.assertEqual((decision.offered, decision.why_not), (False, "The live page is the cited work; it is left alone."))

    def test_dead_without_copy_gets_dead_link_unless_tagged(self):
        dead = self.page(verdict="source_unavailable", read="")
        self.assertEqual(archive_decision([dead]).kind, "dead_link")
        self.assertFalse(archive_decision([self.page(verdict="source_unavailable", read="", dead_tagged=True)]).offered)
        self.assertFalse(archive_decision([self.page(has_archive=True)]).offered)

    def test_no_dead_link_tag_while_the_archives_have_not_answered(self):
        waiting = archive_decision([self.page(verdict="source_unavailable", read="", lookup="pending")])
        self.assertFalse(waiting.offered)
        self.assertIn("not known yet", waiting.why_not)

    def test_url_status_says_what_became_of_the_page(self):
        self.assertEqual([url_status(s) for s in ("usurped", "soft404", "home", "changed")],
                         ["usurped", "dead", "dead", "live"])

    def test_a_page_that_could_not_be_read_just_now_gets_no_edit(self):
        decision = archive_decision([self.page(page_state="unreadable")])
        self.assertFalse(decision.offered)
        self.assertIn("whether it is dead is not known", decision.why_not)
