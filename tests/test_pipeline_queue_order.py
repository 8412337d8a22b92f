"""The model queue's order: a claim's verdict before suggestion searches and corpus work,
one waiting corpus job for any number of fetches, and corpus work in steps that verdicts
queued meanwhile overtake."""
from __future__ import annotations

import os
import tempfile

import django_rq
from django.test import TestCase, override_settings

from sideapp.corpus.selectors import corpus_waiting
from sideapp.models import CorpusPassage, SourceDocument
from sideapp.pipeline import dispatch, stages
from sideapp.pipeline.names import Queue
from tests.test_corpus_replicas import source_document


def queued_jobs() -> list[str]:
    """The model queue's waiting jobs, next first, as "function(args)"."""
    queue = django_rq.get_queue(Queue.VERIFY)
    return [f"{job.func_name.rsplit('.', 1)[-1]}{tuple(job.args)}" for job in queue.get_jobs()]


class EmptyQueue:
    def setUp(self):
        super().setUp()
        queue = django_rq.get_queue(Queue.VERIFY)
        queue.empty()
        self.addCleanup(queue.empty)


class QueueOrderTests(EmptyQueue, TestCase):
    def enqueue(self, stage, *args) -> None:
        with self.captureOnCommitCallbacks(execute=True):
            dispatch.enqueue(stage, *args)

    def test_a_verdict_is_queued_ahead_of_suggestion_searches_and_corpus_work(self):
        self.enqueue(stages.SUGGEST, 1)
        self.enqueue(stages.CORPUS)
        self.enqueue(stages.VERIFY, 2)
        self.assertEqual(queued_jobs(), ["verify_job(2,)", "suggest_job(1,)", "corpus_job()"])

    def test_one_waiting_corpus_job_serves_every_fetch(self):
        for _ in range(3):
            self.enqueue(stages.CORPUS)
        self.assertEqual(queued_jobs(), ["corpus_job()"])

    def test_a_corpus_job_that_left_the_queue_does_not_hold_back_the_next(self):
        self.enqueue(stages.CORPUS)
        django_rq.get_queue(Queue.VERIFY).empty()  # taken (or lost): the key points at no waiting job
        self.enqueue(stages.CORPUS)
        self.assertEqual(queued_jobs(), ["corpus_job()"])


class CorpusStepTests(EmptyQueue, TestCase):
    def setUp(self):
        super().setUp()
        tmp = tempfile.TemporaryDirectory(prefix="side-corpus-step-")
        self.addCleanup(tmp.cleanup)
        settings = override_settings(SIDE_INDEX_DIR=os.path.join(tmp.name, "index"))
        settings.enable()
        self.addCleanup(settings.disable)

    def test_a_corpus_job_encodes_a_step_and_queues_the_rest_behind_waiting_verdicts(self):
        for n in range(stages.CORPUS_STEP + 2):
            source_document(f"https://harbour.example/page{n}", f"Page {n}: the harbour wall was rebuilt in {1900 + n}.")
        with self.captureOnCommitCallbacks(execute=True):
            dispatch.enqueue(stages.VERIFY, 7)
        with self.captureOnCommitCallbacks(execute=True):
            stages.corpus_job()
        self.assertEqual(SourceDocument.objects.exclude(indexed_at=None).count(), stages.CORPUS_STEP)
        self.assertTrue(corpus_waiting())
        self.assertEqual(queued_jobs(), ["verify_job(7,)", "corpus_job()"])
        with self.captureOnCommitCallbacks(execute=True):
            stages.corpus_job()
        self.assertFalse(corpus_waiting())
        self.assertEqual(queued_jobs(), ["verify_job(7,)", "corpus_job()"])  # nothing new queued
        self.assertEqual(CorpusPassage.objects.values("document").distinct().count(), stages.CORPUS_STEP + 2)
