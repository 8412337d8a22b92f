"""Putting back work that was lost: a killed worker, a flushed Redis, a dropped enqueue.

The database says what is unfinished (items queued or running, sources queued,
claims queued for verification or suggestion). Work counts as alive while a job for
it waits on a queue, is scheduled for a retry, or runs on a worker that is still
alive; everything else is enqueued again. Workers run this at start and then
periodically (sideapp.worker). Jobs are idempotent, so doing a piece of work twice
(a job caught between dequeue and start) costs time but never corrupts rows.
"""
from __future__ import annotations

import logging
import os
import socket

import django_rq
from django.db.models import Q
from rq.job import Job
from rq.registry import ScheduledJobRegistry, StartedJobRegistry
from rq.worker import Worker

from sideapp import queues
from sideapp.models import Claim, CorpusImport, ScanItem, ScanJob, Source

log = logging.getLogger(__name__)
QUEUES = ("scan", "fetch", "verify", "default")


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


def _started_alive(queue, connection) -> list[str]:
    """Ids of running jobs whose worker lives; jobs of dead workers leave the registry."""
    registry = StartedJobRegistry(queue=queue)
    alive = []
    for job_id in registry.get_job_ids():
        job = Job.fetch(job_id, connection=connection) if Job.exists(job_id, connection) else None
        if job is not None and job.worker_name and _worker_alive(job.worker_name, connection):
            alive.append(job_id)
        elif job is not None:
            registry.remove_executions(job)  # abandoned: its worker is gone
    return alive


def live_work() -> set[tuple[str, int]]:
    """(job function, primary key) of every job that is queued, scheduled or running."""
    live: set[tuple[str, int]] = set()
    for name in QUEUES:
        queue = django_rq.get_queue(name)
        connection = queue.connection
        ids = queue.get_job_ids() + ScheduledJobRegistry(queue=queue).get_job_ids()
        ids += _started_alive(queue, connection)
        for job in Job.fetch_many(ids, connection=connection):
            if job is not None and job.args:
                live.add((job.func_name, job.args[0]))
    return live


def work_requeue() -> dict[str, int]:
    """Enqueue again every unfinished piece of work that no live job covers."""
    live = live_work()
    counts = {}
    counts["scan"] = _requeue(live, "scan", "sideapp.jobs.scan_item_job",
                              ScanItem.objects.filter(status__in=["queued", "running"]))
    counts["expand"] = _requeue(live, "scan", "sideapp.jobs.scan_expand_job", ScanJob.objects.filter(
        ~Q(kind=ScanJob.Kind.TITLES), items=None, status__in=["queued", "running"]))
    counts["fetch"] = _requeue(live, "fetch", "sideapp.jobs.fetch_source_job",
                               Source.objects.filter(status=Source.Status.PENDING).exclude(queued_at=None))
    counts["verify"] = _requeue(live, "verify", "sideapp.jobs.verify_claim_job",
                                Claim.objects.filter(verify_state=Claim.State.QUEUED))
    counts["import"] = _requeue(live, "default", "sideapp.jobs.corpus_import_job",
                                CorpusImport.objects.filter(status__in=["queued", "running"]))
    counts["suggest"] = _requeue(live, "verify", "sideapp.jobs.suggest_claim_job",
                                 Claim.objects.filter(suggest_state=Claim.State.QUEUED))
    counts["stages"] = _refresh_open_jobs()
    if any(counts.values()):
        log.warning("requeued abandoned work: %s", counts)
    return counts


def _refresh_open_jobs() -> int:
    """Let every unfinished scan job start a stage whose start signal was lost, and
    start the suggestion search of flagged claims that belong to no open job."""
    from sideapp.services import pipeline, stages

    open_jobs = ScanJob.objects.filter(status__in=[ScanJob.Status.QUEUED, ScanJob.Status.RUNNING])
    for job in open_jobs:
        stages.scan_job_refresh(job=job)
    orphans = Claim.objects.filter(suggest_state=Claim.State.PENDING).exclude(
        revision_claims__revision__scanitem__job__in=open_jobs)
    return pipeline.suggestions_dispatch(claim_ids=orphans.values_list("pk", flat=True))


def _requeue(live: set[tuple[str, int]], queue: str, func: str, rows) -> int:
    lost = [pk for pk in rows.values_list("pk", flat=True) if (func, pk) not in live]
    for pk in lost:
        queues.enqueue_after_commit(queue, func, pk)
    return len(lost)
