"""fetch_source against a real HTTP server on loopback: every status, content, fallbacks."""

from __future__ import annotations

import contextlib
import gzip
import logging
import socket
import unittest
from dataclasses import replace
from pathlib import Path

from harness.webserver import SourceServer
from verifier_core.fetch import (
    DEFAULT_USER_AGENT,
    FetchPolicy,
    FetchStatus,
    HostSlots,
    fetch_source,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures_fetch"


def loopback_policy(**overrides) -> FetchPolicy:
    """The test server allow-listed, no politeness pause (tested on its own), short waits."""
    base = FetchPolicy(allowlist=["127.0.0.1"], host_slot=HostSlots(min_delay=0), read_timeout=2.0)
    return replace(base, **overrides)


@contextlib.contextmanager
def quiet(logger: str):
    """Silence a library's expected warning so the test output stays readable."""
    log = logging.getLogger(logger)
    was, log.disabled = log.disabled, True
    try:
        yield
    finally:
        log.disabled = was


class ServedFixtures:
    """Mixin: one SourceServer over tests/fixtures_fetch for the whole test class."""

    server: SourceServer

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.server = SourceServer(FIXTURES, slow_seconds=2.0)
        cls.server.start()
        cls.addClassCleanup(cls.server.stop)

    def fetch(self, path: str, archive: str | None = None, **policy):
        archive_url = self.server.url(archive) if archive else None
        return fetch_source(
            self.server.url(path), archive_url=archive_url, policy=loopback_policy(**policy)
        )


class FetchContentTests(ServedFixtures, unittest.TestCase):
    def test_it_extracts_the_main_text_and_title_of_an_html_page(self):
        result = self.fetch("/pages/article.html")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertEqual(result.http_status, 200)
        self.assertEqual(result.content_type, "text/html")
        self.assertIn("Cape Verity lighthouse", result.title)
        self.assertIn("first lit on 1 March 1874", result.text)
        self.assertIn("Tomás Ørsted", result.text)
        self.assertNotIn("About us", result.text)  # navigation is not main text
        self.assertEqual(result.fetched_bytes, (FIXTURES / "pages/article.html").stat().st_size)
        self.assertFalse(result.used_archive)
        self.assertTrue(result.reason)

    def test_it_reads_the_text_and_title_of_a_pdf(self):
        result = self.fetch("/pages/report.pdf")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertEqual(result.content_type, "application/pdf")
        self.assertEqual(result.title, "Lighthouse Society annual report")
        self.assertIn("The lighthouse at Cape Verity was first lit in 1874.", result.text)
        self.assertIn("keepers lived on the island until 1961", result.text)  # page two

    def test_it_recognises_a_pdf_served_as_octet_stream(self):
        result = self.fetch("/pages/report.pdf?type=application/octet-stream")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertIn("22 nautical miles", result.text)

    def test_it_keeps_plain_text_as_it_is(self):
        result = self.fetch("/pages/notes.txt")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertEqual(result.text, (FIXTURES / "pages/notes.txt").read_text("utf-8").strip())

    def test_it_decodes_the_charset_declared_in_a_meta_tag(self):
        result = self.fetch("/pages/latin1.html")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertEqual(result.title, "Café de la Plage")
        self.assertIn("Saint-Raphaël", result.text)
        # Labelled iso-8859-1, but curly quotes are windows-1252 bytes, as browsers assume.
        self.assertIn("\u201cmarine scenes\u201d", result.text)

    def test_it_decodes_the_charset_declared_in_the_content_type_header(self):
        result = self.fetch("/pages/latin1.txt?charset=iso-8859-1")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertIn("Le café fermé en 1939", result.text)

    def test_it_guesses_an_undeclared_legacy_charset(self):
        result = self.fetch("/pages/latin1.txt")
        self.assertIn("après la guerre", result.text)

    def test_it_sends_its_user_agent(self):
        self.fetch("/pages/notes.txt?ua=default")
        self.fetch(
            "/pages/notes.txt?ua=custom", user_agent="CustomBot/2.0 (+https://example.org/bot)"
        )
        agents = [r.user_agent for r in self.server.requests("/pages/notes.txt")][-2:]
        self.assertEqual(agents, [DEFAULT_USER_AGENT, "CustomBot/2.0 (+https://example.org/bot)"])


class FetchStatusTests(ServedFixtures, unittest.TestCase):
    def test_a_404_is_an_http_error_with_its_code(self):
        result = self.fetch("/missing/article.html")
        self.assertEqual(result.status, FetchStatus.HTTP_ERROR)
        self.assertEqual(result.http_status, 404)
        self.assertIn("404", result.reason)
        self.assertFalse(result.retryable)

    def test_a_redirect_is_followed_to_the_page(self):
        result = self.fetch("/redirect/article.html")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertEqual(result.final_url, self.server.url("/pages/article.html"))

    def test_an_endless_redirect_stops_at_the_limit(self):
        self.server.reset_counts()
        result = self.fetch("/redirect-loop/0", max_redirects=3)
        self.assertEqual(result.status, FetchStatus.HTTP_ERROR)
        self.assertIn("more than 3 redirects", result.reason)
        self.assertEqual(result.http_status, 302)
        self.assertEqual(len(self.server.requests()), 4)  # the first request and 3 redirects

    def test_a_slow_page_times_out(self):
        result = self.fetch("/slow/article.html?delay=2", read_timeout=0.3)
        self.assertEqual(result.status, FetchStatus.TIMEOUT)
        self.assertLess(result.elapsed, 1.5)
        self.assertTrue(result.retryable)

    def test_the_total_time_budget_bounds_a_slow_page_too(self):
        result = self.fetch("/slow/article.html?delay=2", read_timeout=10, total_timeout=0.3)
        self.assertEqual(result.status, FetchStatus.TIMEOUT)
        self.assertLess(result.elapsed, 1.5)

    def test_a_streamed_body_above_the_default_cap_is_too_large(self):
        result = self.fetch("/huge/page.html")
        self.assertEqual(result.status, FetchStatus.TOO_LARGE)
        self.assertIn(str(FetchPolicy().max_bytes), result.reason)
        self.assertEqual(result.text, "")

    def test_an_announced_length_above_the_cap_is_refused_before_reading(self):
        result = self.fetch("/pages/article.html", max_bytes=100)
        self.assertEqual(result.status, FetchStatus.TOO_LARGE)
        self.assertIn("announced", result.reason)

    def test_a_gzipped_body_is_decoded(self):
        result = self.fetch("/pages/article.html?gzip=1")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertIn("first lit on 1 March 1874", result.text)

    def test_the_cap_counts_decoded_bytes_so_compression_cannot_sneak_past_it(self):
        compressed = len(gzip.compress((FIXTURES / "pages/article.html").read_bytes(), mtime=0))
        result = self.fetch("/pages/article.html?gzip=1", max_bytes=compressed + 1)
        self.assertEqual(result.status, FetchStatus.TOO_LARGE)
        self.assertIn("exceeds", result.reason)  # not refused on the announced length

    def test_binary_junk_is_an_unsupported_type(self):
        result = self.fetch("/binary/blob.bin")
        self.assertEqual(result.status, FetchStatus.UNSUPPORTED_TYPE)
        self.assertEqual(result.content_type, "application/octet-stream")

    def test_an_image_is_refused_without_reading_it(self):
        result = self.fetch("/pages/article.html?type=image/png")
        self.assertEqual(result.status, FetchStatus.UNSUPPORTED_TYPE)
        self.assertIn("image/png", result.reason)

    def test_a_page_without_readable_text_is_empty(self):
        with quiet("trafilatura.core"):
            result = self.fetch("/pages/script-only.html")
        self.assertEqual(result.status, FetchStatus.EMPTY)
        self.assertIn("characters of text", result.reason)

    def test_a_short_teaser_with_a_subscription_wall_is_a_suspected_paywall(self):
        result = self.fetch("/paywall/story.html")
        self.assertEqual(result.status, FetchStatus.PAYWALL_SUSPECTED)
        self.assertIn("free to read", result.text)  # the teaser is kept for the record

    def test_a_402_or_403_with_a_subscription_wall_is_a_suspected_paywall(self):
        for code in (402, 403):
            result = self.fetch(f"/paywall/story.html?status={code}")
            self.assertEqual(result.status, FetchStatus.PAYWALL_SUSPECTED, code)
            self.assertEqual(result.http_status, code)

    def test_a_newsletter_footer_on_a_full_article_is_no_paywall(self):
        self.assertEqual(self.fetch("/pages/article.html").status, FetchStatus.OK)

    def test_an_unresolvable_host_is_a_dns_error(self):
        result = fetch_source("http://no-such-host.invalid/page", policy=loopback_policy())
        self.assertEqual(result.status, FetchStatus.DNS_ERROR)
        self.assertIn("no-such-host.invalid", result.reason)

    def test_a_closed_port_is_a_connection_error(self):
        with socket.socket() as sock:  # a port that was free a moment ago and now is closed
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        result = fetch_source(f"http://127.0.0.1:{port}/", policy=loopback_policy())
        self.assertEqual(result.status, FetchStatus.CONNECTION_ERROR)
        self.assertTrue(result.retryable)

    def test_bad_input_gives_a_status_never_an_exception(self):
        for url in (
            "",
            "   ",
            "not a url",
            "ftp://example.org/file",
            "javascript:alert(1)",
            "http://",
            "http://[::1",
            "http://exa mple.org/",
            "mailto:a@b.org",
            "/relative/path",
        ):
            result = fetch_source(url, policy=loopback_policy())
            self.assertEqual(result.status, FetchStatus.BLOCKED, url)
            self.assertTrue(result.reason, url)


class ArchiveFallbackTests(ServedFixtures, unittest.TestCase):
    def test_a_dead_link_falls_back_to_the_archived_copy(self):
        result = self.fetch("/missing/article.html", archive="/archive/article.html")
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertTrue(result.used_archive)
        self.assertEqual(result.final_url, self.server.url("/archive/article.html"))
        self.assertIn("first lit on 1 March 1874", result.text)
        self.assertIn("404", result.reason)  # the live failure is still reported

    def test_a_timeout_falls_back_to_the_archived_copy(self):
        result = self.fetch(
            "/slow/article.html?delay=2", archive="/archive/article.html", read_timeout=0.3
        )
        self.assertEqual(result.status, FetchStatus.OK, result.reason)
        self.assertTrue(result.used_archive)

    def test_a_working_live_page_does_not_touch_the_archive(self):
        self.server.reset_counts()
        result = self.fetch("/pages/notes.txt", archive="/archive/notes.txt")
        self.assertFalse(result.used_archive)
        self.assertEqual(self.server.hits("/archive/notes.txt"), 0)

    def test_when_both_fail_the_live_failure_is_kept_and_the_archive_named(self):
        result = self.fetch("/missing/a.html", archive="/missing/archived-a.html")
        self.assertEqual(result.status, FetchStatus.HTTP_ERROR)
        self.assertFalse(result.used_archive)
        self.assertEqual(result.final_url, self.server.url("/missing/a.html"))
        self.assertIn("archive copy also failed", result.reason)
