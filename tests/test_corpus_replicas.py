"""Two worker machines, one corpus: PostgreSQL holds the passages, each worker process
(its own index directory, standing in for its own machine) keeps a local replica."""
from __future__ import annotations

import os
import signal
import subprocess
import tempfile

import numpy as np
from django.test import TransactionTestCase
from django.utils import timezone

from sideapp.corpus.models import CorpusPassage, CorpusReplica
from sideapp.models import Article, Claim, Revision, Source, SourceDocument, Suggestion, Wiki
from sideapp.pipeline import dispatch, stages
from tests.pipeline_support import MODEL_WORKER
from tests.test_pipeline_recovery import wait_for
from tests.worker_support import ROOT, run_burst_worker, worker_command, worker_env
from verifier_core.encoder import ENCODER_NAME
from verifier_core.retrieval import RetrievalEngine

LIGHTHOUSE = ("The Kellhaven lighthouse was first lit in 1871. Its lamp was converted to electricity in "
              "1936, and the last keeper left the station when it was automated in 1988.")


def source_document(url: str, text: str, indexed: bool = False) -> SourceDocument:
    source = Source.objects.create(url=url, normalized_url=url, status=Source.Status.OK, title=url)
    return SourceDocument.objects.create(source=source, title=url.rsplit("/", 1)[-1], text=text, sha256="x",
                                         fetched_at=timezone.now(), indexed_at=timezone.now() if indexed else None)


class TwoWorkersOneCorpusTests(TransactionTestCase):
    def setUp(self):
        self.dirs = [tempfile.TemporaryDirectory(prefix=f"side-replica-{n}-") for n in "ab"]
        for d in self.dirs:
            self.addCleanup(d.cleanup)
        self.index = [os.path.join(d.name, "index") for d in self.dirs]

    def run_model_worker(self, index_dir: str, **env) -> None:
        done = run_burst_worker("verify", "--worker-class", MODEL_WORKER, timeout=600,
                                SIDE_INDEX_DIR=index_dir, **env)
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])

    def flagged_claim(self, text: str) -> Claim:
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:1/api.php")
        article = Article.objects.create(wiki=wiki, title="Kellhaven Lighthouse")
        revision = Revision.objects.create(article=article, rev_id=1, wikitext=text)
        return Claim.objects.create(article=article, fingerprint="f", text=text, first_revision=revision,
                                    last_revision=revision, flagged=True, verify_state=Claim.State.DONE,
                                    suggest_state=Claim.State.QUEUED, score=0.0)

    def test_a_source_indexed_by_one_worker_is_suggested_by_the_other_after_its_sync(self):
        doc = source_document("https://harbour.example/lighthouse", LIGHTHOUSE)
        source_document("https://harbour.example/rowing", "The rowing club races on the River Arle each May.")
        dispatch.enqueue(stages.CORPUS)
        self.run_model_worker(self.index[0])  # machine A: passages into PostgreSQL, its replica
        self.assertTrue(CorpusPassage.objects.filter(document=doc, encoder=ENCODER_NAME).exists())
        self.assertFalse(os.path.exists(self.index[1]))

        claim = self.flagged_claim("The lighthouse was automated in 1988.")
        dispatch.enqueue(stages.SUGGEST, claim.pk)
        self.run_model_worker(self.index[1])  # machine B: syncs its replica, then suggests
        self.assertIn(doc.source.url, list(Suggestion.objects.filter(claim=claim).values_list("url", flat=True)))
        replica = RetrievalEngine.load(self.index[1], auto_refresh=False)
        self.assertEqual(replica.synced_through, CorpusPassage.objects.order_by("-id").first().id)
        self.assertEqual(CorpusReplica.objects.count(), 2)

    def test_a_worker_killed_mid_sync_keeps_a_usable_replica_and_resumes(self):
        stored_passages(documents=400)
        last = CorpusPassage.objects.order_by("-id").first().id
        dispatch.enqueue(stages.CORPUS)
        worker = subprocess.Popen(worker_command("verify", "--worker-class", MODEL_WORKER, burst=False),
                                  env=worker_env(SIDE_INDEX_DIR=self.index[1], SIDE_SYNC_BATCH="20"),
                                  cwd=ROOT, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: worker.poll() is not None or os.killpg(worker.pid, signal.SIGKILL))
        wait_for(lambda: CorpusReplica.objects.filter(syncing=True, done__gte=60).exists(), timeout=300,
                 what="a sync under way")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)

        replica = RetrievalEngine.load(self.index[1], auto_refresh=False)
        self.assertTrue(0 < replica.synced_through < last)
        self.assertTrue(replica.search("harbour wall document", k=3, mode="sparse"))
        dispatch.enqueue(stages.CORPUS)
        self.run_model_worker(self.index[1], SIDE_SYNC_BATCH="500")
        replica = RetrievalEngine.load(self.index[1], auto_refresh=False)
        self.assertEqual(replica.synced_through, last)
        self.assertEqual(len(replica), CorpusPassage.objects.count())  # nothing twice, nothing missed


def stored_passages(documents: int) -> None:
    """Documents already in PostgreSQL as passages (random unit vectors under MiniLM's name:
    the sync copies vectors, it never encodes)."""
    rng = np.random.default_rng(0)
    for n in range(documents):
        doc = source_document(f"https://harbour.example/doc{n}", f"Document {n} about the harbour wall.",
                              indexed=True)
        for k in range(2):
            vector = rng.standard_normal(384)
            CorpusPassage.objects.create(document=doc, start=0, end=len(doc.text), text=f"{doc.text} {k}",
                                         encoder=ENCODER_NAME,
                                         embedding=(vector / np.linalg.norm(vector)).astype("<f2").tobytes())
