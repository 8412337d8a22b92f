"""The page lock of saves, against the real test MediaWiki and real Redis (issue 41): its
wait and lifetime fit inside the web worker's timeout (gunicorn.conf.py sets it), a save
that outlives its lock sends nothing, the lock store down is a 503 in words with nothing
saved, and every way out of a save leaves the page unlocked."""
from __future__ import annotations

import os
import runpy
import threading
import time
import uuid
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.db import connection, connections
from django.test import Client, SimpleTestCase, TransactionTestCase, override_settings
from django.urls import reverse
from redis import Redis

from harness.faulty_proxy import FaultyProxy
from harness.mw_support import free_port
from sideapp.edits.lock_timing import lock_timing
from sideapp.edits.models import AuditEntry
from sideapp.models import Claim, ScanJob
from tests.edits_support import judged_not_supported
from tests.test_edits_save_outcomes import BehindProxy
from tests.test_edits_saving import TWICE
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, page_for_edits, scan_titles

ROOT = Path(__file__).resolve().parents[1]


def lock_key(article) -> str:
    return f"side:edit-lock:{article.pk}"


class LockTimingTests(SimpleTestCase):
    def test_the_lock_waits_and_lives_inside_the_web_workers_timeout(self):
        for web, wiki in ((60, 20.0), (30, 5.0), (120, 20.0), (12, 2.0)):
            timing = lock_timing(web, wiki)
            self.assertLess(timing.wait + timing.lifetime, web)
            self.assertGreaterEqual(timing.lifetime, 2 * wiki)
            self.assertLessEqual(timing.wait, 10)

    def test_a_wiki_timeout_a_save_cannot_fit_in_is_refused_in_words(self):
        with self.assertRaisesMessage(ValueError, "Raise SIDE_WEB_TIMEOUT to at least 60"):
            lock_timing(30, 20.0)

    def test_gunicorn_is_given_the_timeout_the_lock_is_sized_from(self):
        conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
        self.assertEqual(conf["timeout"], settings.SIDE_WEB_TIMEOUT)
        timing = lock_timing(conf["timeout"], settings.SIDE_WIKI_TIMEOUT)
        self.assertLess(timing.wait + timing.lifetime, conf["timeout"])

    def test_gunicorn_does_not_start_with_a_wiki_timeout_a_save_cannot_fit_in(self):
        with mock.patch.dict(os.environ, {"SIDE_WEB_TIMEOUT": "30", "SIDE_WIKI_TIMEOUT": "20"}):
            with self.assertRaisesMessage(ValueError, "a save could outlive its web worker"):
                runpy.run_path(str(ROOT / "gunicorn.conf.py"))


class PageLockTests(BehindProxy):
    def store(self) -> Redis:
        return Redis.from_url(settings.REDIS_URL)

    def assert_nothing_saved(self) -> None:
        self.assertEqual(self.revisions(), [self.base])
        self.assertFalse(AuditEntry.objects.filter(status__in=["saved", "pending"]).exists())

    def test_with_redis_down_a_save_answers_503_in_words_and_saves_nothing(self):
        with override_settings(SIDE_LOCK_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):
            response = self.confirm()
        self.assertContains(response, "cannot reach its lock store (Redis)", status_code=503)
        self.assertContains(response, "nothing was saved", status_code=503)
        self.assert_nothing_saved()

    def test_a_save_that_outlives_its_lock_sends_nothing_and_says_so(self):
        self.proxy.hold("inprop=protection")  # the save's read of the page, in the lock
        key = lock_key(self.claim.article)

        def expire_the_lock():
            self.proxy.wait_held(1)
            self.store().delete(key)  # as the lock's lifetime ending does
            self.proxy.release()

        expiry = threading.Thread(target=expire_the_lock)
        expiry.start()
        response = self.confirm()
        expiry.join(30)
        self.assertContains(response, "longer than a page may stay locked", status_code=409)
        self.assert_nothing_saved()
        self.assertIn("longer than a page may stay locked", AuditEntry.objects.get(status="refused").outcome)

    @override_settings(SIDE_WEB_TIMEOUT=12, SIDE_WIKI_TIMEOUT=2)
    def test_a_page_locked_by_another_save_is_waited_for_inside_the_workers_timeout_then_refused(self):
        self.store().set(lock_key(self.claim.article), "another save", ex=30)
        self.addCleanup(self.store().delete, lock_key(self.claim.article))
        started = time.monotonic()
        response = self.confirm()
        waited = time.monotonic() - started
        self.assertContains(response, "another save of this page is still running", status_code=409)
        self.assertLess(waited, 12)
        self.assertGreaterEqual(waited, lock_timing(12, 2).wait - 0.5)  # it did wait (redis-py polls every 0.1 s)
        self.assert_nothing_saved()

    def test_every_way_out_of_a_save_leaves_the_page_unlocked(self):
        key = lock_key(self.claim.article)
        theirs = self.wiki_text().replace("\n\n== Legacy ==", "\nShe retired in 1960.\n\n== Legacy ==")
        self.server.edit(self.title, theirs, summary="someone edits the section")
        self.assertEqual(self.confirm().status_code, 409)  # an edit conflict
        self.assertFalse(self.store().exists(key))
        self.proxy.delay("action=edit", 1)
        self.token = self.client.get(self.url).context["proposal"].token
        self.assertEqual(self.confirm().status_code, 200)  # saved
        self.assertFalse(self.store().exists(key))
        with override_settings(SIDE_LOCK_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):
            self.assertEqual(self.confirm().status_code, 503)
        self.assertFalse(self.store().exists(key))


