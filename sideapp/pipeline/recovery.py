"""Putting back work that was lost: a killed worker, a flushed Redis, a dropped enqueue.

The database says what is unfinished (each stage's `unfinished` rows in the stage
table). Such a row is put back when RQ shows its job died, or when RQ holds no trace of
it at all for longer than SIDE_RECOVERY_GRACE seconds:

- alive: its job waits on a queue (or in RQ's intermediate queue between dequeue and
  start), is scheduled or deferred, or runs on a worker that is still alive;
- dead: its job was started by a worker that is gone (found through RQ's started-job
  registry and worker heartbeats), or it sits in the failed-job registry; put back at once;
- no trace: the enqueue after commit may still be on its way (a row is committed a
  moment before its job reaches Redis), so it is put back only after the grace period.

Workers run this at start and then periodically (pipeline/worker.py). Jobs are
idempotent and a scan item is taken by one job only (ScanItem.take), so a piece of work
queued twice by a race costs a no-op job, never a second scan.
"""
from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass, field
from datetime import timedelta

import django_rq
from django.conf import settings
from django.utils import timezone
from rq.job import Job
from rq.registry import DeferredJobRegistry, FailedJobRegistry, ScheduledJobRegistry, StartedJobRegistry
from rq.worker import Worker

from sideapp.pipeline import stages
from sideapp.pipeline.dispatch import enqueue_many
from sideapp.scans.models import ScanJob
from sideapp.claims.models import Claim

log = logging.getLogger(__name__)
Key = tuple[str, object]  # (job function name, primary key)


@dataclass
class Traces:
    alive: set[Key] = field(default_factory=set)
    dead: set[Key] = field(default_factory=set)


def _worker_alive(name: str, connection) -> bool:
    worker = Worker.find_by_key(f"{Worker.redis_worker_namespace_prefix}{name}", connection=connection)
    if worker is None:
        return False
    if worker.hostname == socket.gethostname() and worker.pid:
        try:
            os.kill(worker.pid, 0)  # a worker on this host: is its process still there?
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
    return True


def _keys(job_ids: list[str], connection) -> set[Key]:
    return {key for job in Job.fetch_many(job_ids, connection=connection) if job is not None for key in _job_keys(job)}


def _job_keys(job) -> set[Key]:
    """One key per row the job works on (a suggest job takes several claims of an article)."""
    return {(job.func_name, arg) for arg in job.args} if job.args else {(job.func_name, None)}


def _started(queue, connection, traces: Traces) -> None:
    """Running jobs: alive while a worker of theirs lives; jobs of dead workers leave the
    registry. The worker is read from the job's executions, which RQ records with the
    worker's name before the job itself says who runs it: a job between the two (a horse
    being forked) belongs to a live worker and must not look abandoned."""
    registry = StartedJobRegistry(queue=queue)
    for job_id in registry.get_job_ids():
        job = Job.fetch(job_id, connection=connection) if Job.exists(job_id, connection) else None
        if job is None:
            continue
        keys = _job_keys(job)
        workers = {e.worker_name for e in job.get_executions()} | {job.worker_name}
        workers -= {None, ""}
        if not workers or any(_worker_alive(name, connection) for name in workers):
            traces.alive |= keys
        else:
            registry.remove_executions(job)  # abandoned: its worker is gone
            traces.dead |= keys


def rq_traces() -> Traces:
    """What RQ knows of every job of the pipeline's queues."""
    traces = Traces()
    for queue_name in dict.fromkeys(s.queue for s in stages.STAGES.values()):
        queue = django_rq.get_queue(queue_name)
        connection = queue.connection
        waiting = (queue.get_job_ids() + queue.intermediate_queue.get_job_ids()
                   + ScheduledJobRegistry(queue=queue).get_job_ids()
                   + DeferredJobRegistry(queue=queue).get_job_ids())
        traces.alive |= _keys(waiting, connection)
        _started(queue, connection, traces)
        traces.dead |= _keys(FailedJobRegistry(queue=queue).get_job_ids(), connection)
    traces.dead -= traces.alive
    return traces


def work_requeue() -> dict[str, int]:
    """Enqueue again every unfinished piece of work whose job is dead or lost."""
    traces = rq_traces()
    cutoff = timezone.now() - timedelta(seconds=settings.SIDE_RECOVERY_GRACE)
    counts = {}
    for stage in stages.STAGES.values():
        if stage.unfinished is None:
            continue
        func = f"{stage.job.__module__}.{stage.job.__qualname__}"
        rows = stage.unfinished().values_list("pk", stage.since)
        lost = [pk for pk, since in rows if (func, pk) not in traces.alive
                and ((func, pk) in traces.dead or since is None or since < cutoff)]
        if stage.reset and lost:
            stage.reset(lost)
        counts[stage.name.value] = enqueue_many(stage, lost)
    counts["stages"] = _refresh_open_jobs()
    if any(counts.values()):
        log.warning("requeued abandoned work: %s", {k: v for k, v in counts.items() if v})
    return counts


def _refresh_open_jobs() -> int:
    """Let every unfinished scan job start a stage whose start signal was lost, and
    start the suggestion search of flagged claims that belong to no open job."""
    open_jobs = ScanJob.objects.filter(status__in=ScanJob.OPEN)
    for job in open_jobs:
        stages.scan_job_refresh(job=job)
    orphans = Claim.objects.filter(suggest_state=Claim.State.PENDING).exclude(
        revision_claims__revision__scanitem__job__in=open_jobs)
    return stages.suggestions_dispatch(claim_ids=orphans.values_list("pk", flat=True))
