"""Every bad input to the public API is a 4xx JSON sentence, never a 500: bodies past
SIDE_API_MAX_BODY, titles outside the articles, too long or with control characters, fields
of the wrong type (named), and a fuzz test (hypothesis) posting random JSON and bytes to every
endpoint. Beside them: the findings' ETag per scanned revision and its 304, and the client's
address behind trusted proxies (SIDE_TRUSTED_PROXIES)."""
from __future__ import annotations

import json
import logging
from datetime import timedelta

from django.test import RequestFactory, SimpleTestCase, TestCase, override_settings
from django.utils import timezone
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from sideapp.api.http import client_address
from sideapp.scans.pages import article_rename
from sideapp.models import Claim, ScanJob
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page

SCAN, PREDICT, FINDINGS = "/api/v1/scan", "/v1/models/editing-suggestions:predict", "/api/v1/findings"


class BadInputTests(WikiConfigured, TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.title = fresh_title()
        cls.article = scanned_page(cls.server, cls.title)
        cls.server.edit("User talk:Side api input", "A talk page.")

    def setUp(self):
        forget_api_cache()

    def ask(self, body, path: str = SCAN):
        raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
        return self.client.post(path, raw, content_type="application/json")

    def assertSentence(self, answer, status: int, code: str, *words: str):
        self.assertEqual((answer.status_code, answer["Content-Type"]), (status, "application/json"), answer.content[:300])
        data = answer.json()
        self.assertEqual(data["code"], code, data)
        for word in words:
            self.assertIn(word, data["error"])

    @override_settings(SIDE_API_MAX_BODY=1024 * 1024)
    def test_a_body_past_the_limit_is_413_unread_without_a_trace_in_the_log(self):
        big = json.dumps({"wiki_id": "sidewiki", "title": "x" * (11 * 1024 * 1024)})
        with self.assertNoLogs("sideapp.api.http", level=logging.ERROR):
            for path in (SCAN, PREDICT):
                self.assertSentence(self.ask(big, path), 413, "too_large", "1048576 bytes")

    def test_a_title_outside_the_articles_is_not_an_article(self):
        self.assertSentence(self.ask({"wiki_id": "sidewiki", "title": "User talk:Side api input"}), 400,
                            "not_an_article", "articles only")
        self.assertFalse(ScanJob.objects.filter(items__title__startswith="User talk:").exists())

    def test_a_title_too_long_or_with_a_control_character_is_refused_in_words(self):
        for title, words in (("é" * 200, "255 bytes"), ("Side\x00bridge", "control character"),
                             ("Side\x1fbridge", "control character")):
            self.assertSentence(self.ask({"wiki_id": "sidewiki", "title": title}), 400, "bad_parameter", "title", words)
        self.assertSentence(self.ask({"wiki_id": "sidewiki", "title": "Side [bridge]"}), 400, "bad_title")

    def test_fields_of_the_wrong_type_are_named(self):
        cases = [({"wiki_id": 5, "page_id": 1}, "wiki_id"), ({"wiki_id": "sidewiki", "page_id": "12"}, "page_id"),
                 ({"wiki_id": "sidewiki", "page_id": 1.5}, "page_id"), ({"wiki_id": "sidewiki", "page_id": True}, "page_id"),
                 ({"wiki_id": "sidewiki", "page_id": 2**70}, "page_id"), ({"wiki_id": "sidewiki", "title": ["x"]}, "title")]
        for body, field in cases:
            self.assertSentence(self.ask(body), 400, "bad_parameter", field)
        self.assertSentence(self.client.get(FINDINGS, {"wiki_id": "sidewiki", "page_id": str(2**70)}), 400,
                            "bad_parameter", "page_id")
        self.assertSentence(self.client.get(FINDINGS, {"wiki_id": "side\x00wiki", "page_id": "1"}), 400,
                            "bad_parameter", "wiki_id")

    def test_edit_check_answers_nothing_for_an_unknown_wiki_or_page_or_odd_fields(self):
        for body in ({"wiki_id": "nowiki", "page_id": 1}, {"wiki_id": "sidewiki", "page_id": 99_999_999},
                     {"wiki_id": "sidewiki", "page_id": 2**70}, {"wiki_id": "side\x00wiki", "page_id": 1},
                     {"wiki_id": ["x"], "page_id": 1}, {"wiki_id": "sidewiki", "page_id": "1"}):
            answer = self.ask(body, PREDICT)
            self.assertEqual((answer.status_code, answer.json()), (200, []), body)
        self.assertSentence(self.ask(b"\xff\xfe", PREDICT), 400, "bad_json")
        self.assertSentence(self.ask("[" * 100_000, PREDICT), 400, "bad_json")

    def test_ids_past_what_the_database_holds_are_unknown(self):
        self.assertSentence(self.client.get(f"/api/v1/claims/{2**70}/proposal", {"action": "tag"}), 404, "unknown_claim")
        self.assertSentence(self.client.get(f"/api/v1/scans/{2**70}"), 404, "unknown_scan")
        self.assertSentence(self.client.get("/api/v1/patrol", {"wiki_id": "sidewiki", "since": "2026-13-45T00:00:00Z"}),
                            400, "bad_parameter", "since")


class FindingsCacheTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.article = scanned_page(self.server, fresh_title())
        judge(Claim.objects.get(article=self.article, text__startswith="It is made of red stone"))
        self.query = {"wiki_id": "sidewiki", "page_id": self.article.page_id,
                      "revision": self.article.current_revision.rev_id}

    def test_findings_carry_an_etag_per_scanned_revision_and_answer_304_to_it(self):
        first = self.client.get(FINDINGS, self.query)
        etag = first["ETag"]
        self.assertIn(f"r{self.article.current_revision_id}", etag)
        again = self.client.get(FINDINGS, self.query, HTTP_IF_NONE_MATCH=etag)
        self.assertEqual((again.status_code, again.content, again["ETag"]), (304, b"", etag))
        other = self.client.get(FINDINGS, {**self.query, "revision": self.query["revision"] + 1},
                                HTTP_IF_NONE_MATCH=etag)
        self.assertEqual(other.status_code, 200)  # stale now: another answer

    def test_a_moved_page_answers_under_its_new_title_with_a_new_etag(self):
        etag = self.client.get(FINDINGS, self.query)["ETag"]  # its answer is kept from here on
        moved = f"{self.article.title} moved"
        article_rename(article=self.article, title=moved, reason="a test move", when=timezone.now() + timedelta(seconds=2))
        answer = self.client.get(FINDINGS, self.query, HTTP_IF_NONE_MATCH=etag)
        self.assertEqual((answer.status_code, answer.json()["title"]), (200, moved))

    def test_a_new_check_of_the_page_changes_the_etag(self):
        etag = self.client.get(FINDINGS, self.query)["ETag"]
        job = ScanJob.objects.create(wiki=self.article.wiki, kind=ScanJob.Kind.TITLES, status=ScanJob.Status.DONE)
        job.items.create(title=self.article.title, article=self.article, status="done")
        answer = self.client.get(FINDINGS, self.query, HTTP_IF_NONE_MATCH=etag)
        self.assertEqual(answer.status_code, 200)
        self.assertNotEqual(answer["ETag"], etag)


class ClientAddressTests(SimpleTestCase):
    def address(self, remote: str, forwarded: str | None = None) -> str:
        headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
        return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))

    @override_settings(SIDE_TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"])
    def test_the_client_is_the_right_most_forwarded_address_not_a_trusted_proxy(self):
        self.assertEqual(self.address("127.0.0.1", "203.0.113.9"), "203.0.113.9")
        self.assertEqual(self.address("127.0.0.1", "198.51.100.1, 203.0.113.9, 10.1.2.3"), "203.0.113.9")
        self.assertEqual(self.address("127.0.0.1", "not an address, 10.1.2.3"), "127.0.0.1")
        self.assertEqual(self.address("127.0.0.1"), "127.0.0.1")

    @override_settings(SIDE_TRUSTED_PROXIES=["127.0.0.1"])
    def test_only_a_trusted_proxy_can_name_the_client(self):
        self.assertEqual(self.address("192.0.2.7", "203.0.113.9"), "192.0.2.7")

    @override_settings(SIDE_TRUSTED_PROXIES=[])
    def test_without_trusted_proxies_the_connection_is_the_client(self):
        self.assertEqual(self.address("127.0.0.1", "203.0.113.9"), "127.0.0.1")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=300),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                    max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={
    "wiki_id": st.sampled_from(["sidewiki", "nowiki", ""]) | st.text(max_size=40) | JSON,
    "page_id": st.integers(min_value=-2, max_value=3) | st.integers() | JSON,
    "title": st.sampled_from(["User talk:X", "Side [x]", "_", "Main Page"]) | st.text(max_size=300) | JSON})
