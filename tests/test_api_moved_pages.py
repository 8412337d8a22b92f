"""A page moved on the real test MediaWiki (its old title left as a redirect, as the wiki
leaves it for readers) and a page protected: findings asked by the old title answer for the
page it redirects to, a check asked for the old title reads the page it redirects to (never
the redirect page), and the null revision a move or a protection writes is no change of text:
the findings are not stale."""
from __future__ import annotations

import json

from django.test import TestCase, override_settings

from sideapp.models import Article, Claim, ScanJob
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page


class MovedPageTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.old = fresh_title("Side move test")
        self.new = self.old + " moved"
        self.article = scanned_page(self.server, self.old)
        judge(Claim.objects.get(article=self.article, text__startswith="Its span"))
        self.server._admin_post("move", **{"from": self.old, "to": self.new, "reason": "Side test: a move"})

    def findings(self, **params):
        return self.client.get("/api/v1/findings", {"wiki_id": "sidewiki", **params})

    def test_findings_by_the_old_title_answer_for_the_page_it_redirects_to(self):
        by_id = self.findings(page_id=self.article.page_id)  # the gadget on the moved page: renames the row
        self.assertEqual((by_id.status_code, by_id.json()["title"]), (200, self.new), by_id.content)
        for title in (self.old, self.old.replace(" ", "_")):
            with self.subTest(title=title):
                answer = self.findings(title=title)
                self.assertEqual(answer.status_code, 200, answer.content)
                data = answer.json()
                self.assertEqual((data["page_id"], data["title"]), (self.article.page_id, self.new))
                self.assertEqual(len(data["claims"]), len(by_id.json()["claims"]))
                self.assertGreater(len(data["claims"]), 0)

    def test_a_title_no_page_has_is_still_not_scanned(self):
        answer = self.findings(title=fresh_title("Side never written"))
        self.assertEqual((answer.status_code, answer.json()["code"]), (404, "not_scanned"))

    @override_settings(SIDE_API_SCAN_LIMIT=100)
    def test_a_check_asked_for_the_old_title_reads_the_page_it_redirects_to(self):
        answer = self.client.post("/api/v1/scan", json.dumps({"wiki_id": "sidewiki", "title": self.old}),
                                  content_type="application/json")
        self.assertEqual(answer.status_code, 202, answer.content)
        self.assertEqual(answer.json()["title"], self.new)
        job = ScanJob.objects.get(pk=answer.json()["job"])
        self.assertEqual(job.items.get().page_id, self.article.page_id)
        self.assertFalse(Article.objects.filter(title=self.old).exclude(pk=self.article.pk).exists())

    def test_the_null_revision_of_a_move_leaves_the_findings_current(self):
        latest = self.server.current_revid(self.new)
        self.assertGreater(latest, self.article.current_revision.rev_id)  # the move wrote a revision
        self.assertIs(self.findings(page_id=self.article.page_id).json()["stale"], False)
        self.assertIs(self.findings(page_id=self.article.page_id, revision=latest).json()["stale"], False)

    def test_the_null_revision_of_a_protection_leaves_the_findings_current_and_an_edit_does_not(self):
        self.server._admin_post("protect", title=self.new, protections="edit=sysop", expiry="infinite",
                                reason="Side test: protected")
        latest = self.server.current_revid(self.new)
        self.assertIs(self.findings(page_id=self.article.page_id, revision=latest).json()["stale"], False)
        edited = self.server.edit(self.new, self.article.current_revision.wikitext + "\nA new sentence.\n")
        self.assertIs(self.findings(page_id=self.article.page_id, revision=edited).json()["stale"], True)
