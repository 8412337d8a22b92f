"""A real local web archive (pywb on a free loopback port) holding the demo's snapshots, for
the tests that read archived copies. Holds no tests itself."""
from __future__ import annotations

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from harness.archive import LocalArchive, demo_archive_start, pywb_available
from harness.demo import SOURCES_DIR
from harness.webserver import SourceServer

SOURCES_HOST = "127.0.0.2"  # the cited pages' own loopback address, allow-listed by the tests


def require_pywb() -> None:
    """Skip without pywb, or fail where browsers and services must be there (CI)."""
    if not pywb_available():
        message = "pywb is not installed in .venv-pywb (bin/bootstrap installs it)"
        if os.environ.get("SIDE_REQUIRE_BROWSER") == "1":
            raise AssertionError(message)
        raise unittest.SkipTest(message)


class ArchiveOnLoopback:
    """Start with `start(sources_base_url)`; `setting` goes into SIDE_ARCHIVES."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="side-test-archive-"))
        self.archive = LocalArchive(self.dir)

    def start(self, sources_base_url: str) -> "ArchiveOnLoopback":
        demo_archive_start(self.archive, sources_base_url)
        return self

    @property
    def setting(self) -> str:
        return self.archive.setting

    def stop(self) -> None:
        self.archive.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class WithArchiveOnLoopback:
    """For a test class: the demo's cited pages served on SOURCES_HOST (`cls.sources`) and a
    real pywb archive of them (`cls.archive`), for the whole class."""

    @classmethod
    def setUpClass(cls):
        require_pywb()
        super().setUpClass()
        cls.sources = SourceServer(SOURCES_DIR, host=SOURCES_HOST)
        cls.sources.start()
        cls.archive = ArchiveOnLoopback().start(cls.sources.base_url)

    @classmethod
    def tearDownClass(cls):
        cls.archive.stop()
        cls.sources.stop()
        super().tearDownClass()