class RedisGoneAfterTheSaveTests(OnSharedWikiWithBot, TransactionTestCase):
    """The save's re-check is queued once its row commits; Redis failing then leaves the edit
    saved, the audit saying so, and the scan row for recovery to queue: never a 500."""

    def test_a_redis_error_after_the_save_answers_saved_and_keeps_the_recheck_for_recovery(self):
        users = cast()
        server, title = page_for_edits(self, "Side redis after test", text=TWICE,
                                       bot=(self.bot_user, self.bot_password), SIDE_WIKI_RETRIES=1, SIDE_WIKI_BACKOFF=0.1)
        claim = judged_not_supported(Claim.objects.get(article__title=title, text__startswith="In 1947"))
        client = Client()
        client.login(username=users["editor"].username, password=PASSWORD)
        url = reverse("claim_tag", args=[claim.pk])
        token = client.get(url).context["proposal"].token
        scans = ScanJob.objects.count()
        queue = settings.RQ_QUEUES["scan"]
        kept = queue["URL"]
        queue["URL"] = f"redis://127.0.0.1:{free_port()}/0"  # the queues' Redis gone; the lock store answers
        try:
            response = client.post(url, {"confirm": "1", "token": token})
        finally:
            queue["URL"] = kept
        revision = server.current_revid(title)
        self.assertContains(response, f'<strong id="saved-revision">{revision}</strong>', html=False)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.status, entry.revision_id), ("saved", revision))
        self.assertEqual(ScanJob.objects.count(), scans + 1)


class DatabaseGoneDuringTheSaveTests(OnSharedWikiWithBot, TransactionTestCase):
    """PostgreSQL dropping the web process's connection in the middle of a save (terminated
    by the server while the save reads the wiki): a 503 in words, nothing sent to the wiki."""

    def test_the_database_gone_mid_save_answers_503_in_words_and_saves_nothing(self):
        users = cast()
        with FaultyProxy(self.server.base_url) as proxy, override_settings(
                SIDE_WIKI_API_URL=proxy.api_url, SIDE_WIKI_USERNAME=self.bot_user, SIDE_WIKI_PASSWORD=self.bot_password,
                SIDE_WIKI_RETRIES=1, SIDE_WIKI_BACKOFF=0.1):
            title = f"Side database gone test {uuid.uuid4().hex[:8]}"
            self.server.edit(title, TWICE)
            scan_titles(proxy, title)
            claim = judged_not_supported(Claim.objects.get(article__title=title, text__startswith="In 1947"))
            base = self.server.current_revid(title)
            client = Client()
            client.login(username=users["editor"].username, password=PASSWORD)
            url = reverse("claim_tag", args=[claim.pk])
            token = client.get(url).context["proposal"].token
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                (pid,) = cursor.fetchone()

            def drop_the_connection():
                proxy.wait_held(1)
                try:
                    with connections["default"].cursor() as cursor:  # this thread's own connection
                        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
                finally:
                    connections.close_all()
                    proxy.release()

            proxy.hold("inprop=protection")  # the save's read of the page, in the lock
            dropper = threading.Thread(target=drop_the_connection)
            dropper.start()
            response = client.post(url, {"confirm": "1", "token": token})
            dropper.join(30)
        self.assertContains(response, "database does not answer just now", status_code=503)
        self.assertEqual(self.server.current_revid(title), base)
        self.assertNotIn("failed verification", self.server.admin_site.pages[title].text(cache=False))
        connection.close()  # the terminated one: the next query opens a new connection
        self.assertFalse(AuditEntry.objects.filter(status__in=["saved", "pending"]).exists())
