"""The wiki client retries with backoff and then reports a readable failure."""
from __future__ import annotations

import socket
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import SimpleTestCase

from sideapp.scans.wikiapi import ClientConfig, WikiClient, WikiLoginFailed, WikiUnavailable


class _Broken(BaseHTTPRequestHandler):
    """A web server that is up but is not a working wiki."""

    mode = "html"
    hits = 0
    active = peak = 0
    seen: list[tuple[str, str]] = []  # (User-Agent, request body) of every request

    def _answer(self):
        mode = self.mode  # as it was when the request came, whatever a later test sets
        type(self).hits += 1
        length = int(self.headers.get("Content-Length") or 0)
        type(self).seen.append((self.headers.get("User-Agent", ""),
                                (self.path + " " + self.rfile.read(length).decode())))
        if mode == "slow":
            time.sleep(2)
        if mode == "lagged":
            return self._lagged()
        body = b"<html><body>Internal error</body></html>"
        self.send_response(500 if mode == "html" else 200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass  # the client under test gave up first, as it should

    def _lagged(self):
        cls = type(self)
        cls.active += 1
        cls.peak = max(cls.peak, cls.active)
        time.sleep(0.2)
        cls.active -= 1
        body = b'{"error": {"code": "maxlag", "info": "Waiting for a replica: 7 seconds lagged."}}'
        self.send_response(200)
        for name, value in (("Content-Type", "application/json"), ("X-Database-Lag", "7"),
                            ("Retry-After", "7"), ("Content-Length", str(len(body)))):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WikiClientFailureTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _Broken)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.api = f"http://127.0.0.1:{cls.server.server_address[1]}/api.php"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        super().tearDownClass()

    def wiki_client(self, url: str, **config) -> tuple[WikiClient, list[float]]:
        sleeps: list[float] = []
        options = {"retries": 3, "backoff": 0.5, "timeout": 1.0} | config
        return WikiClient(ClientConfig(api_url=url, **options), sleep=sleeps.append), sleeps

    def test_it_retries_an_unreachable_wiki_with_doubling_backoff_then_says_so(self):
        client, sleeps = self.wiki_client(f"http://127.0.0.1:{free_port()}/api.php")
        said = r"did not answer after 3 tries \(the connection to .* was refused"
        with self.assertRaisesRegex(WikiUnavailable, said):
            client.page("Anything")
        self.assertEqual(sleeps, [0.5, 1.0])

    def test_it_reports_a_server_that_answers_with_an_error_page(self):
        _Broken.mode, _Broken.hits = "html", 0
        client, sleeps = self.wiki_client(self.api)
        with self.assertRaisesRegex(WikiUnavailable, r"did not answer after 3 tries \(it answered with an HTTP 500 "
                                                     r"error\)\. Check the address of its api\.php"):
            client.page("Anything")
        self.assertEqual(_Broken.hits, 3)
        self.assertEqual(len(sleeps), 2)

    def test_a_page_that_is_not_the_api_is_named_as_such(self):
        _Broken.mode = "page"  # 200, but HTML
        client, _ = self.wiki_client(self.api, retries=1)
        with self.assertRaisesRegex(WikiUnavailable, "did not answer when asked once .*not a MediaWiki API answer"):
            client.page("Anything")

    def test_it_gives_up_on_a_slow_wiki_after_the_timeout(self):
        _Broken.mode = "slow"
        client, _ = self.wiki_client(self.api, retries=1, timeout=0.3)
        started = time.monotonic()
        with self.assertRaisesRegex(WikiUnavailable, "Timeout|timed out"):
            client.page("Anything")
        self.assertLess(time.monotonic() - started, 1.9)

    def test_it_refuses_an_address_that_is_not_an_api_url(self):
        client, _ = self.wiki_client("ftp://example.org/api.php")
        with self.assertRaisesRegex(WikiUnavailable, "not an http"):
            client.page("Anything")
        client, _ = self.wiki_client("http://example.org/wiki/Main_Page")
        with self.assertRaisesRegex(WikiUnavailable, "does not end in api.php"):
            client.page("Anything")

    def test_it_waits_as_long_as_a_lagged_wiki_asks_and_sends_maxlag(self):
        _Broken.mode, _Broken.seen = "lagged", []
        client, sleeps = self.wiki_client(self.api, maxlag=5, user_agent="SideEditor/0.1 (ops@example.org)")
        with self.assertRaisesRegex(WikiUnavailable, "replication lag"):
            client.page("Anything")
        self.assertEqual(sleeps, [7.0, 7.0])
        agent, _ = _Broken.seen[0]
        self.assertTrue(any("maxlag=5" in body for _, body in _Broken.seen))
        self.assertTrue(agent.startswith("SideEditor/0.1 (ops@example.org) mwclient/"), agent)

    def test_it_sends_one_request_at_a_time_to_one_wiki(self):
        _Broken.mode, _Broken.peak = "lagged", 0
        clients = [self.wiki_client(self.api, retries=2)[0] for _ in range(3)]
        threads = [threading.Thread(target=self._page_quietly, args=(c,)) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(_Broken.peak, 1)
        self.assertGreaterEqual(_Broken.hits, 3)

    @staticmethod
    def _page_quietly(client: WikiClient) -> None:
        try:
            client.page("Anything")
        except WikiUnavailable:
            pass

    def test_it_refuses_to_edit_without_a_configured_account(self):
        client, _ = self.wiki_client(self.api)
        with self.assertRaisesRegex(WikiLoginFailed, "SIDE_WIKI_USERNAME"):
            client.edit("Anything", "text", "summary", baserevid=1,
                        starttimestamp=datetime.now(timezone.utc))
