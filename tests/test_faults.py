"""The fast part of the fault suite (bench/fault_suite.py runs every fault at length, against
its own PostgreSQL and Redis): a scan worker killed with SIGKILL while the wiki is answering
its read, a wiki answering 503 or "maxlag", and cited pages that stall after their headers or
stream without end. After each, the work ends with a status and a reason in words, nothing is
written twice, and the next worker or the healed wiki finishes it."""
from __future__ import annotations

import subprocess
import time
import uuid

from django.test import TestCase, TransactionTestCase, override_settings

from harness.demo import SOURCES_DIR
from harness.faulty_proxy import FaultyProxy
from harness.mediawiki import shared_test_wiki
from harness.webserver import SourceServer
from sideapp.models import Claim, Revision, ScanItem, ScanJob, Source
from sideapp.scans.services import scan_request
from sideapp.scans.wikis import wiki_for
from sideapp.sources.services import source_fetch
from tests.wiki_support import scan_titles
from tests.worker_support import ROOT, run_burst_worker, worker_command, worker_env

PAGE = "The bridge opened in 1931.<ref>{{cite web |url=http://127.0.0.1:9/opening |title=Opening}}</ref>\n"


class WikiFaultTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = shared_test_wiki()
        cls.proxy = FaultyProxy(cls.server.base_url)
        cls.proxy.start()
        cls.title = f"Side fault test {uuid.uuid4().hex[:8]}"
        cls.server.edit(cls.title, PAGE)

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        super().tearDownClass()

    def tearDown(self):
        self.proxy.heal()

    @override_settings(SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
    def test_a_wiki_answering_503_fails_the_scan_in_words_and_the_healed_wiki_is_read(self):
        wiki_for(api_url=self.proxy.api_url)
        self.proxy.fail(503)
        item = scan_titles_through(self.proxy, self.title)
        self.assertEqual(item.status, ScanItem.Status.FAILED)
        self.assertIn("HTTP 503 error", item.reason)
        self.proxy.heal()
        self.assertEqual(scan_titles_through(self.proxy, self.title).status, ScanItem.Status.DONE)

    @override_settings(SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
    def test_a_lagged_wiki_is_waited_for_as_it_asks_then_the_scan_fails_in_words(self):
        self.proxy.fail("maxlag")
        started = time.monotonic()
        item = scan_titles_through(self.proxy, self.title)
        self.assertGreaterEqual(time.monotonic() - started, 5)  # Retry-After: 5, once between two tries
        self.assertEqual(item.status, ScanItem.Status.FAILED)
        self.assertIn("replication lag", item.reason)


def scan_titles_through(proxy: FaultyProxy, title: str) -> ScanItem:
    with override_settings(SIDE_WIKI_API_URL=proxy.api_url):
        job = scan_titles(proxy, title)
    return job.items.get()


class WorkerKilledMidReadTests(TransactionTestCase):
    def test_a_scan_worker_killed_while_reading_the_wiki_leaves_the_article_to_the_next_worker(self):
        server = shared_test_wiki()
        title = f"Side fault kill {uuid.uuid4().hex[:8]}"
        server.edit(title, PAGE)
        with FaultyProxy(server.base_url) as proxy, override_settings(SIDE_WIKI_API_URL=proxy.api_url):
            wiki = wiki_for(api_url=proxy.api_url)
            job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=[title])
            proxy.hold("prop=revisions")
            # Patient with a wiki slowed by a loaded machine: the point is the kill, not the wiki.
            patient = {"SIDE_WIKI_API_URL": proxy.api_url, "SIDE_WIKI_TIMEOUT": "60", "SIDE_WIKI_RETRIES": "5"}
            env = worker_env(**patient)
            worker = subprocess.Popen(worker_command("scan"), env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            proxy.wait_held(1, timeout=120)
            worker.kill()
            worker.wait(timeout=30)
            proxy.release()
            self.assertEqual(job.items.get().status, ScanItem.Status.RUNNING)  # as the killed worker left it
            done = run_burst_worker("scan", **patient)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        item = job.items.get()
        self.assertEqual((item.status, item.attempts), (ScanItem.Status.DONE, 2), item.reason)
        self.assertEqual(Revision.objects.filter(article=item.article).count(), 1)
        self.assertEqual(Claim.objects.filter(article=item.article).count(), 1)


@override_settings(SIDE_FETCH_ALLOWLIST=["127.0.0.1"], SIDE_FETCH_READ_TIMEOUT=1, SIDE_FETCH_MAX_BYTES=1024 * 1024,
                   SIDE_FETCH_RETRIES=0, SIDE_FETCH_HOST_DELAY=0)
class CitedPageFaultTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sources = SourceServer(SOURCES_DIR)
        cls.base = cls.sources.start()

    @classmethod
    def tearDownClass(cls):
        cls.sources.stop()
        super().tearDownClass()

    def fetched(self, route: str) -> tuple[Source, float]:
        url = f"{self.base}/{route}/acp-river-arle.html"
        source = Source.objects.create(url=url, normalized_url=url)
        started = time.monotonic()
        source_fetch(source=source)
        source.refresh_from_db()
        return source, time.monotonic() - started

    def test_a_page_that_stalls_after_its_headers_times_out_in_words(self):
        source, seconds = self.fetched("stall")
        self.assertEqual(source.status, Source.Status.TIMEOUT)
        self.assertTrue(source.reason)
        self.assertLess(seconds, 10)

    def test_a_page_that_streams_without_end_stops_at_the_size_cap_in_words(self):
        source, seconds = self.fetched("endless")
        self.assertEqual(source.status, Source.Status.TOO_LARGE)
        self.assertIn("MB", source.reason + " MB")
        self.assertLess(seconds, 30)
