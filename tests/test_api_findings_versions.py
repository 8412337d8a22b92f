"""Findings that change when verdicts change: the findings' ETag and cache key come from the
page's findings version (bumped by every re-judgement of any of its claims), the rules and
what its suggestions may offer now, so a verdict changed without a scan (an archived copy
read, an editor's judgement, an offer that expired) is a new ETag: a reader revalidating gets
200 with the new verdict, never a 304 with the old one, and no kept answer outlives it."""
from __future__ import annotations

import time
from datetime import timedelta

from django.test import TestCase, override_settings
from django.urls import reverse
from django.utils import timezone

from sideapp.api.views import RULES_TAG
from sideapp.claims.changes import findings_changed
from sideapp.claims.models import Claim, Suggestion
from sideapp.claims.verification import claim_verify
from sideapp.models import Article, Citation, Source
from sideapp.sources.models import ArchivedCopy
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page
from tests.edits_support import read_source
from tests.users import PASSWORD, cast
from tests.verification_support import shared_checkpoint

FINDINGS = "/api/v1/findings"
OPENED = "The Side test bridge opened in 1931."
STONE = "It is made of red stone."
ARCHIVES = "http://archive.invalid/cdx http://archive.invalid/web/"


class FindingsVersionTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.article = scanned_page(self.server, fresh_title("Side versions test"))
        self.query = {"wiki_id": "sidewiki", "page_id": self.article.page_id,
                      "revision": self.article.current_revision.rev_id}

    def get(self, etag: str | None = None):
        headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
        return self.client.get(FINDINGS, self.query, **headers)

    def finding(self, answer, text: str) -> dict:
        return next(c for c in answer.json()["claims"] if c["text"] == text)

    def claim(self, text: str) -> Claim:
        return Claim.objects.get(article=self.article, text=text)

    def assertRevalidatedWithNews(self, etag: str):
        """A revalidation with the old ETag: the new answer, with a new ETag, never a 304."""
        answer = self.get(etag)
        self.assertEqual(answer.status_code, 200, answer.content[:300])
        self.assertNotEqual(answer["ETag"], etag)
        self.assertEqual(self.get(answer["ETag"]).status_code, 304)  # the new one stands until the next change
        return answer

    def test_the_etag_names_the_findings_version_and_the_rules(self):
        etag = self.get()["ETag"]
        version = Article.objects.get(pk=self.article.pk).findings_version
        self.assertIn(f"-v{version}-", etag)
        self.assertIn(RULES_TAG, etag)
        self.assertEqual(self.get(etag).status_code, 304)

    @override_settings(SIDE_ARCHIVES=ARCHIVES)
    def test_a_verdict_changed_by_an_archived_copy_read_is_a_new_etag_and_the_new_verdict(self):
        url = "http://127.0.0.1:9/opening"
        read_source(url, status=Source.Status.HTTP_ERROR)
        Source.objects.filter(url=url).update(http_status=404, reason="HTTP 404")
        Citation.objects.filter(article=self.article, url=url).update(access_date="2019-03-01")
        with override_settings(SIDE_VERIFIER_DIR=str(shared_checkpoint())):
            claim_verify(claim=self.claim(OPENED))  # the page is gone, no copy looked for yet
            first = self.get()
            self.assertEqual(self.finding(first, OPENED)["verdict"], "source_unavailable")
            # The copy as cited, as the archive stage stores it once read from an archive.
            text = "The Side test bridge opened in 1931 after four years of work, the council said."
            ArchivedCopy.objects.create(
                source=Source.objects.get(url=url), target="20190301", state=ArchivedCopy.State.FOUND,
                archive_name="the Test Archive", timestamp="20190228120000", capture_url=url,
                replay_prefix="http://archive.invalid/web/", title="Opening", text=text, fetched_at=timezone.now())
            judged = claim_verify(claim=self.claim(OPENED))
        self.assertNotEqual(judged.verdict, "source_unavailable")
        answer = self.assertRevalidatedWithNews(first["ETag"])
        finding = self.finding(answer, OPENED)
        self.assertEqual(finding["verdict"], judged.verdict)
        self.assertEqual(finding["citations"][0]["archive"]["timestamp"], "20190228120000")

    def test_an_editors_judgement_is_a_new_etag_and_says_what_editors_judged(self):
        claim = judge(self.claim(STONE))
        first = self.get()
        self.assertEqual(self.finding(first, STONE)["editors"], {"verified": 0, "dismissed": 0, "source_supports": 0})
        users = cast()
        editor = self.client_class()
        editor.login(username=users["editor"].username, password=PASSWORD)
        self.assertIn(editor.post(reverse("claim_verified", args=[claim.pk])).status_code, (200, 302))
        answer = self.assertRevalidatedWithNews(first["ETag"])
        self.assertEqual(self.finding(answer, STONE)["editors"]["verified"], 1)
        editor.post(reverse("claim_dismiss", args=[claim.pk]), {"reason": "source_supports"})
        again = self.assertRevalidatedWithNews(answer["ETag"])
        self.assertEqual(self.finding(again, STONE)["editors"], {"verified": 0, "dismissed": 1, "source_supports": 1})

    @override_settings(SIDE_SUGGESTION_MAX_AGE_DAYS=30)
    def test_an_offer_that_expires_with_time_is_a_new_etag_without_it(self):
        claim = judge(self.claim(STONE))
        text = "The bridge is made of red stone from the quarry at Kell, the survey says."
        # Read so long ago that its offer ends three seconds from now: nothing is written after.
        page = read_source("http://127.0.0.1:9/quarry", text, days_ago=30 - 3 / 86400)
        Suggestion.objects.create(claim=claim, rank=1, url=page.url, title="Quarry", source=page, score=0.9,
                                  verdict="supported", beats_current=True,
                                  evidence={"passage": text, "start": 0, "end": len(text)})
        first = self.get()
        actions = {a["action"] for a in self.finding(first, STONE)["actions"]}
        self.assertTrue({"add", "replace"} <= actions, actions)
        time.sleep(max(0.0, (page.fetched_at + timedelta(days=30) - timezone.now()).total_seconds()) + 0.5)
        answer = self.assertRevalidatedWithNews(first["ETag"])
        actions = {a["action"] for a in self.finding(answer, STONE)["actions"]}
        self.assertFalse({"add", "replace"} & actions, actions)

    def test_a_kept_answer_is_not_served_after_a_verdict_changed(self):
        first = self.get()  # kept in Redis from here on; the claim has no verdict yet, so it is not listed
        self.assertNotIn(STONE, [c["text"] for c in first.json()["claims"]])
        judged = judge(self.claim(STONE))  # writes the rows only, so the version is bumped as every writer does
        findings_changed(claims=[judged.pk])
        answer = self.get()  # a new reader, no ETag: not the kept copy
        self.assertEqual(self.finding(answer, STONE)["verdict"], "not_supported")
        self.assertNotEqual(answer["ETag"], first["ETag"])
