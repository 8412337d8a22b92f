"""Copies as cited, read from a real pywb archive on loopback: CDX lookups, the nearest
capture not after the citation's day, raw replay, lookups kept in PostgreSQL, politeness."""
from __future__ import annotations

import json
import threading
import time
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import TestCase, override_settings

from harness.demo import SOURCES_DIR
from harness.webserver import SourceServer
from sideapp.sources.archives import DbLookups
from sideapp.sources.models import ArchiveLookup
from tests.archive_support import ArchiveOnLoopback, require_pywb
from verifier_core.fetch import FetchPolicy, FetchStatus, HostSlots, fetch_source
from verifier_core.fetch.archives import parse_archives
from verifier_core.fetch.copies import MemoryLookups, find_copy, raw_get
from verifier_core.fetch.pagestate import CitedWork

SOURCES_HOST = "127.0.0.2"
POLICY = FetchPolicy(allowlist=[SOURCES_HOST], host_slot=HostSlots(min_delay=0), user_agent="SideTest (ops@example.org)")


class PywbCopiesTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        require_pywb()
        cls.sources = SourceServer(SOURCES_DIR, host=SOURCES_HOST)
        cls.sources.start()
        cls.local = ArchiveOnLoopback().start(cls.sources.base_url)
        cls.archives = parse_archives(cls.local.setting)

    @classmethod
    def tearDownClass(cls):
        cls.local.stop()
        cls.sources.stop()
        super().tearDownClass()

    def cited(self, path: str, title: str, **kw) -> CitedWork:
        return CitedWork(url=self.sources.url(path), title=title, **kw)

    def test_the_capture_nearest_before_the_access_date_is_read_raw(self):
        cited = self.cited("/missing/kh-harbour-dues-2018.html", "Harbour dues to rise for fishing boats")
        copy = find_copy(cited, self.archives, policy=POLICY, day=date(2018, 11, 21), lookups=MemoryLookups())
        self.assertTrue(copy.found, copy.reason)
        self.assertEqual((copy.timestamp, copy.lookups), ("20181121093000", 1))
        self.assertIn("will rise by 4 per cent in 2018", copy.result.text)
        self.assertNotIn("wombat", copy.result.text)  # raw (id_): no replay banner or rewriting
        self.assertEqual(copy.words, f"{self.archives[0].name}'s copy of 21 November 2018")
        # Nearest to 2024 is the 2023 capture, but that is another story at the same address.
        later = find_copy(cited, self.archives, policy=POLICY, day=date(2024, 1, 1), lookups=MemoryLookups())
        self.assertEqual(later.timestamp, "20181121093000")

    def test_a_capture_that_is_not_the_cited_work_is_passed_over(self):
        cited = self.cited("/soft404/kh-lifeboat-boathouse.html", "Lifeboat station opens new boathouse")
        copy = find_copy(cited, self.archives, policy=POLICY, day=None, lookups=MemoryLookups())  # undated: newest first
        self.assertEqual(copy.timestamp, "20160518100000")

    def test_a_page_never_captured_has_no_copy_in_words(self):
        cited = self.cited("/missing/kh-regatta-fireworks-2015.html", "Fireworks end a record regatta")
        copy = find_copy(cited, self.archives, policy=POLICY, day=date(2015, 8, 11), lookups=MemoryLookups())
        self.assertEqual((copy.found, copy.busy), (False, False))
        self.assertEqual(copy.reason, f"{self.archives[0].name} has no copy of the page")

    def test_lookups_are_kept_in_postgresql_and_answer_every_later_day(self):
        cited = self.cited("/missing/kh-harbour-dues-2018.html", "Harbour dues to rise for fishing boats")
        first = find_copy(cited, self.archives, policy=POLICY, day=date(2018, 11, 21), lookups=DbLookups())
        again = find_copy(cited, self.archives, policy=POLICY, day=date(2019, 6, 1), lookups=DbLookups())
        self.assertEqual((first.lookups, again.lookups), (1, 0))
        self.assertEqual(again.timestamp, "20181121093000")
        self.assertEqual(ArchiveLookup.objects.get(url=cited.url).captures[0][0], "20181121093000")

    def test_the_archive_is_reached_whatever_its_address_but_captures_never_lead_live(self):
        cdx = self.archives[0].cdx_url + "?url=" + cited_url(self) + "&output=json"
        status, _, body = raw_get(cdx, FetchPolicy(allowlist=self.archives[0].hosts, host_slot=HostSlots(0)))
        self.assertEqual(status, 200)
        away = self.sources.url("/redirect-to?url=" + self.sources.url("/pages/kh-pilotage.html"))
        result = fetch_source(away, policy=FetchPolicy(allowlist=[SOURCES_HOST], host_slot=HostSlots(0),
                                                        stay_on_hosts=("archive.invalid",)))
        self.assertEqual(result.status, FetchStatus.BLOCKED)
        self.assertIn("not fetched live", result.reason)


