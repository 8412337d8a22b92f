"""The public API against the real test MediaWiki: a page's findings, where its claims read
in the rendered article, staleness, CORS for the wiki's origin only, and bad input as JSON
sentences (never a 500, never an HTML page)."""
from __future__ import annotations

from django.test import TestCase, override_settings

from sideapp.models import Claim
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page

FINDINGS = "/api/v1/findings"


class FindingsTests(WikiConfigured, TestCase):

    def setUp(self):
        forget_api_cache()
        self.title = fresh_title()
        self.article = scanned_page(self.server, self.title)
        self.wiki_id = self.article.wiki.wikiid
        self.stone = judge(Claim.objects.get(article=self.article, text__startswith="It is made of red stone"))

    def findings(self, origin: str | None = None, **params):
        query = {"wiki_id": self.wiki_id, "page_id": self.article.page_id, **params}
        headers = {"HTTP_ORIGIN": origin} if origin else {}
        return self.client.get(FINDINGS, {k: v for k, v in query.items() if v is not None}, **headers)

    def test_it_lists_only_the_claims_with_something_to_say_with_their_place_in_the_page(self):
        answer = self.findings(revision=self.article.current_revision.rev_id).json()
        self.assertEqual((answer["wiki_id"], answer["revision"], answer["stale"]),
                         ("sidewiki", self.article.current_revision.rev_id, False))
        self.assertEqual([c["id"] for c in answer["claims"]], [self.stone.pk])
        claim = answer["claims"][0]
        self.assertEqual(claim["target"], "It is made of red stone.")
        self.assertTrue(claim["after"].startswith("cite_ref-"))
        self.assertEqual((claim["verdict"], claim["verdict_words"], claim["reason"]),
                         ("not_supported", "not supported", "the source gives 1932, not 1931"))
        self.assertEqual(claim["quote"], "The bridge opened in 1932.")
        self.assertEqual(claim["citations"][0]["url"], "http://127.0.0.1:9/stone")
        self.assertTrue(claim["url"].endswith(f"/claims/{self.stone.pk}/"))
        self.assertIn({"action": "tag"}, claim["actions"])

    def test_each_citation_gives_its_parts_with_verdict_and_the_lines_that_hold_them(self):
        parts = [{"text": "It is made of red stone.", "score": 0.2, "verdict": "not_supported",
                  "evidence": {"sentences": ["The bridge is built of grey granite."]}},
                 {"text": "and it opened in 1931", "score": 0.1, "verdict": "not_supported"}]  # stored before lines
        self.stone.claim_citations.update(parts=parts)
        Claim.objects.filter(pk=self.stone.pk).update(parts=parts)
        forget_api_cache()
        claim = self.findings().json()["claims"][0]
        want = [{"text": "It is made of red stone.", "verdict": "not_supported",
                 "sentences": ["The bridge is built of grey granite."]},
                {"text": "and it opened in 1931", "verdict": "not_supported", "sentences": []}]
        self.assertEqual(claim["citations"][0]["parts"], want)
        self.assertEqual(claim["parts"], want)
        self.assertEqual(claim["citations"][0]["quote"], "The bridge opened in 1932.")  # the quote stays its own

    def test_it_finds_a_claim_by_title_as_the_wiki_writes_it(self):
        answer = self.client.get(FINDINGS, {"wiki_id": self.wiki_id, "title": self.title.replace(" ", "_")})
        self.assertEqual(answer.json()["revision"], self.article.current_revision.rev_id)

    def test_a_newer_viewed_revision_is_stale_and_so_is_a_newer_revision_on_the_wiki(self):
        scanned = self.article.current_revision.rev_id
        self.assertTrue(self.findings(revision=scanned + 1).json()["stale"])
        self.assertFalse(self.findings().json()["stale"])  # asked of the wiki: nothing newer
        forget_api_cache()
        self.server.edit(self.title, "Someone rewrote it.<ref>{{cite web |url=http://127.0.0.1:9/x |title=X}}</ref>")
        self.assertTrue(self.findings().json()["stale"])

    def test_bad_input_is_a_json_sentence(self):
        cases = [({"wiki_id": "nowiki"}, 404, "unknown_wiki"),
                 ({"page_id": 99_999_999}, 404, "not_scanned"),
                 ({"page_id": "twelve"}, 400, "bad_parameter"),
                 ({"page_id": None, "wiki_id": None}, 400, "bad_parameter")]
        for params, status, code in cases:
            response = self.findings(**params)
            self.assertEqual((response.status_code, response.json()["code"]), (status, code), params)
            self.assertTrue(response.json()["error"].endswith("."), params)
        self.assertEqual(self.client.post(FINDINGS).status_code, 405)

    def test_a_page_deleted_on_the_wiki_says_so(self):
        self.server.delete(self.title)
        response = self.findings()
        self.assertEqual((response.status_code, response.json()["code"]), (404, "deleted"))

    def test_the_wikis_origin_gets_cors_headers_and_another_origin_does_not(self):
        wiki_origin = self.server.base_url
        ours = self.findings(origin=wiki_origin)
        self.assertEqual(ours["Access-Control-Allow-Origin"], wiki_origin)
        self.assertNotIn("Access-Control-Allow-Credentials", ours)
        self.assertIn("Origin", ours["Vary"])
        theirs = self.findings(origin="https://evil.example")
        self.assertEqual(theirs.status_code, 200)
        self.assertNotIn("Access-Control-Allow-Origin", theirs)
        preflight = self.client.options("/api/v1/scan", HTTP_ORIGIN=wiki_origin,
                                        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
        self.assertEqual(preflight.status_code, 204)
        self.assertEqual(preflight["Access-Control-Allow-Origin"], wiki_origin)
        self.assertIn("POST", preflight["Access-Control-Allow-Methods"])
        self.assertEqual(preflight["Access-Control-Allow-Headers"], "Content-Type")
        self.assertNotIn("Access-Control-Allow-Origin",
                         self.client.options("/api/v1/scan", HTTP_ORIGIN="https://evil.example"))

    @override_settings(SIDE_API_EXTRA_ORIGINS=["https://m.side.example"])
    def test_an_extra_origin_from_the_settings_is_allowed(self):
        response = self.findings(origin="https://m.side.example")
        self.assertEqual(response["Access-Control-Allow-Origin"], "https://m.side.example")

    def test_a_cookie_is_neither_needed_nor_taken(self):
        self.client.cookies["sessionid"] = "something"
        response = self.findings()
        self.assertEqual(response.status_code, 200)
        self.assertFalse(response.cookies)

    def test_a_settled_page_may_be_kept_a_minute_and_one_being_checked_may_not(self):
        self.assertEqual(self.findings()["Cache-Control"], "public, max-age=60")
        Claim.objects.filter(pk=self.stone.pk).update(verdict="")
        Claim.objects.filter(pk=self.stone.pk).update(verdict="not_supported")
        from sideapp.scans.services import scan_request
        scan_request(wiki=self.article.wiki, kind="titles", titles=[self.title], enqueue=False)
        answer = self.findings()
        self.assertEqual(answer["Cache-Control"], "no-store")
        self.assertTrue(answer.json()["scan"].startswith("http://testserver/api/v1/scans/"))
