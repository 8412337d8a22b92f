"""The wiki client retries with backoff and then reports a readable failure."""
from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import SimpleTestCase

from sideapp.scans.wikiapi import ClientConfig, WikiClient, WikiUnavailable


class _Broken(BaseHTTPRequestHandler):
    """A web server that is up but is not a working wiki."""

    mode = "html"
    hits = 0

    def _answer(self):
        type(self).hits += 1
        if self.mode == "slow":
            time.sleep(2)
        body = b"<html><body>Internal error</body></html>"
        self.send_response(500 if self.mode == "html" else 200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass  # the client under test gave up first, as it should

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
        with self.assertRaisesRegex(WikiUnavailable, r"unreachable after 3 attempts"):
            client.page("Anything")
        self.assertEqual(sleeps, [0.5, 1.0])

    def test_it_reports_a_server_that_answers_with_an_error_page(self):
        _Broken.mode, _Broken.hits = "html", 0
        client, sleeps = self.wiki_client(self.api)
        with self.assertRaises(WikiUnavailable):
            client.page("Anything")
        self.assertEqual(_Broken.hits, 3)
        self.assertEqual(len(sleeps), 2)

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
