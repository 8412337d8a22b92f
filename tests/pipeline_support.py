"""Running the whole pipeline on the demo wiki with real workers, for end-to-end tests."""
from __future__ import annotations

import tempfile

from django.test import TransactionTestCase, override_settings

from sideapp.harness.demo import SOURCES_DIR
from sideapp.harness.webserver import SourceServer
from sideapp.models import ScanJob, Wiki
from sideapp.services.scans import scan_request
from tests.wiki_support import demo_wiki
from tests.worker_support import run_burst_worker

SOURCES_HOST = "127.0.0.2"  # the only allow-listed address, as in the demo
DEMO_TITLES = ["Arle Valley Railway", "Kellhaven Lighthouse", "Kellhaven Rowing Club",
               "Margaret Ellery", "River Arle"]


class PipelineTestCase(TransactionTestCase):
    """A sources server, the demo wiki citing it, and a private corpus index."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sources = SourceServer(SOURCES_DIR, host=SOURCES_HOST, slow_seconds=3)
        cls.base = cls.sources.start()
        cls.wiki = demo_wiki(cls.base)
        cls.index_dir = tempfile.TemporaryDirectory(prefix="side-test-index-")
        cls.env = {"SIDE_FETCH_ALLOWLIST": SOURCES_HOST, "SIDE_FETCH_READ_TIMEOUT": "1",
                   "SIDE_FETCH_HOST_DELAY": "0", "SIDE_FETCH_RETRIES": "0",
                   "SIDE_INDEX_DIR": cls.index_dir.name}
        cls.settings_override = override_settings(
            SIDE_FETCH_ALLOWLIST=[SOURCES_HOST], SIDE_FETCH_READ_TIMEOUT=1, SIDE_FETCH_HOST_DELAY=0,
            SIDE_FETCH_RETRIES=0, SIDE_INDEX_DIR=cls.index_dir.name)
        cls.settings_override.enable()

    @classmethod
    def tearDownClass(cls):
        cls.settings_override.disable()
        cls.sources.stop()
        cls.index_dir.cleanup()
        super().tearDownClass()

    def scan(self, titles=DEMO_TITLES) -> ScanJob:
        wiki, _ = Wiki.objects.get_or_create(api_url=self.wiki.api_url)
        return scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=list(titles))

    def run_workers(self) -> None:
        """The demo's two workers, one after the other, each until its queues are empty."""
        cheap = run_burst_worker("scan", "fetch", **self.env)
        self.assertEqual(cheap.returncode, 0, cheap.stderr[-3000:])
        model = run_burst_worker("verify", "--worker-class", "sideapp.worker.SideModelWorker", **self.env)
        self.assertEqual(model.returncode, 0, model.stderr[-3000:])