PARAMS = st.dictionaries(st.sampled_from(["wiki_id", "page_id", "title", "revision", "since", "all", "action",
                                          "suggestion"]), st.text(max_size=80), max_size=5)


class FuzzTests(WikiConfigured, HypothesisTestCase):
    """Random JSON, random bytes and random parameters to every endpoint: a JSON answer of
    2xx or 4xx each time."""

    def assertJsonAnswer(self, answer, what):
        self.assertLess(answer.status_code, 500, (what, answer.content[:300]))
        self.assertEqual(answer["Content-Type"], "application/json", what)
        json.loads(answer.content)

    @override_settings(SIDE_API_SCAN_LIMIT=10_000)
    @hypothesis_settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=FIELDS | JSON | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
    def test_random_bodies_to_the_post_endpoints_never_answer_500(self, body):
        raw = body if isinstance(body, str) else json.dumps(body)
        for path in (SCAN, PREDICT):
            self.assertJsonAnswer(self.client.post(path, raw, content_type="application/json"), (path, raw[:200]))

    @hypothesis_settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(params=PARAMS, pk=st.integers(min_value=0, max_value=2**80))
    def test_random_parameters_to_the_get_endpoints_never_answer_500(self, params, pk):
        for path in (FINDINGS, "/api/v1/patrol", f"/api/v1/claims/{pk}/proposal", f"/api/v1/scans/{pk}"):
            self.assertJsonAnswer(self.client.get(path, params), (path, params))
