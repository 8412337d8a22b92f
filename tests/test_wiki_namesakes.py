"""Two wikis named alike are two wikis: two fresh MediaWiki installs (the same wikiid and
sitename, as two default installs or a staging copy have) are told apart by what they hold,
a known page's revision and its hash, before any row moves; a scan of one never answers with
the other's page, and `scan_article --wiki URL` talks to that URL only."""
from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path

from django.core.management import call_command
from django.test import TestCase, TransactionTestCase, override_settings
from django.urls import reverse

from harness.faulty_proxy import FaultyProxy
from harness.mediawiki import MediaWikiServer
from sideapp.models import Article, Claim, Revision, ScanJob, Wiki
from sideapp.scans.services import scan_request
from sideapp.scans.wikis import client_for, saving_off_reason, wiki_for, wiki_is_configured
from tests.users import PASSWORD, cast
from tests.wiki_support import NOWHERE

# What each of the two fresh wikis held: revision 2 of each is another page.
KINGDOM = "United Kingdom"
GRAND_PRIX = "2008 British motorcycle Grand Prix"
KINGDOM_TEXT = (f"The United Kingdom has four countries.<ref>{{{{cite web |url={NOWHERE}uk |title=UK}}}}</ref>\n"
                f"Its capital is London.<ref>{{{{cite web |url={NOWHERE}london |title=London}}}}</ref>\n")
GRAND_PRIX_TEXT = (f"The race was held at Donington Park.<ref>{{{{cite web |url={NOWHERE}gp |title=GP}}}}</ref>\n"
                   f"Valentino Rossi won the MotoGP race.<ref>{{{{cite web |url={NOWHERE}rossi |title=Rossi}}}}</ref>\n"
                   f"Rain fell before the start.<ref>{{{{cite web |url={NOWHERE}rain |title=Rain}}}}</ref>\n")
FAST = {"SIDE_WIKI_RETRIES": 1, "SIDE_WIKI_BACKOFF": 0.01}


