"""Nothing from the web is live wikitext, judged by the real wiki's parser (issue 41): a page
whose title, site name or address carries markup, added, put in place of a failing
citation, or given as the archived copy, leaves the page's links, categories, templates,
external links, properties and headings as they were, plus the new address alone; the
pre-save transform (signatures, subst:) finds nothing to do; the page shows the value's
words. Hostile values from a list, then generated ones (hypothesis, fixed seed), and an
add and a replace through the app, saved on the wiki."""
from __future__ import annotations

import unicodedata
import unittest
import uuid
from datetime import date
from urllib.parse import unquote

from django.test import TestCase, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from harness.mediawiki import shared_test_wiki
from sideapp.models import Claim
from tests.edits_support import judged_not_supported, suggested
from tests.test_edits_wiki import PAGE as EDIT_PAGE
from tests.test_wikitext_plain import HOSTILE
from tests.users import PASSWORD, cast
from tests.wiki_parse_support import added, parsed, removed, with_templates, words
from tests.wiki_support import OnSharedWikiWithBot, scan_titles
from verifier_core.wikitext import extract
from verifier_core.wikitext.archive_edit import add_archive
from verifier_core.wikitext.edits import (
    LocateError,
    NewSource,
    add_citation,
    correct_figure,
    occurrence_target,
    replace_citation,
)

ARTICLE = """'''Kell harbour''' is a harbour on the Wenn estuary.<ref>{{cite web |url=https://old.example/a |title=Old A}}</ref> The pier was built in 1850.<ref>{{cite web |url=https://old.example/b |title=Old B}}</ref> The quay opened in 1901.<ref>{{cite web |url=https://old.example/c |title=Old C |access-date=2 May 2017}}</ref>

== History ==
The lighthouse was lit in 1862.<ref>{{cite web |url=https://old.example/b |title=Old B again}}</ref> Its keeper left in 1921.<ref>[https://old.example/d Keeper's log]</ref>

[[Category:Harbours]]

== References ==
<references />
"""
DAY = date(2026, 12, 4)


def target(wikitext: str, start: str):
    claim = next(c for c in extract(wikitext, "Kell harbour").claims if c.text.startswith(start))
    return occurrence_target(wikitext, claim.occurrences[0])


def add(wikitext: str, source: NewSource) -> str:
    return add_citation(wikitext, target=target(wikitext, "Kell harbour"), source=source).new


def replace(wikitext: str, source: NewSource) -> str:
    return replace_citation(wikitext, target=target(wikitext, "The pier was built"), source=source).new


def correct(wikitext: str, given: str) -> str:
    """The figure of the claim in prose, outside any ref (where the pre-save transform acts),
    changed to `given` as a page would give it."""
    return correct_figure(wikitext, target=target(wikitext, "The lighthouse"), claimed="1862", given=given).new


def archive(wikitext: str, url: str, start: str = "The quay opened") -> str:
    return add_archive(wikitext, target=target(wikitext, start), archive_url=url, archive_date=DAY,
                       url_status="dead").new


class WikiJudgedTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = shared_test_wiki()
        with_templates(cls.server)
        cls.before = parsed(cls.server, ARTICLE)

    def assert_only_addresses_added(self, texts: list[str], urls: list[str],
                                    templates: frozenset = frozenset()) -> dict:
        """The pages `texts` (edits of ARTICLE, judged in one parse: one after the other)
        have what ARTICLE has, plus the external links `urls` (as written before any
        escaping) and the citation `templates`, and nothing else; the pre-save transform
        leaves them as they are."""
        text = "\n\n".join(texts)
        after = parsed(self.server, text)
        self.assertEqual(removed(self.before, after), {}, text)
        new = added(self.before, after)
        links = new.pop("externallinks", set())
        self.assertLessEqual(new.pop("templates", set()), templates, text)
        self.assertEqual(new, {}, text)
        # A URL's surrounding blanks are not part of it.
        self.assertEqual({unquote(link) for link in links}, {unquote(url.strip()) for url in urls} - {
            unquote(link) for link in self.before["externallinks"]}, text)
        self.assertEqual(after["psttext"].rstrip(), unicodedata.normalize("NFC", text).rstrip(), text)
        return after


def batches(values: list[str], size: int = 8) -> list[list[str]]:
    return [values[n:n + size] for n in range(0, len(values), size)]


