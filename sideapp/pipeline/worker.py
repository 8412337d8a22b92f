"""RQ workers that put back work abandoned by a worker that died.

Recovery runs with RQ's own maintenance: once before the first job, then every
SIDE_RECOVERY_INTERVAL seconds (default 300), so a surviving worker takes over what a
killed one left without waiting for a restart. The same maintenance queues the patrol's
reads of recent changes every SIDE_PATROL_INTERVAL seconds (sideapp.patrol.jobs).

`SideWorker` forks a work-horse per job (scan and fetch queues). `SideModelWorker`
runs jobs in its own process so the verifier and the retrieval index are loaded once
per worker process and stay loaded (and torch never runs across a fork).

    python manage.py rqworker scan fetch default --worker-class sideapp.pipeline.worker.SideWorker
    python manage.py rqworker verify --worker-class sideapp.pipeline.worker.SideModelWorker
"""
from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import connections
from rq.worker import SimpleWorker, Worker

log = logging.getLogger(__name__)


def _recover(connection) -> None:
    from sideapp.pipeline.recovery import work_requeue

    # One recovery at a time: two workers starting together must not both requeue.
    with connection.lock("side:recovery", timeout=120, blocking_timeout=130):
        work_requeue()
    connections.close_all()  # never hand an open DB connection to a forked work-horse


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
        _guarded("queueing patrol reads", _patrol, self.connection)


def _guarded(what: str, task, connection) -> None:
    try:
        task(connection)
    except Exception:  # noqa: BLE001 - maintenance must not keep a worker from working
        log.exception("%s failed", what)


class SideWorker(_Recovering, Worker):
    pass


class SideModelWorker(_Recovering, SimpleWorker):
    pass