def cited_url(test) -> str:
    return test.sources.url("/missing/kh-harbour-dues-2018.html")


class _Busy(BaseHTTPRequestHandler):
    agents: list[str] = []

    def do_GET(self):  # noqa: N802 - stdlib naming
        type(self).agents.append(self.headers.get("User-Agent", ""))
        self.send_response(429)
        self.send_header("Retry-After", "0")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class _ReplayDown(BaseHTTPRequestHandler):
    """An archive whose index answers (two captures) and whose replay fails with HTTP 500."""
    page = "http://gone.example/a"

    def do_GET(self):  # noqa: N802 - stdlib naming
        if self.path.startswith("/demo/cdx"):
            rows = [["urlkey", "timestamp", "original", "statuscode"],
                    ["example,gone)/a", "20190101000000", self.page, "200"],
                    ["example,gone)/a", "20180101000000", self.page, "200"]]
            body, code = json.dumps(rows).encode(), 200
        else:
            body, code = b"replay is down", 500
        self.send_response(code)
        self.send_header("Content-Type", "application/json" if code == 200 else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class BusyArchiveTests(TestCase):
    def test_an_archive_that_asks_to_slow_down_is_waited_for_once_then_left_for_later(self):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Busy)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            base = f"http://127.0.0.1:{server.server_address[1]}"
            archives = parse_archives(f"{base}/demo/cdx {base}/demo/")
            waits = []
            copy = find_copy(CitedWork(url="http://gone.example/a", title="A"), archives, policy=POLICY,
                             day=date(2020, 1, 1), lookups=MemoryLookups(), sleep=waits.append)
        finally:
            server.shutdown()
            server.server_close()
        self.assertEqual((copy.found, copy.busy, waits), (False, True, [0.0]))
        self.assertIn("answered HTTP 429", copy.reason)
        self.assertEqual(_Busy.agents, ["SideTest (ops@example.org)"] * 2)  # the contact in every request

    def test_an_archive_whose_copies_cannot_be_read_leaves_the_lookup_busy_not_copyless(self):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _ReplayDown)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            base = f"http://127.0.0.1:{server.server_address[1]}"
            copy = find_copy(CitedWork(url=_ReplayDown.page, title="A"), parse_archives(f"{base}/demo/cdx {base}/demo/"),
                             policy=POLICY, day=date(2020, 1, 1), lookups=MemoryLookups(), sleep=lambda s: None)
        finally:
            server.shutdown()
            server.server_close()
        self.assertEqual((copy.found, copy.busy), (False, True))
        self.assertIn("reading its copies failed", copy.reason)
        self.assertIn("HTTP 500", copy.reason)

    @override_settings(SIDE_ARCHIVES="none")
    def test_with_archives_switched_off_nothing_is_asked(self):
        copy = find_copy(CitedWork(url="http://gone.example/a"), parse_archives("none"), policy=POLICY,
                         day=None, lookups=MemoryLookups())
        self.assertEqual((copy.found, copy.busy, copy.reason), (False, False, "no web archive is configured"))


