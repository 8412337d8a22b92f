"""The proposal endpoint (the change as data, by the same code as the apply and tag pages,
cut to the claim's section as the wiki cuts it) and scan requests from the article page
(one pending scan per page, a rate limit per client), against the real test MediaWiki."""
from __future__ import annotations

import json

import django_rq
from django.test import TestCase, override_settings

from sideapp.models import Claim, ScanJob, Suggestion
from tests.edits_support import suggested
from tests.api_support import PAGE, WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page
from tests.wiki_support import scan_titles
from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.judgement.reasons import words


class WikiTestCase(WikiConfigured, TestCase):

    def setUp(self):
        forget_api_cache()
        self.title = fresh_title()
        self.article = scanned_page(self.server, self.title)


class ProposalTests(WikiTestCase):
    def proposal(self, claim: Claim, **params):
        return self.client.get(f"/api/v1/claims/{claim.pk}/proposal", params)

    def wiki_section(self, number: int) -> str:
        result = self.server.admin_site.api("query", prop="revisions", titles=self.title, rvprop="content",
                                            rvslots="main", rvsection=number, formatversion=2)
        return result["query"]["pages"][0]["revisions"][0]["slots"]["main"]["content"]

    def test_a_tag_proposal_is_the_claims_section_as_the_wiki_cuts_it(self):
        claim = judge(Claim.objects.get(article=self.article, text__startswith="Its span"))
        answer = self.proposal(claim, action="tag")
        self.assertEqual(answer.status_code, 200, answer.content)
        data = answer.json()
        revision = self.article.current_revision
        self.assertEqual((data["title"], data["section"], data["base_revision"]), (self.title, 1, revision.rev_id))
        self.assertEqual(data["base_timestamp"], revision.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.assertEqual(data["old_text"], self.wiki_section(1).rstrip())
        self.assertRegex(data["text"], r"\|title=Span\}\}</ref>\{\{failed verification\|date=\w+ \d{4}\}\}"
                                       r"<ref>\{\{cite web \|url=http://127.0.0.1:9/span-2")
        self.assertTrue(data["text"].startswith("== Later =="))
        self.assertEqual(data["summary"], "Tagged a citation that does not support the claim; checked with Side editor")
        self.assertIn("+", data["diff"])
        self.assertFalse(self.client.cookies)

    def test_a_figure_correction_changes_only_the_claims_figure_in_its_section(self):
        figure = Reason(ReasonKind.FIGURE, claimed="120 metres", given="130 metres", thing="the bridge's span")
        claim = judge(Claim.objects.get(article=self.article, text__startswith="Its span"),
                      reason=words([figure]), reasons=[figure.to_json()])
        data = self.proposal(claim, action="correct").json()
        self.assertEqual(data["section"], 1)
        self.assertEqual(data["text"], data["old_text"].replace("Its span is 120 metres.", "Its span is 130 metres."))
        self.assertEqual(data["summary"], "Corrected a figure to what its cited source gives: 120 metres → 130 metres; "
                                          "checked with Side editor")
        other = judge(Claim.objects.get(article=self.article, text__startswith="It is made"),
                      reason="no passage of the source mentions red stone")
        self.assertEqual(self.proposal(other, action="correct").json()["code"], "not_offered")

    def test_a_replacement_that_moves_a_named_refs_definition_proposes_the_whole_page(self):
        claim = judge(Claim.objects.get(article=self.article, text__startswith="The Side test bridge"))
        better = suggested(claim, "https://example.org/history", "History")
        data = self.proposal(claim, action="replace", suggestion=better.pk).json()
        self.assertIsNone(data["section"])
        self.assertIn('traffic in 1990.<ref name="opening">{{cite web', data["text"])
        self.assertIn("opened in 1931.<ref>{{cite web |url=https://example.org/history", data["text"])

    def test_an_action_the_card_does_not_offer_is_refused_in_words(self):
        supported = judge(Claim.objects.get(article=self.article, text__startswith="It is made"), "supported")
        answer = self.proposal(supported, action="tag")
        self.assertEqual((answer.status_code, answer.json()["code"]), (409, "not_offered"))
        failing = judge(Claim.objects.get(article=self.article, text__startswith="Its span"))
        self.assertEqual(self.proposal(failing, action="add").json()["code"], "not_offered")  # no suggestion
        self.assertEqual(self.proposal(failing, action="add", suggestion=999_999).json()["code"], "unknown_suggestion")
        self.assertEqual(self.proposal(failing, action="delete").json()["code"], "bad_action")
        self.assertEqual(self.client.get("/api/v1/claims/999999/proposal", {"action": "tag"}).status_code, 404)

    def test_a_claim_no_longer_in_the_current_revision_is_refused_in_words(self):
        claim = judge(Claim.objects.get(article=self.article, text__startswith="Its span"))
        self.server.edit(self.title, PAGE.replace("Its span is 120 metres.", "Its span is 130 metres."))
        scan_titles(self.server, self.title)
        answer = self.proposal(claim, action="tag")
        self.assertEqual((answer.status_code, answer.json()["code"]), (409, "not_current"))
        self.assertIn("not in the article's current scanned revision", answer.json()["error"])


class ScanRequestTests(WikiTestCase):
    def ask(self, body, **headers):
        return self.client.post("/api/v1/scan", body if isinstance(body, str) else json.dumps(body),
                                content_type="application/json", **headers)

    def test_a_second_request_joins_the_pending_scan_and_the_job_reports_each_stage(self):
        first = self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id})
        self.assertEqual(first.status_code, 202, first.content)
        second = self.ask({"wiki_id": "sidewiki", "title": self.title.replace(" ", "_")})
        self.assertEqual((second.json()["job"], second.json()["joined"]), (first.json()["job"], True))
        self.assertEqual(first["Location"], first.json()["url"])
        status = self.client.get(first.json()["url"]).json()
        self.assertEqual((status["status"], status["finished"], status["title"]), ("queued", False, self.title))
        self.assertEqual(status["stages"]["scan"], {"done": 0, "total": 1, "failed": 0})
        self.assertEqual(set(status["stages"]), {"scan", "fetch", "verify", "suggest"})

    def test_a_request_after_the_running_scan_read_the_page_makes_a_new_scan(self):
        first = self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id}).json()
        ScanJob.objects.get(pk=first["job"]).items.update(status="done")  # read; its claims still checked
        again = self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id}).json()
        self.assertNotEqual(again["job"], first["job"])
        self.assertFalse(again["joined"])

    # Every request comes from the same address (127.0.0.1), as behind a reverse proxy: the
    # client is the address the trusted proxy appends to X-Forwarded-For (a real nginx in
    # front of gunicorn: tests.test_api_behind_proxy).
    @override_settings(SIDE_API_SCAN_LIMIT=3, SIDE_API_SCAN_WINDOW=120, SIDE_TRUSTED_PROXIES=["127.0.0.1"])
    def test_a_burst_from_one_client_is_refused_past_the_limit_and_queues_one_scan(self):
        queue = django_rq.get_queue("scan")
        queue.empty()
        client = {"HTTP_X_FORWARDED_FOR": "203.0.113.5"}
        with self.captureOnCommitCallbacks(execute=True):
            answers = [self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id}, **client) for _ in range(6)]
        self.assertEqual([a.status_code for a in answers], [202, 202, 202, 429, 429, 429])
        self.assertLessEqual(int(answers[-1]["Retry-After"]), 120)
        self.assertGreater(int(answers[-1]["Retry-After"]), 0)
        self.assertEqual(answers[-1].json()["code"], "rate_limited")
        self.assertEqual(ScanJob.objects.filter(items__title=self.title, status="queued").count(), 1)
        self.assertEqual(queue.count, 1)
        other = self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id}, HTTP_X_FORWARDED_FOR="203.0.113.6")
        self.assertEqual(other.status_code, 202)
        spoofed = self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id},
                           HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.5")  # the client wrote the first one
        self.assertEqual(spoofed.status_code, 429)

    @override_settings(SIDE_API_SCAN_LIMIT=3, SIDE_API_SCAN_WINDOW=120, SIDE_TRUSTED_PROXIES=["127.0.0.1"])
    def test_rejected_requests_do_not_count_against_the_limit_only_accepted_ones_do(self):
        client = {"HTTP_X_FORWARDED_FOR": "203.0.113.7"}
        bad = ["{oops", {"wiki_id": "nowiki", "page_id": 1}, {"wiki_id": "sidewiki"},
               {"wiki_id": "sidewiki", "page_id": 99_999_999}, {"wiki_id": "sidewiki", "title": ""}]
        rejected = [self.ask(body, **client).status_code for body in bad * 2]
        self.assertTrue(all(400 <= status < 429 for status in rejected), rejected)
        with self.captureOnCommitCallbacks(execute=True):
            answers = [self.ask({"wiki_id": "sidewiki", "page_id": self.article.page_id}, **client) for _ in range(4)]
        self.assertEqual([a.status_code for a in answers], [202, 202, 202, 429])
        self.assertEqual(answers[-1].json()["code"], "rate_limited")
        # Past the limit, a bad request is refused by the limit too, before it is read.
        self.assertEqual(self.ask("{oops", **client).status_code, 429)

    def test_bad_requests_are_sentences(self):
        cases = [("{oops", 400, "bad_json"), ({"wiki_id": "nowiki", "page_id": 1}, 404, "unknown_wiki"),
                 ({"wiki_id": "sidewiki"}, 400, "bad_parameter"),
                 ({"wiki_id": "sidewiki", "page_id": 99_999_999}, 404, "unknown_page")]
        for body, status, code in cases:
            answer = self.ask(body)
            self.assertEqual((answer.status_code, answer.json()["code"]), (status, code), body)
        self.assertEqual(self.client.get("/api/v1/scans/999999").json()["code"], "unknown_scan")
        self.assertEqual(self.client.get("/api/v1/scan").status_code, 405)

    def test_a_deleted_page_cannot_be_asked_for_by_id(self):
        title = fresh_title()
        self.server.edit(title, PAGE)
        page_id = self.server.admin_site.api("query", titles=title, formatversion=2)["query"]["pages"][0]["pageid"]
        self.server.delete(title)
        answer = self.ask({"wiki_id": "sidewiki", "page_id": page_id})
        self.assertEqual((answer.status_code, answer.json()["code"]), (404, "unknown_page"))
        self.assertFalse(ScanJob.objects.filter(items__title=title).exists())
