"""Index lifecycle: manifest, atomic swap, incremental growth, corrupt and mismatched indexes."""
import json
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from unittest import TestCase

import numpy as np

from tests.test_retrieval_support import DOCS, EXTRA_DOCS, build_engine, encoder
from verifier_core.encoder import ENCODER_NAME
from verifier_core.retrieval import (
    CorruptIndexError, Document, EncoderMismatchError, IndexConfig, IndexNotFoundError, RetrievalEngine,
)
from verifier_core.retrieval.builder import build_index
from verifier_core.retrieval.corpus import CorpusReport
from verifier_core.retrieval.lifecycle import FORMAT_VERSION, KEEP_VERSIONS


def current_dir(root: Path) -> Path:
    return root / os.readlink(root / "current")


class ManifestAndSwapTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.engine = build_engine(DOCS[:4])
        cls.root = Path(cls.tmp.name) / "index"

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_manifest_records_format_encoder_counts_time_and_checksum(self):
        manifest = json.loads((current_dir(self.root) / "manifest.json").read_text())
        self.assertEqual(manifest["format_version"], FORMAT_VERSION)
        self.assertEqual(manifest["encoder"], {"name": ENCODER_NAME, "dim": 384})
        self.assertEqual(manifest["passage_count"], 4)
        self.assertEqual(manifest["document_count"], 4)
        self.assertRegex(manifest["corpus_checksum"], r"^[0-9a-f]{64}$")
        self.assertIn("created", manifest)
        self.assertGreater(manifest["build_time_seconds"], 0)

    def test_the_embeddings_load_memory_mapped(self):
        self.assertIsInstance(self.engine._snap.stores[0].embeddings, np.memmap)

    def test_a_rebuild_swaps_in_a_new_version_and_old_readers_keep_working(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "index"
            shutil.copytree(self.root, root, symlinks=True)
            old = RetrievalEngine.load(root, auto_refresh=False)
            old_version = old.manifest["version"]
            for _ in range(KEEP_VERSIONS):  # enough rebuilds that the old files are deleted
                build_index(root, DOCS[4:6], CorpusReport(documents=2), encoder=encoder())
            self.assertNotEqual(current_dir(root).name, old_version)
            self.assertFalse((root / "versions" / old_version).exists())
            # The old reader's files are mapped, so it answers from its version to the end.
            self.assertEqual(old.search("Eiffel Tower", k=1, mode="sparse")[0].url, DOCS[0].url)
            fresh = RetrievalEngine.load(root)
            self.assertNotIn(DOCS[0].url, [h.url for h in fresh.search("Eiffel Tower", k=5, mode="sparse")])
            self.assertTrue(old.refresh())
            self.assertEqual(old.manifest["version"], fresh.manifest["version"])

    def test_a_folder_that_is_not_an_index_is_never_overwritten(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "notes.txt").write_text("mine")
            with self.assertRaises(FileExistsError):
                build_index(tmp, DOCS[:1], CorpusReport(), encoder=encoder())
            self.assertEqual((Path(tmp) / "notes.txt").read_text(), "mine")


class IncrementalGrowthTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.built, _ = build_engine(DOCS)  # encoded once; each test grows its own copy

    @classmethod
    def tearDownClass(cls):
        cls.built.cleanup()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "index"
        shutil.copytree(Path(self.built.name) / "index", self.root, symlinks=True)
        self.engine = RetrievalEngine.load(self.root)

    def tearDown(self):
        self.tmp.cleanup()

    def test_added_documents_are_searchable_without_a_rebuild(self):
        before = len(self.engine)
        report = self.engine.add_documents(EXTRA_DOCS)
        self.assertEqual((report.added_documents, report.compacted), (2, False))
        self.assertEqual(len(self.engine), before + 2)
        self.assertEqual(self.engine.search("the red spot on the gas giant", k=1)[0].url, EXTRA_DOCS[1].url)
        self.assertEqual([e["kind"] for e in self.engine.manifest["segments"]], ["base", "delta"])

    def test_documents_can_be_given_as_dicts(self):
        doc = EXTRA_DOCS[0]
        report = self.engine.add_documents([{"url": doc.url, "title": doc.title, "text": doc.text}])
        self.assertEqual(report.added_documents, 1)
        self.assertEqual(self.engine.search("Phobos", k=1, mode="sparse")[0].url, doc.url)

    def test_searches_keep_answering_while_another_thread_adds_documents(self):
        import threading

        errors, answers = [], []

        def search_loop():
            try:
                for _ in range(20):
                    answers.append(self.engine.search("Eiffel Tower", k=1, mode="sparse")[0].url)
            except Exception as exc:  # noqa: BLE001 - any failure is what this test looks for
                errors.append(exc)

        reader = threading.Thread(target=search_loop)
        reader.start()
        for doc in EXTRA_DOCS:
            self.engine.add_documents([doc])
        reader.join()
        self.assertEqual(errors, [])
        self.assertEqual(set(answers), {DOCS[0].url})

    def test_known_urls_and_empty_documents_are_reported_not_added(self):
        report = self.engine.add_documents([DOCS[0], Document("https://x.example", "", "  ")])
        self.assertEqual(report.added_documents, 0)
        self.assertEqual(report.skipped, [("document 2", "empty text"), (DOCS[0].url, "already indexed")])

    def test_another_engine_on_the_same_index_sees_the_additions(self):
        other = RetrievalEngine.load(self.root)
        self.engine.add_documents(EXTRA_DOCS[:1])
        self.assertEqual(other.search("Phobos and Deimos", k=1, mode="sparse")[0].url, EXTRA_DOCS[0].url)

    def test_growth_past_the_ratio_compacts_into_one_base_with_the_same_results(self):
        self.engine.add_documents(EXTRA_DOCS[:1])
        expected = [h.url for h in self.engine.search("planet with two moons", k=5)]
        self.engine.compact()
        self.assertEqual([e["kind"] for e in self.engine.manifest["segments"]], ["base"])
        self.assertEqual([h.url for h in self.engine.search("planet with two moons", k=5)], expected)

    def test_a_large_addition_triggers_compaction_by_itself(self):
        many = [Document(f"https://many.example/{i}", f"Note {i}", f"Note {i} about topic {i}.") for i in range(5)]
        report = self.engine.add_documents(many)
        self.assertTrue(report.compacted)
        self.assertEqual(len(self.engine.manifest["segments"]), 1)

    def test_many_small_additions_merge_their_segments_but_keep_the_base(self):
        manifest = json.loads((current_dir(self.root) / "manifest.json").read_text())
        config = replace(IndexConfig.from_json(manifest["config"]), max_delta_segments=1, compact_ratio=10.0)
        manifest["config"] = config.to_json()
        (current_dir(self.root) / "manifest.json").write_text(json.dumps(manifest))
        engine = RetrievalEngine.load(self.root)
        base = engine.manifest["segments"][0]["name"]
        engine.add_documents(EXTRA_DOCS[:1])
        engine.add_documents(EXTRA_DOCS[1:])
        self.assertEqual([e["kind"] for e in engine.manifest["segments"]], ["base", "delta"])
        self.assertEqual(engine.manifest["segments"][0]["name"], base)
        self.assertEqual(engine.manifest["segments"][1]["documents"], 2)

    def test_old_versions_are_cleaned_up(self):
        for doc in EXTRA_DOCS:
            self.engine.add_documents([doc])
        self.assertLessEqual(len(list((self.root / "versions").iterdir())), KEEP_VERSIONS)

    def test_an_empty_index_grows_from_its_first_document(self):
        with tempfile.TemporaryDirectory() as tmp:
            engine = RetrievalEngine.create(Path(tmp) / "fresh")
            self.assertEqual(engine.search("anything at all", k=3), [])
            engine.add_documents(EXTRA_DOCS)
            self.assertEqual(engine.search("largest planet", k=1)[0].url, EXTRA_DOCS[1].url)


class BrokenIndexTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, _ = build_engine(DOCS[:3])
        cls.root = Path(cls.tmp.name) / "index"

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.copy = Path(self.work.name) / "index"
        shutil.copytree(self.root, self.copy, symlinks=True)

    def tearDown(self):
        self.work.cleanup()

    def segment(self) -> Path:
        return next((self.copy / "segments").iterdir())

    def test_a_missing_index_says_how_to_build_one(self):
        with self.assertRaisesRegex(IndexNotFoundError, "build_index"):
            RetrievalEngine.load(Path(self.work.name) / "nothing-here")

    def test_a_folder_without_a_version_is_not_an_index(self):
        with self.assertRaises(IndexNotFoundError):
            RetrievalEngine.load(self.work.name)

    def test_truncated_embeddings_are_reported_as_corruption(self):
        path = self.segment() / "embeddings.npy"
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        with self.assertRaises(CorruptIndexError):
            RetrievalEngine.load(self.copy)

    def test_a_garbled_manifest_is_reported_as_corruption(self):
        (current_dir(self.copy) / "manifest.json").write_text("{ not json")
        with self.assertRaisesRegex(CorruptIndexError, "not valid JSON"):
            RetrievalEngine.load(self.copy)

    def test_a_missing_segment_is_reported_as_corruption(self):
        shutil.rmtree(self.segment())
        with self.assertRaisesRegex(CorruptIndexError, "missing"):
            RetrievalEngine.load(self.copy)

    def test_passage_text_that_does_not_match_its_offsets_is_corruption(self):
        with open(self.segment() / "passages.bin", "ab") as handle:
            handle.write(b"extra")
        with self.assertRaisesRegex(CorruptIndexError, "offsets"):
            RetrievalEngine.load(self.copy)

    def test_an_index_built_with_another_encoder_is_refused(self):
        path = current_dir(self.copy) / "manifest.json"
        manifest = json.loads(path.read_text())
        manifest["encoder"] = {"name": "some-other-model", "dim": 768}
        path.write_text(json.dumps(manifest))
        with self.assertRaisesRegex(EncoderMismatchError, "some-other-model"):
            RetrievalEngine.load(self.copy)

    def test_a_newer_format_asks_for_a_rebuild(self):
        path = current_dir(self.copy) / "manifest.json"
        manifest = json.loads(path.read_text())
        manifest["format_version"] = FORMAT_VERSION + 1
        path.write_text(json.dumps(manifest))
        with self.assertRaisesRegex(CorruptIndexError, "rebuild"):
            RetrievalEngine.load(self.copy)

    def test_a_manifest_with_a_malformed_segment_entry_is_corruption(self):
        path = current_dir(self.copy) / "manifest.json"
        manifest = json.loads(path.read_text())
        del manifest["segments"][0]["kind"]
        path.write_text(json.dumps(manifest))
        with self.assertRaisesRegex(CorruptIndexError, "segment without"):
            RetrievalEngine.load(self.copy)

    def test_the_index_opens_from_its_current_link_too(self):
        engine = RetrievalEngine.load(self.copy / "current")
        self.assertEqual(len(engine), 3)
