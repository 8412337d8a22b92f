"""Admins import a corpus file; a worker stores and indexes it, with progress."""
from __future__ import annotations

import json
import tempfile

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase, TransactionTestCase, override_settings
from django.urls import reverse

from sideapp.models import CorpusImport, Source, SourceDocument
from sideapp.corpus.imports import import_run
from tests.users import PASSWORD, cast
from tests.worker_support import run_burst_worker


def corpus_file(lines: list[str]) -> SimpleUploadedFile:
    return SimpleUploadedFile("corpus.jsonl", "\n".join(lines).encode(), content_type="application/jsonl")


def doc(n: int) -> str:
    return json.dumps({"url": f"https://example.org/doc{n}", "title": f"Doc {n}",
                       "text": f"Document {n} says the harbour wall was rebuilt in {1900 + n}."})


class ImportTestCase:
    def setUp(self):
        super().setUp()
        self.users = cast()
        self.media = tempfile.TemporaryDirectory()
        self.index = tempfile.TemporaryDirectory()
        self.settings_override = override_settings(MEDIA_ROOT=self.media.name, SIDE_INDEX_DIR=self.index.name)
        self.settings_override.enable()
        self.addCleanup(self.settings_override.disable)
        self.addCleanup(self.media.cleanup)
        self.addCleanup(self.index.cleanup)

    def admin(self) -> Client:
        client = Client()
        client.login(username=self.users["admin"].username, password=PASSWORD)
        return client


class CorpusImportTests(ImportTestCase, TestCase):
    def test_bad_lines_are_skipped_and_reported_with_their_line_numbers(self):
        upload = corpus_file([doc(1), "{not json", json.dumps({"url": "https://x.org/empty", "text": ""}),
                              doc(2), doc(1)])
        record = import_run(record=CorpusImport.objects.create(upload=upload, name="c.jsonl"))
        self.assertEqual(record.status, CorpusImport.Status.DONE, record.reason)
        self.assertEqual(record.report["documents"], 2)
        self.assertEqual(record.report["duplicates_merged"], 1)
        self.assertEqual([line for line, _ in record.report["skipped"]], [2, 3])
        self.assertEqual(record.report["indexed"], 2)
        self.assertEqual(SourceDocument.objects.exclude(indexed_at=None).count(), 2)
        self.assertEqual(set(Source.objects.values_list("status", flat=True)), {"ok"})

    def test_a_file_that_is_not_jsonl_at_all_ends_failed_not_done_with_nothing(self):
        upload = corpus_file(["The harbour wall was rebuilt in 1903.", "It was extended in 1911."])
        record = import_run(record=CorpusImport.objects.create(upload=upload, name="notes.txt"))
        self.assertEqual(record.status, CorpusImport.Status.FAILED)
        self.assertIn("no line was a JSON object", record.reason)
        self.assertFalse(SourceDocument.objects.exists())

    def test_the_import_page_reports_documents_per_second(self):
        record = import_run(record=CorpusImport.objects.create(upload=corpus_file([doc(1), doc(2)]),
                                                               name="c.jsonl"))
        self.assertGreater(record.report["rate"], 0)
        page = self.admin().get(reverse("corpus_import", args=[record.pk])).content.decode()
        self.assertIn("documents/s", page)

    def test_the_corpus_page_shows_each_replica_sync_with_rate_and_time_left(self):
        from sideapp.corpus.models import CorpusReplica

        CorpusReplica.objects.create(name="worker-b:/var/side/index", encoder="minilm", syncing=True,
                                     done=1200, total=5000, rate=400.0, seconds_left=9.5)
        page = self.admin().get(reverse("corpus")).content.decode()
        self.assertIn("worker-b:/var/side/index", page)
        self.assertIn("1200 / 5000 passages, 400.0 passages/s, about 10 s left", page)

    def test_a_url_that_was_already_fetched_keeps_its_fetched_text(self):
        source = Source.objects.create(url="https://example.org/doc1", normalized_url="https://example.org/doc1",
                                       status="ok")
        SourceDocument.objects.create(source=source, text="fetched text", sha256="x", fetched_at="2026-01-01T00:00Z")
        import_run(record=CorpusImport.objects.create(upload=corpus_file([doc(1)]), name="c.jsonl"))
        self.assertEqual(SourceDocument.objects.get(source=source).text, "fetched text")

    def test_an_unreadable_file_ends_the_import_failed_with_the_reason(self):
        record = CorpusImport.objects.create(upload=corpus_file([doc(1)]), name="c.jsonl")
        record.upload.storage.delete(record.upload.name)
        record = import_run(record=record)
        self.assertEqual(record.status, CorpusImport.Status.FAILED)
        self.assertIn("FileNotFoundError", record.reason)

    def test_only_admins_may_see_or_import(self):
        for role in ("editor", "annotator"):
            client = Client()
            client.login(username=self.users[role].username, password=PASSWORD)
            self.assertEqual(client.get(reverse("corpus")).status_code, 403)
            self.assertEqual(client.post(reverse("corpus"), {"file": corpus_file([doc(1)])}).status_code, 403)
        self.assertFalse(CorpusImport.objects.exists())


class CorpusImportWorkerTests(ImportTestCase, TransactionTestCase):
    def test_an_uploaded_file_is_imported_by_a_worker_and_its_progress_shown(self):
        response = self.admin().post(reverse("corpus"), {"file": corpus_file([doc(n) for n in range(30)])})
        record = CorpusImport.objects.get()
        self.assertRedirects(response, reverse("corpus_import", args=[record.pk]))
        done = run_burst_worker("default", SIDE_INDEX_DIR=self.index.name, SIDE_MEDIA_DIR=self.media.name)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        record.refresh_from_db()
        self.assertEqual(record.status, CorpusImport.Status.DONE, record.reason)
        self.assertEqual((record.done, record.total), (30, 30))
        page = self.admin().get(reverse("corpus_import", args=[record.pk]), HTTP_HX_REQUEST="true")
        self.assertContains(page, "30 / 30")
        self.assertNotContains(page, "hx-trigger")  # finished: no more polling