class CaptureTests(TestCase):
    """SIDE_ARCHIVE_CAPTURE: a live page that is the cited work and supports its claim is sent
    to the archive once per period (asked once the claim is judged, not at the fetch)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        require_pywb()
        from harness.archive import LocalArchive

        cls.sources = SourceServer(SOURCES_DIR, host=SOURCES_HOST)
        cls.sources.start()
        cls.local = ArchiveOnLoopback()
        cls.local.archive = LocalArchive(cls.local.dir, record=True)
        cls.local.start(cls.sources.base_url)

    @classmethod
    def tearDownClass(cls):
        cls.local.stop()
        cls.sources.stop()
        super().tearDownClass()

    def test_a_live_cited_page_is_captured_once_per_period_in_pywbs_recording_mode(self):
        from sideapp.models import Article, Citation, Source, Wiki
        from sideapp.sources.archives import source_capture
        from sideapp.sources.services import source_fetch

        url = self.sources.url("/pages/kh-pilotage.html")
        article = Article.objects.create(wiki=Wiki.objects.create(api_url="http://127.0.0.1:9/api.php"), title="H")
        source = Source.objects.create(url=url, normalized_url=url)
        Citation.objects.create(article=article, fingerprint="f", kind="ref", raw="<ref/>", url=url,
                                title="Pilotage and berthing", source=source)
        with override_settings(SIDE_ARCHIVES=self.local.setting, SIDE_ARCHIVE_CAPTURE=True, SIDE_ARCHIVE_RATE=0,
                               SIDE_FETCH_ALLOWLIST=[SOURCES_HOST], SIDE_FETCH_HOST_DELAY=0):
            source_fetch(source=source)
            self.assertIsNone(Source.objects.get(pk=source.pk).captured_at)  # read is not yet judged
            self.assertTrue(source_capture(source=source))
            first = Source.objects.get(pk=source.pk).captured_at
            self.assertFalse(source_capture(source=Source.objects.get(pk=source.pk)))
        self.assertIsNotNone(first)
        self.assertEqual(Source.objects.get(pk=source.pk).captured_at, first)  # not asked again
        archive = parse_archives(self.local.setting)[0]
        for _ in range(40):  # pywb indexes what it recorded within a second or two
            found = find_copy(CitedWork(url=url, title="Pilotage and berthing"), [archive], policy=POLICY,
                              day=None, lookups=MemoryLookups())
            if found.found:
                break
            time.sleep(0.25)
        self.assertTrue(found.found, found.reason)
        self.assertIn("Pilotage is compulsory", found.result.text)


class CaptureRuleTests(TestCase):
    """Which judged citations are sent to an archive: only live pages that support the claim,
    not captured within the period; the request itself goes on the fetch queue."""

    def test_only_a_live_page_that_supports_its_claim_is_captured(self):
        from datetime import timedelta

        from django.utils import timezone

        from harness.claims import ClaimRow, article_with_claims
        from sideapp.claims.models import ClaimCitation
        from sideapp.claims.verification import sources_to_capture
        from sideapp.models import Citation
        from tests.edits_support import read_source

        rows = [("live", "supported", None, 0), ("partial", "partially_supported", None, 0),
                ("copy", "supported", {"read": "copy"}, 0), ("recent", "supported", {"read": "live"}, 5),
                ("old", "supported", {"read": "live"}, 400)]
        _, claims = article_with_claims("Capture", [ClaimRow(f"Claim {name}.", verdict, 0.9,
                                                             cited_url=f"https://{name}.example/")
                                                    for name, verdict, _, _ in rows])
        expected = set()
        for (name, _, copy, captured_days), claim in zip(rows, claims):
            source = read_source(f"https://{name}.example/")
            if captured_days:
                source.captured_at = timezone.now() - timedelta(days=captured_days)
                source.save()
            Citation.objects.filter(url=source.url).update(source=source)
            link = ClaimCitation.objects.get(claim=claim)
            link.copy = copy
            link.save()
            if name in ("live", "old"):
                expected.add((claim.pk, source.pk))
        with override_settings(SIDE_ARCHIVE_CAPTURE=True, SIDE_ARCHIVE_CAPTURE_DAYS=180):
            chosen = {(claim.pk, pk) for claim in claims for pk in sources_to_capture(claim)}
        self.assertEqual(chosen, expected)
        with override_settings(SIDE_ARCHIVE_CAPTURE=False):
            self.assertEqual([pk for claim in claims for pk in sources_to_capture(claim)], [])

    def test_the_capture_is_asked_on_the_fetch_queue_after_the_verdict_not_by_the_model_worker(self):
        import django_rq

        from harness.claims import ClaimRow, article_with_claims
        from sideapp.models import Citation
        from sideapp.pipeline import stages
        from sideapp.pipeline.names import Queue
        from tests.edits_support import read_source

        _, claims = article_with_claims("Capture", [ClaimRow("It rose.", "supported", 0.9,
                                                             cited_url="https://live.example/")])
        source = read_source("https://live.example/")
        Citation.objects.filter(url=source.url).update(source=source)
        fetch = django_rq.get_queue(Queue.FETCH)
        fetch.empty()
        self.addCleanup(fetch.empty)
        with override_settings(SIDE_ARCHIVE_CAPTURE=True), self.captureOnCommitCallbacks(execute=True):
            stages.after_verify(claims[0])
        jobs = fetch.get_jobs()
        self.assertEqual([(job.func_name.rsplit(".", 1)[1], job.args) for job in jobs], [("capture_job", (source.pk,))])
