"""The cheap-queue worker: which work it takes first, whatever order its command line names
the queues in (a real worker process), that it runs every job in that one process, and that
a database connection dropped under it is replaced before the next job."""
from __future__ import annotations

import django_rq
from django.test import TransactionTestCase

from sideapp.pipeline.names import Queue
from sideapp.pipeline.worker import SideWorker
from tests import worker_jobs
from tests.worker_support import run_burst_worker


class CheapWorkerTests(TransactionTestCase):
    def setUp(self):
        self.redis = django_rq.get_connection()
        self.redis.delete(worker_jobs.LOG)
        self.queues = {name: django_rq.get_queue(name) for name in (Queue.SCAN, Queue.FETCH, Queue.DEFAULT)}
        for queue in self.queues.values():
            queue.empty()
        self.addCleanup(lambda: [q.empty() for q in self.queues.values()])
        self.addCleanup(self.redis.delete, worker_jobs.LOG)

    def log(self) -> list[tuple[str, str]]:
        return [tuple(line.decode().split()) for line in self.redis.lrange(worker_jobs.LOG, 0, -1)]

    def test_fetches_are_taken_before_scans_whatever_the_order_on_the_command_line(self):
        for n in range(2):
            self.queues[Queue.SCAN].enqueue(worker_jobs.record, f"scan{n}")
        self.queues[Queue.DEFAULT].enqueue(worker_jobs.record, "import")
        self.queues[Queue.FETCH].enqueue(worker_jobs.record, "fetch")
        done = run_burst_worker("scan", "fetch", "default")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        log = self.log()
        self.assertEqual([name for name, _ in log], ["fetch", "scan0", "scan1", "import"])
        self.assertEqual(len({pid for _, pid in log}), 1)  # one process: no work-horse forked per job

    def test_the_job_after_postgresql_dropped_the_connection_runs_on_a_new_one(self):
        fetch = self.queues[Queue.FETCH]
        fetch.enqueue(worker_jobs.record_with_database, "before")
        fetch.enqueue(worker_jobs.drop_own_database_connection)
        fetch.enqueue(worker_jobs.record_with_database, "after")
        # In this process, whose connection the second job drops: no maintenance in between.
        SideWorker([fetch], connection=self.redis).work(burst=True)
        self.assertEqual([name for name, _ in self.log()], ["before", "after"])

    def test_a_connection_past_its_maximum_age_is_replaced_before_the_next_job(self):
        fetch = self.queues[Queue.FETCH]
        fetch.enqueue(worker_jobs.age_own_database_connection)
        fetch.enqueue(worker_jobs.record_database_session, "next")
        SideWorker([fetch], connection=self.redis).work(burst=True)
        sessions = dict(name.split(":") for name, _ in self.log())
        self.assertEqual(set(sessions), {"aged", "next"})
        self.assertNotEqual(sessions["aged"], sessions["next"])
