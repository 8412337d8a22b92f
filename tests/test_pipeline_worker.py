"""The cheap-queue worker as a real process: which work it takes first, whatever order its
command line names the queues in, and that it runs jobs in its own process yet survives a
database connection dropped under it."""
from __future__ import annotations

import django_rq
from django.test import TransactionTestCase

from sideapp.pipeline.names import Queue
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
        self.assertEqual([name for name, _ in self.log()], ["fetch", "scan0", "scan1", "import"])

    def test_jobs_run_in_the_worker_process_and_a_dropped_database_connection_is_replaced(self):
        fetch = self.queues[Queue.FETCH]
        fetch.enqueue(worker_jobs.record_with_database, "before")
        fetch.enqueue(worker_jobs.drop_own_database_connection)
        fetch.enqueue(worker_jobs.record_with_database, "after")
        done = run_burst_worker("fetch", SIDE_PATROL_INTERVAL="600", SIDE_RECOVERY_INTERVAL="600")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        log = self.log()
        print(done.stderr[-3000:]); self.assertEqual([name for name, _ in log], ["before", "after"])
        self.assertEqual(len({pid for _, pid in log}), 1)  # one process: no work-horse per job
