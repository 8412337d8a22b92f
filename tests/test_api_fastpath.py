"""The gadget's findings served from Redis (sideapp.api.fastpath) against the real test wiki:
the same bytes and headers as Django's answer, no query of the database, a 304 for its ETag,
and never an answer older than the page's findings (a verdict, a scan, a move, the wikis)."""
from __future__ import annotations

import time

from django.db import connection
from django.test import TestCase, override_settings
from django.test.utils import CaptureQueriesContext

from sideapp import events
from sideapp.api import fastpath
from sideapp.models import Claim, ScanJob, Wiki
from sideapp.scans.pages import article_rename
from sideapp.scans.services import scan_request
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page

FINDINGS = "/api/v1/findings"


class FastFindingsTests(WikiConfigured, TestCase):

    def setUp(self):
        forget_api_cache()
        self.title = fresh_title()
        self.article = scanned_page(self.server, self.title)
        self.stone = judge(Claim.objects.get(article=self.article, text__startswith="It is made of red stone"))
        self.origin = Wiki.objects.get(pk=self.article.wiki_id).server.rstrip("/")

    def ask(self, *, origin: str | None = None, etag: str | None = None, revision: int | None = None):
        query = {"wiki_id": self.article.wiki.wikiid, "page_id": self.article.page_id,
                 "revision": revision or self.article.current_revision.rev_id}
        headers = {"HTTP_ORIGIN": origin or self.origin, **({"HTTP_IF_NONE_MATCH": etag} if etag else {})}
        with CaptureQueriesContext(connection) as queries:
            response = self.client.get(FINDINGS, query, **headers)
        return response, len(queries)

    def test_a_kept_answer_is_the_same_bytes_and_headers_without_a_query(self):
        first, asked = self.ask()
        again, asked_again = self.ask()
        self.assertGreater(asked, 0)
        self.assertEqual(asked_again, 0)
        self.assertEqual(again.content, first.content)
        for name in ("Content-Type", "Cache-Control", "ETag", "Vary", "Access-Control-Allow-Origin",
                     "X-Content-Type-Options"):
            self.assertEqual(again.get(name), first.get(name), name)
        self.assertEqual(again["Access-Control-Allow-Origin"], self.origin)

    def test_its_etag_is_answered_304_with_cors_and_vary_from_the_kept_answer(self):
        first, _ = self.ask()
        self.ask()
        again, asked = self.ask(etag=first["ETag"])
        self.assertEqual((again.status_code, asked), (304, 0))
        self.assertEqual(again["ETag"], first["ETag"])
        self.assertEqual(again["Access-Control-Allow-Origin"], self.origin)
        self.assertIn("Origin", again["Vary"])

    def test_another_origin_gets_no_other_origins_cors(self):
        self.ask()
        other, asked = self.ask(origin="https://evil.example")
        self.assertGreater(asked, 0)  # not the kept answer: Django judged this origin
        self.assertNotIn("Access-Control-Allow-Origin", other)

    def test_a_changed_verdict_is_never_answered_from_what_was_kept(self):
        self.ask()
        self.ask()
        Claim.objects.filter(pk=self.stone.pk).update(verdict="supported", flagged=False)
        events.findings_changed.send(sender=Claim, articles=[self.article.pk])
        _, asked = self.ask()
        self.assertGreater(asked, 0)  # Django answers: what it says of the new verdict is the view's

    def test_a_scan_opened_on_the_page_is_said_at_once(self):
        self.ask()
        job = scan_request(wiki=self.article.wiki, kind=ScanJob.Kind.TITLES, titles=[self.title], enqueue=False)
        answer, asked = self.ask()
        self.assertGreater(asked, 0)
        self.assertTrue(answer.json()["scan"].endswith(f"/api/v1/scans/{job.pk}"))
        self.assertNotIn("ETag", answer)  # nothing kept while a check runs
        job.finish(ScanJob.Status.DONE, "done")
        done, asked = self.ask()
        self.assertGreater(asked, 0)
        self.assertIsNone(done.json()["scan"])

    def test_a_moved_page_answers_with_its_new_title(self):
        self.ask()
        article_rename(article=self.article, title=self.title + " (moved)", reason="moved in a test")
        answer, asked = self.ask()
        self.assertGreater(asked, 0)
        self.assertEqual(answer.json()["title"], self.title + " (moved)")

    def test_a_change_of_the_wikis_drops_every_kept_answer(self):
        self.ask()
        wiki = Wiki.objects.get(pk=self.article.wiki_id)
        wiki.save()
        _, asked = self.ask()
        self.assertGreater(asked, 0)

    def test_a_kept_answer_is_served_no_longer_than_the_findings_max_age(self):
        with override_settings(SIDE_API_FINDINGS_MAX_AGE=1):
            self.ask()
            _, asked = self.ask()
            self.assertEqual(asked, 0)
            time.sleep(1.2)  # an offer may have expired with time alone: Django judges again
            _, asked = self.ask()
            self.assertGreater(asked, 0)

    def test_an_answer_read_before_a_change_is_not_kept_after_it(self):
        page = (self.article.wiki.wikiid, self.article.page_id)
        state = fastpath._state(*page)  # what the view's request read before its rows
        fastpath.forget(wikiid=page[0], page_id=page[1])  # a verdict changed meanwhile
        response, _ = self.ask()  # a fresh answer, kept under the new generation
        fastpath._keep((*page, 0), "stale-field", state, response)
        self.assertIsNone(fastpath.cache.connection().hget(fastpath._answers(*page), f"{state[1]}|stale-field"))

    def test_other_requests_go_to_django(self):
        self.ask()
        by_title = self.client.get(FINDINGS, {"wiki_id": self.article.wiki.wikiid, "title": self.title})
        self.assertEqual(by_title.status_code, 200)
        bad = self.client.get(FINDINGS, {"wiki_id": self.article.wiki.wikiid, "page_id": "x", "revision": "1"})
        self.assertEqual(bad.json()["code"], "bad_parameter")
        with CaptureQueriesContext(connection) as queries:
            unnamed = self.client.get(FINDINGS, {"wiki_id": self.article.wiki.wikiid, "page_id": self.article.page_id})
        self.assertEqual(unnamed.status_code, 200)
        self.assertGreater(len(queries), 0)  # no revision named: Django asks the wiki whether it is stale
