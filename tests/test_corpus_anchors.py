"""The anchor dictionary is built from the scanned articles' own links."""
from __future__ import annotations

import io
import tempfile
from pathlib import Path

from django.core.management import call_command
from django.test import TestCase, override_settings

from sideapp.corpus.services import anchors_sync, corpus_engine
from tests.wiki_support import demo_wiki, scan_titles
from verifier_core.retrieval import AnchorDictionary

DEMO = ["Arle Valley Railway", "Kellhaven Lighthouse", "Kellhaven Rowing Club", "Margaret Ellery", "River Arle"]


class AnchorsFromScannedArticlesTests(TestCase):
    def setUp(self):
        self.wiki = demo_wiki()
        scan_titles(self.wiki, *DEMO)
        self.index = tempfile.TemporaryDirectory()
        self.addCleanup(self.index.cleanup)

    def test_the_build_anchors_command_reads_the_scanned_articles(self):
        out = Path(self.index.name) / "anchors.json"
        call_command("build_anchors", out=str(out), stdout=io.StringIO())
        anchors = AnchorDictionary.load(out)
        # The demo articles link to River Arle more than once under its own name.
        self.assertEqual(anchors.resolve("River Arle"), "River Arle")

    def test_the_corpus_index_gets_the_dictionary_again_only_after_a_new_scan(self):
        with override_settings(SIDE_INDEX_DIR=self.index.name):
            self.assertTrue(anchors_sync())
            self.assertTrue(corpus_engine().has_anchors)
            self.assertFalse(anchors_sync())
            self.wiki.edit("Anchors extra", "The [[River Arle|Arle]] floods.<ref>x</ref>")
            scan_titles(self.wiki, "Anchors extra")
            self.assertTrue(anchors_sync())
