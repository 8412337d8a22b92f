"""Citations written the way the article writes them, saved on the real test MediaWiki:
each style of tests/fixtures_cite_styles gets a citation in its own date format, template
and site parameter, the saved page renders without errors (no "Cite error", no error
span), and a re-used named ref renders once in the reference list."""
from __future__ import annotations

import itertools
import re
import uuid

from django.test import TestCase, override_settings
from django.urls import reverse

from harness.demo import demo_templates
from harness.mediawiki import shared_test_wiki
from sideapp.models import Claim
from tests.edits_support import confirmed, judged_not_supported, suggested
from tests.test_wikitext_style import page
from tests.users import CastMixin
from tests.wiki_support import scan_titles

_numbers = itertools.count()
# Stand-ins for the date-format templates, which render nothing on Wikipedia either.
DATE_TEMPLATES = {"Template:Use dmy dates": "<includeonly></includeonly>",
                  "Template:Use mdy dates": "<includeonly></includeonly>"}


class StyledEditsOnTheWikiTests(CastMixin, TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = shared_test_wiki()
        cls.server.load_pages({**demo_templates(), **DATE_TEMPLATES}, summary="Side test: templates")
        cls.bot = cls.server.bot_password("Side style bot", "bot-account-password")

    def setUp(self):
        super().setUp()
        settings = override_settings(SIDE_WIKI_API_URL=self.server.api_url, SIDE_WIKI_USERNAME=self.bot[0],
                                     SIDE_WIKI_PASSWORD=self.bot[1], SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
        settings.enable()
        self.addCleanup(settings.disable)

    def load(self, fixture: str) -> str:
        title = f"Side style {fixture.removesuffix('.wiki').replace('_', ' ')} {uuid.uuid4().hex[:6]} {next(_numbers)}"
        self.server.edit(title, page(fixture))
        scan_titles(self.server, title)
        return title

    def save(self, title: str, claim_start: str, url: str, mode: str, site_name: str = "") -> str:
        claim = judged_not_supported(Claim.objects.get(article__title=title, text__startswith=claim_start))
        suggestion = suggested(claim, url, "A page that says so", site_name=site_name)
        response = confirmed(self.client_for("editor"), reverse("suggestion_apply", args=[claim.pk, suggestion.pk]),
                             {"mode": mode})
        self.assertEqual(response.status_code, 200, response.content[-2000:])
        return self.server.admin_site.pages[title].text(cache=False)

    def rendered(self, title: str) -> str:
        html = self.server.admin_site.api("parse", page=title, prop="text", formatversion=2)["parse"]["text"]
        self.assertNotIn("Cite error", html)
        self.assertNotIn('class="error', html)
        return html

    def styled(self, fixture: str, claim_start: str, url: str, mode: str, site_name: str) -> str:
        """Save `mode` with a page of `site_name` on a copy of `fixture`; the saved text,
        once its rendering is checked."""
        title = self.load(fixture)
        text = self.save(title, claim_start, url, mode, site_name=site_name)
        self.assertIn(site_name, self.rendered(title))
        return text

    def test_a_dmy_cite_web_article_gets_a_dmy_cite_web_with_the_sites_name(self):
        text = self.styled("dmy_cite_web_website.wiki", "It was built", "https://www.millsofengland.example/harrow",
                           "add", "Mills of England")
        self.assertRegex(text, r"\{\{cite web \|url=https://www\.millsofengland\.example/harrow \|title=A page that "
                               r"says so \|website=Mills of England \|access-date=\d{1,2} [A-Z][a-z]+ \d{4}\}\}")

    def test_an_mdy_cite_news_article_gets_a_cite_news_with_work_in_place_of_the_failing_one(self):
        text = self.styled("mdy_cite_news_work.wiki", "It was closed", "https://www.wendgazette.example/bridge-1998",
                           "replace", "Wend Gazette")
        self.assertRegex(text, r"\{\{cite news \|url=https://www\.wendgazette\.example/bridge-1998 \|title=A page "
                               r"that says so \|work=Wend Gazette \|access-date=[A-Z][a-z]+ \d{1,2}, \d{4}\}\}")
        self.assertNotIn("rivertonpost", text)

    def test_iso_access_dates_and_publisher_are_kept(self):
        text = self.styled("iso_cite_web_publisher.wiki", "Its light", "https://www.lighthousedirectory.example/fenwick",
                           "add", "Lighthouse Directory")
        self.assertRegex(text, r"\|publisher=Lighthouse Directory \|access-date=\d{4}-\d\d-\d\d\}\}")

    def test_a_page_the_next_sentence_cites_by_name_is_reused_and_listed_once(self):
        title = self.load("named_ref_reuse.wiki")
        text = self.save(title, "The Vellam Tramway", "http://vellambus.example/history/1931/?utm_source=feed",
                         "add", site_name="Vellam Bus Society")
        self.assertIn('opened in 1899.<ref>{{cite web |url=https://www.tramhistory.example/vellam/opening', text)
        self.assertIn('<ref name="vellam-bus" /> The line was closed', text)
        self.assertEqual(text.count("vellambus.example"), 1)
        html = self.rendered(title)
        entries = re.findall(r'<li id="cite(?:_|&#95;)note-.*?</li>', html, re.S)
        self.assertEqual(len(entries), 2)
        self.assertEqual(sum("vellambus.example" in entry for entry in entries), 1)

    def test_an_unnamed_ref_of_the_same_page_is_named_reused_and_listed_once(self):
        title = self.load("named_ref_reuse.wiki")
        text = self.save(title, "The line was closed", "https://tramhistory.example/vellam/opening/", "add",
                         site_name="Tram History")
        # Named as editors name refs (the page's slug), never VisualEditor's ":0".
        self.assertIn('opened in 1899.<ref name="opening">{{cite web |url=https://www.tramhistory.example', text)
        self.assertIn('</ref><ref name="opening" /> The depot', text)
        self.assertEqual(text.count("tramhistory.example"), 1)
        entries = re.findall(r'<li id="cite(?:_|&#95;)note-.*?</li>', self.rendered(title), re.S)
        self.assertEqual(sum("tramhistory.example" in entry for entry in entries), 1)
