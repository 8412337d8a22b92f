"""Admins update the corpus index from its page: a model worker turns the documents not
in the corpus yet into passages and syncs its replica; the page shows the replica."""
from __future__ import annotations

import os
import tempfile

from django.test import Client, TransactionTestCase
from django.urls import reverse

from sideapp.models import AuditEntry, CorpusPassage, CorpusReplica
from tests.pipeline_support import MODEL_WORKER
from tests.test_corpus_replicas import source_document
from tests.users import PASSWORD, cast
from tests.worker_support import run_burst_worker


class IndexUpdateTests(TransactionTestCase):
    def setUp(self):
        self.users = cast()
        tmp = tempfile.TemporaryDirectory(prefix="side-index-update-")
        self.addCleanup(tmp.cleanup)
        self.index = os.path.join(tmp.name, "index")

    def client_for(self, role: str) -> Client:
        client = Client()
        client.login(username=self.users[role].username, password=PASSWORD)
        return client

    def test_the_update_button_queues_the_corpus_job_and_a_worker_indexes_waiting_documents(self):
        doc = source_document("https://harbour.example/wall", "The harbour wall was rebuilt in 1907 after a storm.")
        admin = self.client_for("admin")
        page = admin.get(reverse("corpus")).content.decode()
        self.assertIn("Update the index now", page)
        self.assertIn("1 source documents, 0 of them in the corpus", page)
        response = admin.post(reverse("corpus_update"))
        self.assertRedirects(response, reverse("corpus"))
        self.assertEqual(AuditEntry.objects.get().action, AuditEntry.Action.INDEX_UPDATE)
        done = run_burst_worker("verify", "--worker-class", MODEL_WORKER, timeout=600, SIDE_INDEX_DIR=self.index)
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])
        self.assertTrue(CorpusPassage.objects.filter(document=doc).exists())
        replica = CorpusReplica.objects.get()
        self.assertEqual((replica.syncing, replica.passages), (False, CorpusPassage.objects.count()))
        page = admin.get(reverse("corpus"), HTTP_HX_REQUEST="true").content.decode()
        self.assertIn("1 source documents, 1 of them in the corpus", page)
        self.assertIn(replica.name, page)
        self.assertNotIn("hx-trigger", page)  # nothing syncing: the page does not poll

    def test_only_admins_may_ask_and_only_by_post(self):
        for role in ("editor", "annotator", "nobody"):
            self.assertEqual(self.client_for(role).post(reverse("corpus_update")).status_code, 403)
        self.assertEqual(self.client_for("admin").get(reverse("corpus_update")).status_code, 405)
        self.assertFalse(AuditEntry.objects.exists())