class TheCheckerSeesMarkupTests(WikiJudgedTestCase):
    def test_a_value_written_as_it_came_puts_its_category_link_signature_and_switch_on_the_page(self):
        hostile = "Harbour [[Category:Spam]] ~~~~ [https://spam.example buy] __NOINDEX__"
        in_citation = added(self.before, parsed(self.server, ARTICLE.replace("|title=Old A}}",
                                                                             f"|title=Old A |website={hostile}}}}}")))
        self.assertIn("Spam", in_citation["categories"])
        self.assertIn("https://spam.example", in_citation["externallinks"])
        self.assertIn("noindex", in_citation["properties"])
        in_prose = parsed(self.server, ARTICLE.replace("lit in 1862.", f"lit in 1862 {hostile}."))
        self.assertIn("User:Admin", added(self.before, in_prose)["links"])  # the signature, outside a ref
        self.assertNotIn("~~~~", in_prose["psttext"])


class HostileValuesTests(WikiJudgedTestCase):
    def test_a_hostile_title_site_name_and_figure_reach_the_page_as_their_words(self):
        for batch in batches(HOSTILE):
            with self.subTest(values=batch):
                texts, urls = [], []
                for n, value in enumerate(batch):
                    first = NewSource(url=f"https://new.example/harbour{n}", title=value, website=value,
                                      access_date=DAY)
                    second = NewSource(url=f"https://new.example/pier{n}", title=value + " 2", website=value,
                                       access_date=DAY)
                    texts.append(correct(replace(add(ARTICLE, first), second), f"1863 {value}"))
                    urls += [first.url, second.url]
                after = self.assert_only_addresses_added(texts, urls)
                for value in batch:
                    self.assertIn(words(value), after["text"])
                    self.assertIn(words(value + " 2"), after["text"])
                    self.assertIn(words(f"lit in 1863 {value}"), after["text"])

    def test_a_hostile_archive_address_stays_one_link_in_a_cite_template_and_after_a_bare_link(self):
        for batch in batches(HOSTILE):
            with self.subTest(values=batch):
                texts, urls = [], []
                for value in batch:
                    url, bare = "https://archive.example/web/2017/" + value, "https://archive.example/web/2018/" + value
                    texts.append(archive(archive(ARTICLE, url), bare, "Its keeper left"))
                    urls += [url, bare]
                self.assert_only_addresses_added(texts, urls, frozenset({"Template:Webarchive"}))

    def test_an_address_that_is_not_http_is_refused_in_words_and_nothing_is_written(self):
        for url in ("javascript:alert(1)", "ftp://new.example/a", "//new.example/a"):
            with self.assertRaisesRegex(LocateError, "is not a web address"):
                add(ARTICLE, NewSource(url=url, title="A title", access_date=DAY))
            with self.assertRaisesRegex(LocateError, "is not a web address"):
                archive(ARTICLE, url)


FRAGMENTS = (*HOSTILE, "Ålesund", "Brücke über die Wenn", "東京港", "مرفأ", "Ελλάδα", "\u00a0", " ", "'", "~", "_",
             "&", ";", "#", "=", ":", "|", "[", "]", "{", "}", "<", ">", "!", "*", "-", "\n")
any_char = st.characters(exclude_categories=["Cs", "Cn"])
values = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(any_char, max_size=8)), max_size=6).map("".join)
path = st.lists(st.one_of(st.sampled_from(("[[", "]]", "{{", "}}", "~~~~", "__NOTOC__", "''", "|", " ", "<", ">",
                                           '"', "&lt;", "&#91;", "\u202e", "\u00a0", "/", "?a=1&b=2", "é", "港")),
                          st.text(st.characters(categories=["L", "N"]), max_size=4)), max_size=6).map("".join)
host = st.from_regex(r"[a-z][a-z0-9]{0,8}\.example", fullmatch=True)
scheme = st.sampled_from(("https", "https", "https", "http", "javascript", "ftp"))


edit_case = st.fixed_dictionaries({
    "title": values, "site": values, "title2": values, "figure": values, "schemes": st.tuples(scheme, scheme, scheme),
    "hosts": st.tuples(host, host, host), "paths": st.tuples(path, path, path)})


