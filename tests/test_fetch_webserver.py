"""The fixture web server's path conventions, which fixture writers and tests rely on."""

from __future__ import annotations

import http.client
import socket
import time
import unittest
import urllib.error
import urllib.request

from harness.webserver import SourceServer
from tests.test_fetch_source import FIXTURES


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # let the 3xx surface as an HTTPError so its Location can be read


def _get(url: str, follow: bool = True):
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class SourceServerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.server = SourceServer(FIXTURES, slow_seconds=0.3, huge_bytes=3 * 1024 * 1024)
        cls.base = cls.server.start()
        cls.addClassCleanup(cls.server.stop)

    def setUp(self) -> None:
        self.server.reset_counts()

    def test_it_serves_pages_with_content_types_by_extension(self):
        for name, ctype in (
            ("article.html", "text/html"),
            ("report.pdf", "application/pdf"),
            ("notes.txt", "text/plain"),
        ):
            status, headers, body = _get(f"{self.base}/pages/{name}")
            self.assertEqual(status, 200)
            self.assertEqual(headers["Content-Type"], ctype)
            self.assertEqual(body, (FIXTURES / "pages" / name).read_bytes())

    def test_the_archive_path_serves_the_same_page(self):
        self.assertEqual(
            _get(f"{self.base}/archive/article.html")[2], _get(f"{self.base}/pages/article.html")[2]
        )

    def test_redirects_point_where_the_conventions_say(self):
        cases = {
            "/redirect/article.html": "/pages/article.html",
            "/redirect-loop/4": "/redirect-loop/5",
            "/redirect-to?url=http://10.0.0.1/x": "http://10.0.0.1/x",
        }
        for path, location in cases.items():
            status, headers, _ = _get(self.base + path, follow=False)
            self.assertEqual((status, headers["Location"]), (302, location), path)

    def test_missing_pages_and_unknown_routes_are_404(self):
        for path in (
            "/missing/article.html",
            "/pages/no-such-page.html",
            "/elsewhere/article.html",
        ):
            self.assertEqual(_get(self.base + path)[0], 404, path)

    def test_it_never_serves_files_outside_the_pages_folder(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=5)
        conn.request("GET", "/pages/../README.md")  # sent as is, not normalised by a client
        self.assertEqual(conn.getresponse().status, 404)
        conn.close()

    def test_the_slow_path_waits_before_answering(self):
        started = time.monotonic()
        self.assertEqual(_get(f"{self.base}/slow/notes.txt")[0], 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_the_huge_path_streams_without_a_length(self):
        status, headers, body = _get(f"{self.base}/huge/page.html")
        self.assertEqual(status, 200)
        self.assertIsNone(headers["Content-Length"])
        self.assertGreater(len(body), 3 * 1024 * 1024)

    def test_binary_and_paywall_paths(self):
        status, headers, body = _get(f"{self.base}/binary/blob.bin")
        self.assertEqual((status, headers["Content-Type"]), (200, "application/octet-stream"))
        self.assertFalse(body.startswith(b"%PDF"))
        status, _, body = _get(f"{self.base}/paywall/story.html?status=402")
        self.assertEqual(status, 402)
        self.assertIn(b"Subscribe to continue reading", body)

    def test_it_counts_requests_per_path_ignoring_the_query(self):
        for query in ("", "?a=1", "?b=2"):
            _get(f"{self.base}/pages/notes.txt{query}")
        self.assertEqual(self.server.hits("/pages/notes.txt"), 3)
        self.assertEqual(self.server.hits("/pages/article.html"), 0)
        self.assertEqual([r.path for r in self.server.requests()], ["/pages/notes.txt"] * 3)

    def test_stop_frees_the_port_and_the_context_manager_cleans_up(self):
        with SourceServer(FIXTURES) as server:
            port = server.port
            self.assertEqual(_get(server.url("/pages/notes.txt"))[0], 200)
        with socket.socket() as sock:
            self.assertNotEqual(sock.connect_ex(("127.0.0.1", port)), 0)