class TwoFreshWikis:
    """Two fresh installs named alike, each with one page of its own as revision 2."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.root = Path(tempfile.mkdtemp(prefix="side-namesakes-"))
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        cls.first = cls._fresh("first", KINGDOM, KINGDOM_TEXT)
        cls.second = cls._fresh("second", GRAND_PRIX, GRAND_PRIX_TEXT)

    @classmethod
    def _fresh(cls, name: str, title: str, text: str) -> MediaWikiServer:
        server = MediaWikiServer(cls.root / name, die_with_parent=True)
        server.start()
        cls.addClassCleanup(server.stop)
        server.edit(title, text)
        return server

    def scan(self, wiki: Wiki, title: str) -> ScanJob:
        from sideapp.pipeline.stages import scan_job

        job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=[title], enqueue=False)
        for item in job.items.all():
            scan_job(item.pk)
        return job


@override_settings(**FAST)
class NamesakeWikiTests(TwoFreshWikis, TestCase):
    def test_the_two_fresh_wikis_are_named_alike_and_hold_another_page_at_revision_two(self):
        first, second = self.first.site().site, self.second.site().site
        self.assertEqual((first["wikiid"], first["sitename"]), (second["wikiid"], second["sitename"]))
        self.assertEqual(self.first.current_revid(KINGDOM), self.second.current_revid(GRAND_PRIX))

    def test_a_wiki_named_alike_at_another_address_is_a_wiki_of_its_own(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        second = wiki_for(api_url=self.second.api_url)
        self.assertNotEqual(second.pk, first.pk)
        self.assertEqual(second.identity, first.identity)
        first.refresh_from_db()
        self.assertEqual(first.api_url, self.first.api_url)  # the first wiki's row did not move
        self.assertEqual(wiki_for(api_url=self.first.api_url).pk, first.pk)

    def test_a_scan_of_the_second_wiki_writes_its_own_page_not_the_first_ones(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        kingdom = set(Claim.objects.filter(article__title=KINGDOM).values_list("pk", "text"))
        job = self.scan(wiki_for(api_url=self.second.api_url), GRAND_PRIX)
        item = job.items.get()
        self.assertNotIn("already scanned", item.reason)
        self.assertEqual(item.article.title, GRAND_PRIX)
        self.assertEqual(item.revision.claim_count, 3)
        self.assertEqual(set(item.article.claims.values_list("text", flat=True)),
                         {"The race was held at Donington Park.", "Valentino Rossi won the MotoGP race.",
                          "Rain fell before the start."})
        self.assertEqual(set(Claim.objects.filter(article__title=KINGDOM).values_list("pk", "text")), kingdom)
        self.assertEqual(Article.objects.get(wiki=first, page_id=item.article.page_id).title, KINGDOM)

    def test_a_scan_at_an_address_now_answered_by_another_wiki_refuses_in_words(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        # The first wiki's row reached at the second wiki's address (as rows moved before
        # what a wiki holds was checked): its revision 2 is another page there.
        Wiki.objects.filter(pk=first.pk).update(api_url=self.second.api_url)
        first.refresh_from_db()
        item = self.scan(first, GRAND_PRIX).items.get()
        self.assertEqual(item.status, "failed")
        self.assertIn("is not the revision 2 Side editor stored", item.reason)
        self.assertIn("another wiki answers at", item.reason)
        self.assertFalse(Article.objects.filter(title=GRAND_PRIX).exists())
        self.assertEqual(Article.objects.get(wiki=first).title, KINGDOM)  # not renamed to the other page
        self.assertEqual(Revision.objects.filter(article__wiki=first).count(), 1)

    def test_a_known_wiki_with_nothing_stored_is_told_from_a_namesake_by_its_newest_revisions(self):
        first = wiki_for(api_url=self.first.api_url)  # known, never scanned: its address still answers
        second = wiki_for(api_url=self.second.api_url)
        self.assertNotEqual(second.pk, first.pk)
        self.assertEqual(Wiki.objects.count(), 2)

    def test_a_known_wiki_with_nothing_stored_whose_address_is_silent_moves(self):
        gone = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php", wikiid="sidewiki", name="Side Demo Wiki")
        moved = wiki_for(api_url=self.second.api_url)  # nothing could be mixed: no page of it is stored
        self.assertEqual((moved.pk, moved.api_url), (gone.pk, self.second.api_url))

    def test_the_configured_wiki_is_not_its_namesake(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        with override_settings(SIDE_WIKI_API_URL=self.second.api_url, SIDE_WIKI_USERNAME="Bot@side",
                               SIDE_WIKI_PASSWORD="secret"):
            self.assertFalse(wiki_is_configured(first))
            self.assertIn("Saving is off for", saving_off_reason(first))
            self.assertEqual(client_for(first, interactive=True).config.api_url, self.first.api_url)
            self.assertEqual(client_for(first).config.username, "")
        first.refresh_from_db()
        self.assertEqual(first.api_url, self.first.api_url)

    def test_the_public_api_answers_for_the_wiki_the_page_asks_from_never_its_namesake(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        self.scan(wiki_for(api_url=self.second.api_url), GRAND_PRIX)
        page_id = Article.objects.get(title=GRAND_PRIX).page_id
        self.assertEqual(Article.objects.get(title=KINGDOM).page_id, page_id)  # one page id on each wiki
        query = {"wiki_id": "sidewiki", "page_id": page_id}
        for server, title in ((self.second, GRAND_PRIX), (self.first, KINGDOM)):
            answer = self.client.get("/api/v1/findings", query, HTTP_ORIGIN=server.base_url)
            self.assertEqual((answer.status_code, answer.json()["title"]), (200, title))
            self.assertEqual(answer["Access-Control-Allow-Origin"], server.base_url)
        unsure = self.client.get("/api/v1/findings", query)
        self.assertEqual((unsure.status_code, unsure.json()["code"]), (409, "ambiguous_wiki"))
        self.assertIn("several wikis that call themselves 'sidewiki'", unsure.json()["error"])

    def test_an_admin_sees_both_wikis_and_is_told_they_are_named_alike(self):
        first = wiki_for(api_url=self.first.api_url)
        self.scan(first, KINGDOM)
        wiki_for(api_url=self.second.api_url)
        users = cast()
        self.client.login(username=users["admin"].username, password=PASSWORD)
        page = self.client.get(reverse("wiki_list")).content.decode()
        self.assertIn(self.first.api_url, page)
        self.assertIn(self.second.api_url, page)
        self.assertIn("Another wiki has the same id and name", page)


@override_settings(SIDE_WIKI_RETRIES=3, SIDE_WIKI_BACKOFF=0.5)
class ScanArticleOnAGivenWikiTests(TwoFreshWikis, TransactionTestCase):
    """Commits for real: --sync runs each stage once the previous one has committed."""

    def test_scan_article_with_a_wiki_talks_only_to_that_wiki(self):
        # The configured wiki is the first one, reached through a proxy that counts what it
        # is asked (and answers 503, so that a request would be retried and seen).
        with FaultyProxy(self.first.base_url) as proxy:
            first = wiki_for(api_url=self.first.api_url)
            self.scan(first, KINGDOM)
            proxy.fail(503)
            with override_settings(SIDE_WIKI_API_URL=proxy.api_url):
                out = io.StringIO()
                call_command("scan_article", GRAND_PRIX, wiki=self.second.api_url, sync=True, json=True,
                             stdout=out)
            asked = list(proxy.answered)
        (report,) = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual(asked, [])
        self.assertEqual(report["title"], GRAND_PRIX)
        self.assertEqual({c["text"] for c in report["claims"]},
                         {"The race was held at Donington Park.", "Valentino Rossi won the MotoGP race.",
                          "Rain fell before the start."})
