"""Fetching the demo articles' cited sources: a real RQ worker, real HTTP on loopback."""
from __future__ import annotations

from django.test import TestCase, override_settings

from sideapp.models import Source, SourceDocument
from sideapp.sources.services import TransientFetchFailure, source_fetch
from tests.pipeline_support import SOURCES_HOST, PipelineTestCase
from tests.wiki_support import scan_titles
from tests.worker_support import run_burst_worker

ARTICLES = ("River Arle", "Arle Valley Railway", "Kellhaven Rowing Club", "Kellhaven Lighthouse")


def source(path: str) -> Source:
    return Source.objects.get(url__endswith=path)


class FetchWorkerTests(PipelineTestCase):
    def setUp(self):
        self.sources.reset_counts()

    def scan_and_fetch(self, *titles: str):
        scan_titles(self.wiki, *titles)
        done = run_burst_worker("fetch", **self.env)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])

    def test_every_cited_source_ends_with_a_status_and_a_reason(self):
        self.scan_and_fetch(*ARTICLES)
        self.assertFalse(Source.objects.filter(status=Source.Status.PENDING).exists())
        self.assertFalse(Source.objects.filter(reason="").exists())
        page = source("/pages/klt-history.html")
        self.assertEqual(page.status, Source.Status.OK)
        self.assertIn("lighthouse", page.document.text.lower())
        self.assertEqual(source("/missing/avg-sea-trout-2011.html").http_status, 404)
        self.assertEqual(source("/slow/dlhs-flood-1929.html").status, Source.Status.TIMEOUT)
        self.assertEqual(source("/huge/krc-regatta-results-archive.html").status, Source.Status.TOO_LARGE)
        pdf = source("/pages/aeha-lights-and-marks-2019.pdf")
        self.assertEqual((pdf.status, pdf.content_type), (Source.Status.OK, "application/pdf"))

    def test_a_dead_live_url_falls_back_to_its_archive_url(self):
        self.scan_and_fetch("Arle Valley Railway")
        archived = source("/missing/avg-line-closure-1964.html")
        self.assertEqual(archived.status, Source.Status.OK)
        self.assertTrue(archived.used_archive)
        self.assertTrue(archived.final_url.endswith("/archive/avg-line-closure-1964.html"))

    def test_a_redirect_is_followed_to_the_page(self):
        self.scan_and_fetch("River Arle")
        moved = source("/redirect/avg-arle-wave.html")
        self.assertEqual(moved.status, Source.Status.OK)
        self.assertTrue(moved.final_url.endswith("/pages/avg-arle-wave.html"))

    def test_rescanning_a_changed_article_does_not_fetch_fresh_sources_again(self):
        self.scan_and_fetch("Kellhaven Lighthouse")
        hits = self.sources.hits("/pages/klt-history.html")
        self.assertEqual(hits, 1)
        text = self.wiki.admin_site.pages["Kellhaven Lighthouse"].text()
        self.wiki.edit("Kellhaven Lighthouse", text + "\n\nThe lantern is painted red.<ref name=\"klt-visit\"/>")
        self.scan_and_fetch("Kellhaven Lighthouse")
        self.assertEqual(self.sources.hits("/pages/klt-history.html"), hits)
        self.assertEqual(SourceDocument.objects.filter(source__url__endswith="/pages/klt-history.html").count(), 1)

    def test_the_ssrf_guard_blocks_loopback_sources_also_behind_a_redirect(self):
        wiki_port = self.wiki.port  # a real service on 127.0.0.1, which is not allow-listed
        self.wiki.edit("SSRF probe", (
            f"Direct.<ref>{{{{cite web|url=http://127.0.0.1:{wiki_port}/api.php}}}}</ref> "
            f"Hidden.<ref>{{{{cite web|url={self.base}redirect-to?url=http://127.0.0.1:{wiki_port}/}}}}</ref> "
            "Metadata.<ref>{{cite web|url=http://169.254.169.254/latest/meta-data/}}</ref>"))
        self.scan_and_fetch("SSRF probe")
        probes = Source.objects.filter(citations__article__title="SSRF probe")
        self.assertEqual(probes.count(), 3)
        for probe in probes:
            self.assertEqual(probe.status, Source.Status.BLOCKED, probe.url)
            self.assertFalse(SourceDocument.objects.filter(source=probe).exists())


@override_settings(SIDE_FETCH_ALLOWLIST=[SOURCES_HOST], SIDE_FETCH_HOST_DELAY=0,
                   SIDE_FETCH_CONNECT_TIMEOUT=0.5)
class TransientFetchTests(TestCase):
    def test_a_transient_failure_is_retried_and_only_the_last_attempt_is_stored(self):
        refused = Source.objects.create(url=f"http://{SOURCES_HOST}:9/x", normalized_url=f"http://{SOURCES_HOST}:9/x")
        with self.assertRaises(TransientFetchFailure):
            source_fetch(source=refused, retries_left=1)
        refused.refresh_from_db()
        self.assertEqual(refused.status, Source.Status.PENDING)
        self.assertIn("retrying", refused.reason)
        source_fetch(source=refused, retries_left=0)
        refused.refresh_from_db()
        self.assertEqual(refused.status, Source.Status.CONNECTION_ERROR)
        self.assertEqual(refused.attempts, 2)
