"""Running the whole pipeline on the demo wiki with real workers, for end-to-end tests."""
from __future__ import annotations

import tempfile

from django.core.management import call_command
from django.test import TransactionTestCase, override_settings

from harness.demo import SOURCES_DIR
from harness.webserver import SourceServer
from sideapp.models import ScanJob, Wiki
from sideapp.scans.services import scan_request
from tests.wiki_support import demo_wiki
from tests.worker_support import run_burst_worker

SOURCES_HOST = "127.0.0.2"  # the only allow-listed address, as in the demo
MODEL_WORKER = "sideapp.pipeline.worker.SideModelWorker"
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

    @classmethod
    def scan(cls, titles=DEMO_TITLES) -> ScanJob:
        wiki, _ = Wiki.objects.get_or_create(api_url=cls.wiki.api_url)
        return scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=list(titles))

    @classmethod
    def run_workers(cls) -> None:
        """The demo's two workers, one after the other, each until its queues are empty."""
        for queues in (["scan", "fetch"], ["verify", "--worker-class", MODEL_WORKER]):
            done = run_burst_worker(*queues, timeout=900, **cls.env)
            if done.returncode != 0:
                raise AssertionError(f"worker {queues[0]} failed: {done.stderr[-3000:]}")


class SharedPipelineTestCase(PipelineTestCase):
    """The pipeline runs once for the whole class (in `setUpPipeline`), and each test
    reads one part of what it left, so a failure names the part. The tables are emptied
    after the class, not after each test."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:
            cls.setUpPipeline()
        except BaseException:
            cls._flush()
            cls.tearDownClass()
            raise

    @classmethod
    def setUpPipeline(cls) -> None:
        raise NotImplementedError

    @classmethod
    def tearDownClass(cls):
        cls._flush()
        super().tearDownClass()

    @classmethod
    def _flush(cls) -> None:
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False)

    def _fixture_teardown(self):
        pass  # the class's tests share what the pipeline left