class GeneratedValuesTests(WikiJudgedTestCase):
    def test_any_page_added_put_in_place_and_archived_and_any_figure_add_only_the_new_addresses(self):
        made = []  # per edit tried: whether it was made

        # 40 examples of 2 cases each (one parse per example); fixed seed; no shrinking, so
        # that a failure costs no more than a run (it prints its example).
        @settings(max_examples=40, derandomize=True, deadline=None, database=None,
                  phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(st.lists(edit_case, min_size=2, max_size=2))
        def check(cases):
            texts, written, shown = [], [], []
            for case in cases:
                text = self.edited(case, written, made)
                texts.append(correct(text, f"1863 {case['figure']}"))
                shown += [words(f"lit in 1863 {case['figure']}")]
                if case["schemes"][0] in ("http", "https") and words(case["title"]):
                    shown.append(words(case["title"]))
            after = self.assert_only_addresses_added(texts, written)
            for words_shown in shown:
                self.assertIn(words_shown, after["text"])

        check()
        # A run where (nearly) every edit is refused would prove nothing.
        self.assertGreaterEqual(sum(made), 0.5 * len(made), f"only {sum(made)} of {len(made)} edits were made")

    def edited(self, case: dict, written: list[str], made: list[bool]) -> str:
        """ARTICLE with the case's page added, another put in place of a citation, and an
        archived copy; an address that is not http(s) refused in words (and only such)."""
        urls = [f"{s}://{h}/{p}" for s, h, p in zip(case["schemes"], case["hosts"], case["paths"])]
        text = ARTICLE
        edits = ((add, NewSource(url=urls[0], title=case["title"], website=case["site"], access_date=DAY)),
                 (replace, NewSource(url=urls[1], title=case["title2"], website=case["site"], access_date=DAY)),
                 (archive, urls[2]))
        for (edit, what), url, kind in zip(edits, urls, case["schemes"]):
            try:
                text = edit(text, what)
            except LocateError as exc:
                self.assertNotIn(kind, ("http", "https"), exc)
                self.assertIn("is not a web address", str(exc))
                made.append(False)
                continue
            self.assertIn(kind, ("http", "https"))
            written.append(url)
            made.append(True)
        return text


class SuggestedPageWithMarkupFlowTests(OnSharedWikiWithBot, TestCase):
    """Through the app: a suggested page whose title and site name carry markup, added and
    put in place on the real wiki; the saved page, read back and parsed, has its words only."""

    HOSTILE_TITLE = "Harbour [[Category:Spam]] ~~~~ [https://spam.example buy] __NOINDEX__ {{subst:Dead link}}"
    HOSTILE_SITE = "''Gazette'' [[File:X.jpg]] <!-- x </ref> &#91;&#91;Category:X&#93;&#93;"
    URL = "https://harbour.example/history?a=1&b=2"

    def setUp(self):
        users = cast()
        self.client.login(username=users["editor"].username, password=PASSWORD)
        with_templates(self.server)
        self.title = f"Side plain test {uuid.uuid4().hex[:8]}"
        self.server.edit(self.title, EDIT_PAGE)
        settings = override_settings(SIDE_WIKI_API_URL=self.server.api_url, SIDE_WIKI_USERNAME=self.bot_user,
                                     SIDE_WIKI_PASSWORD=self.bot_password, SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
        settings.enable()
        self.addCleanup(settings.disable)
        scan_titles(self.server, self.title)
        self.before = parsed(self.server, EDIT_PAGE)

    def saved_through_the_app(self, mode: str) -> str:
        claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="It is made of"))
        suggestion = suggested(claim, self.URL, self.HOSTILE_TITLE, site_name=self.HOSTILE_SITE)
        url = reverse("suggestion_apply", args=[claim.pk, suggestion.pk])
        preview = self.client.get(url, {"mode": mode})
        self.assertEqual(preview.status_code, 200, preview.content[-1500:])
        saved = self.client.post(url, {"mode": mode, "confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-1500:])
        return self.server.admin_site.pages[self.title].text(cache=False)

    def assert_only_its_words_reached_the_page(self, text: str) -> None:
        after = parsed(self.server, text)
        new = added(self.before, after)
        self.assertEqual(new.pop("externallinks", set()), {self.URL})
        self.assertEqual(new, {})  # no category, link, file, template, property or heading
        self.assertLessEqual(set(removed(self.before, after)), {"externallinks"})  # a replaced source's link
        self.assertEqual(after["psttext"].rstrip(), text.rstrip())
        for value in (self.HOSTILE_TITLE, self.HOSTILE_SITE):
            self.assertIn(words(value), after["text"])

    def test_an_added_page_with_markup_in_its_title_and_site_name_reaches_the_article_as_its_words(self):
        self.assert_only_its_words_reached_the_page(self.saved_through_the_app("add"))

    def test_a_page_with_markup_put_in_place_of_a_failing_citation_reaches_the_article_as_its_words(self):
        text = self.saved_through_the_app("replace")
        self.assertNotIn("|title=Stone}}", text)
        self.assert_only_its_words_reached_the_page(text)
