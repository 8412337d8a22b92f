"""Saves whose outcome is not known when the wiki's answer does not come back, against the
real test MediaWiki behind a loopback proxy that misbehaves (issue 41): the save stays
pending, is settled from the page's history (its edit summary's marker) right away where
the wiki shows it already, else by recovery, and once saved its claim's re-check is queued.
The editor reads that the outcome is being confirmed, never a 502."""
from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from redis import Redis

from harness.faulty_proxy import FaultyProxy
from sideapp.edits.models import AuditEntry
from sideapp.edits.saving import marker, pending_saves_settle
from sideapp.models import Claim, ScanJob
from tests.edits_support import judged_not_supported
from tests.test_edits_saving import TWICE
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, scan_titles


class BehindProxy(OnSharedWikiWithBot, TestCase):
    """A scanned page on the shared test wiki, reached through a FaultyProxy (`self.proxy`),
    and an editor's preview token of tagging its claim."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.proxy = FaultyProxy(cls.server.base_url)
        cls.proxy.start()

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        super().tearDownClass()

    def setUp(self):
        self.users = cast()
        self.title = f"Side outcome test {uuid.uuid4().hex[:8]}"
        self.server.edit(self.title, TWICE)
        wiki_settings = override_settings(SIDE_WIKI_API_URL=self.proxy.api_url, SIDE_WIKI_USERNAME=self.bot_user,
                                          SIDE_WIKI_PASSWORD=self.bot_password, SIDE_WIKI_TIMEOUT=2,
                                          SIDE_WIKI_RETRIES=1, SIDE_WIKI_BACKOFF=0.1)
        wiki_settings.enable()
        self.addCleanup(wiki_settings.disable)
        self.addCleanup(self.proxy.heal)
        scan_titles(self.proxy, self.title)
        self.claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="In 1947"))
        self.base = self.server.current_revid(self.title)
        self.client = Client()
        self.client.login(username=self.users["editor"].username, password=PASSWORD)
        self.url = reverse("claim_tag", args=[self.claim.pk])
        self.token = self.client.get(self.url).context["proposal"].token

    def confirm(self):
        return self.client.post(self.url, {"confirm": "1", "token": self.token})

    def revisions(self) -> list[int]:
        """The page's revision ids, newest first."""
        return [r["revid"] for r in self.server.admin_site.pages[self.title].revisions(prop="ids")]

    def wiki_text(self) -> str:
        return self.server.admin_site.pages[self.title].text(cache=False)


class UnknownOutcomeTests(BehindProxy):
    def test_a_save_whose_answer_is_lost_after_the_wiki_stored_it_is_saved_in_the_audit_and_rechecked(self):
        scans = ScanJob.objects.count()
        self.proxy.drop_answer("action=edit")
        response = self.confirm()
        revision = self.server.current_revid(self.title)
        self.assertEqual(self.revisions(), [revision, self.base])  # the wiki stored it, once
        self.assertContains(response, f'<strong id="saved-revision">{revision}</strong>', html=False)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.status, entry.revision_id), ("saved", revision))
        self.assertEqual(ScanJob.objects.count(), scans + 1)
        self.assertEqual(self.wiki_text().count("failed verification"), 1)

    def test_a_save_the_wiki_stores_after_the_client_gave_up_stays_pending_then_recovery_settles_it(self):
        scans = ScanJob.objects.count()
        self.proxy.delay("action=edit", 4)  # past the client's 2 s
        response = self.confirm()
        self.assertContains(response, "being confirmed from the page", status_code=202)
        self.assertNotContains(response, "502", status_code=202)
        entry = AuditEntry.objects.get()
        self.assertEqual(entry.status, "pending")
        self.assertIn("outcome being confirmed", entry.outcome)
        self.assertTrue(self.proxy.relayed_late.wait(30))
        revision = self.server.current_revid(self.title)
        self.assertEqual(self.revisions(), [revision, self.base])
        latest = next(iter(self.server.admin_site.pages[self.title].revisions(limit=1, prop="comment")))
        self.assertIn(marker(entry.token), latest["comment"])
        self.assertEqual(ScanJob.objects.count(), scans)  # not re-checked before it is known to be saved
        self.assertEqual(pending_saves_settle(older_than=timedelta(0)), 1)
        entry.refresh_from_db()
        self.assertEqual((entry.status, entry.revision_id, entry.outcome), ("saved", revision, ""))
        self.assertEqual(ScanJob.objects.count(), scans + 1)
        self.proxy.heal()
        again = self.confirm()  # the same confirm, clicked again: the revision saved, no second edit
        self.assertContains(again, f'<strong id="saved-revision">{revision}</strong>', html=False)
        self.assertEqual(self.server.current_revid(self.title), revision)

    def test_recovery_leaves_a_pending_save_whose_page_is_being_saved_for_its_next_round(self):
        self.proxy.delay("action=edit", 4)
        self.assertEqual(self.confirm().status_code, 202)
        self.assertTrue(self.proxy.relayed_late.wait(30))
        key = f"side:edit-lock:{self.claim.article.pk}"
        store = Redis.from_url(settings.REDIS_URL)
        store.set(key, "another save", ex=30)
        self.addCleanup(store.delete, key)
        with override_settings(SIDE_WEB_TIMEOUT=12, SIDE_WIKI_TIMEOUT=2):  # a 2 s wait for the lock
            self.assertEqual(pending_saves_settle(older_than=timedelta(0)), 0)
        self.assertEqual(AuditEntry.objects.get().status, "pending")
        store.delete(key)
        self.assertEqual(pending_saves_settle(older_than=timedelta(0)), 1)
        self.assertEqual(AuditEntry.objects.get().status, "saved")

    def test_a_repeat_confirm_while_the_outcome_is_unknown_says_so_and_saves_nothing_more(self):
        self.proxy.delay("action=edit", 8)
        self.assertEqual(self.confirm().status_code, 202)
        again = self.confirm()
        self.assertContains(again, "being confirmed", status_code=202)
        self.assertTrue(self.proxy.relayed_late.wait(30))
        self.assertEqual(len(self.revisions()), 2)  # one edit, for two confirms
        self.assertEqual(AuditEntry.objects.get().status, "pending")
