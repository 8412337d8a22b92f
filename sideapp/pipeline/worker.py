"""RQ workers that put back work abandoned by a worker that died.

Recovery runs with RQ's own maintenance: once before the first job, then every
SIDE_RECOVERY_INTERVAL seconds (default 300), so a surviving worker takes over what a
killed one left without waiting for a restart. The same maintenance queues the patrol's
reads of recent changes every SIDE_PATROL_INTERVAL seconds (sideapp.patrol.jobs).

Both run jobs in their own process rather than forking a work-horse per job. For the
cheap queues (scan, fetch) a fork cost a third of the work it carried (measured with
bench/bench_patrol.py: a new database connection, a new wiki session with its siteinfo
read, lazily imported modules and warm caches lost with each horse); a job that fails
ends as its row's status either way, a job past its timeout is stopped by RQ's alarm, and
work left by a worker that was killed is put back by recovery. `SideModelWorker` keeps
the verifier and the retrieval index loaded (and torch never runs across a fork).
Each job starts and ends like a web request: a database connection that broke or aged
past DB_CONN_MAX_AGE is replaced, so one restart of PostgreSQL fails no later job.

    python manage.py rqworker scan fetch default --worker-class sideapp.pipeline.worker.SideWorker
    python manage.py rqworker verify --worker-class sideapp.pipeline.worker.SideModelWorker
"""
from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import close_old_connections, connections
from rq.worker import SimpleWorker

from sideapp.pipeline.names import PRIORITY

log = logging.getLogger(__name__)


def _recover(connection) -> None:
    from sideapp.pipeline.recovery import work_requeue

    # One recovery at a time: two workers starting together must not both requeue.
    with connection.lock("side:recovery", timeout=120, blocking_timeout=130):
        work_requeue()
    connections.close_all()


def _settle_saves(_connection) -> None:
    """Edits whose audit row was left pending (by a web process that died, or a save whose
    answer never came back): their outcome read from the wiki's history (sideapp.edits.saving)."""
    from sideapp.edits.saving import pending_saves_settle

    pending_saves_settle()
    connections.close_all()


def _patrol(connection) -> None:
    from sideapp.patrol.jobs import polls_due

    polls_due(connection)
    connections.close_all()


class _Recovering:
    """Maintenance every SIDE_PATROL_INTERVAL seconds (patrol reads are queued then);
    recovery within it every SIDE_RECOVERY_INTERVAL seconds."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("maintenance_interval",
                          min(settings.SIDE_RECOVERY_INTERVAL, settings.SIDE_PATROL_INTERVAL))
        super().__init__(*args, **kwargs)
        self._recovered_at = None

    @property
    def dequeue_timeout(self) -> int:
        # An idle worker blocks on Redis this long between maintenance checks.
        return max(1, min(super().dequeue_timeout, self.maintenance_interval))

    def run_maintenance_tasks(self):
        super().run_maintenance_tasks()
        now = time.monotonic()
        if self._recovered_at is None or now - self._recovered_at >= settings.SIDE_RECOVERY_INTERVAL:
            self._recovered_at = now
            _guarded("recovery of abandoned work", _recover, self.connection)
            _guarded("settling saves left pending", _settle_saves, self.connection)
        _guarded("queueing patrol reads", _patrol, self.connection)


def _priority(queue) -> int:
    """Where a queue comes in PRIORITY (names.py); queues it does not name keep their order after."""
    return PRIORITY.index(queue.name) if queue.name in PRIORITY else len(PRIORITY)


def _guarded(what: str, task, connection) -> None:
    try:
        task(connection)
    except Exception:  # noqa: BLE001 - maintenance must not keep a worker from working
        log.exception("%s failed", what)


class _InProcess(_Recovering, SimpleWorker):
    """Takes work in PRIORITY's order and runs each job in this process (see above)."""

    def __init__(self, queues, *args, **kwargs):
        super().__init__(queues, *args, **kwargs)
        self.queues.sort(key=_priority)
        self._ordered_queues = self.queues[:]  # RQ's dequeue order, copied from self.queues in __init__

    def perform_job(self, job, queue):
        close_old_connections()
        try:
            return super().perform_job(job, queue)
        finally:
            close_old_connections()


class SideWorker(_InProcess):
    """The cheap queues: scan, fetch, default."""


class SideModelWorker(_InProcess):
    """The verify queue: the models stay loaded between jobs. A worker started for good
    loads them before it takes work, so that the first claim it is handed is not kept
    waiting while the verifier and the encoder load (seconds each); a burst worker, which
    may find nothing to do, loads them when a job first needs them."""

    def work(self, burst: bool = False, **kwargs) -> bool:
        if not burst:
            _guarded("loading the models", _models_load, self.connection)
        return super().work(burst, **kwargs)


def _models_load(_connection) -> None:
    from sideapp.claims.verification import verifier
    from sideapp.corpus.services import corpus_engine

    verifier()
    corpus_engine().encoder.encode(["a sentence to load the encoder with"])
