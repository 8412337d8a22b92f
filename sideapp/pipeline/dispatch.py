"""A stage of work, running one of its jobs, and putting its jobs on their queue after
the transaction that made the work commits.

The stages themselves are declared once, in pipeline/stages.py; work is asked for by
passing one of them, and its job is enqueued by reference. Inside `run_inline()` the same
job functions run in this process instead (for `scan_article --sync`), so the
synchronous path and the queued path execute the very same code.
"""
from __future__ import annotations

import contextlib
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Model, QuerySet

from sideapp.pipeline.names import Queue, StageName

_state = threading.local()


@dataclass(frozen=True)
class Stage:
    name: StageName
    queue: Queue
    job: Callable[..., str]  # the RQ job function: takes the row's primary key
    run: Callable[[Any], object]  # the service that does the work on the loaded row
    load: Callable[[int], Model | None] | None = None  # None: a job without a row
    then: Callable[[Any], None] | None = None  # what it hands on to
    unfinished: Callable[[], QuerySet] | None = None  # rows that should have a job
    since: str = ""  # the unfinished row's field saying when it was handed on
    reset: Callable[[list[int]], None] | None = None  # rows of dead jobs, back to queued
    on_error: Callable[[Any, Exception], None] | None = None  # None: RQ sees the error
    retry: Callable[[], Any] | None = None  # RQ Retry for the job, if any
    progress: Callable[[Any], dict] | None = None  # its share of a scan job
    # Jobs go to the front of their queue: on the model queue a claim's verdict does not
    # wait behind suggestion searches and corpus work queued before it.
    front: bool = False
    # A job without a row whose work is "everything not done yet": while one waits on the
    # queue, asking again adds nothing (it will do the new work too).
    coalesce: bool = False


def execute(stage: Stage, *args) -> str:
    """Run one job of `stage`: load the row, do the work, hand on. A row that is gone
    (deleted while queued) or already taken by another job ends the job quietly."""
    row = stage.load(*args) if stage.load else None
    if stage.load and row is None:
        return "gone or taken"
    try:
        outcome = stage.run(row)
    except (OperationalError, InterfaceError):
        # The database went away (a restart): not the row's fault. The job fails for RQ and
        # the row, still unfinished, is put back by recovery once the database answers.
        raise
    except Exception as exc:
        if stage.on_error is None:
            raise
        stage.on_error(row, exc)
        outcome = "failed"
    if stage.then:
        stage.then(row)
    return str(outcome)


@contextlib.contextmanager
def run_inline() -> Iterator[None]:
    previous = getattr(_state, "inline", False)
    _state.inline = True
    try:
        yield
    finally:
        _state.inline = previous


def is_inline() -> bool:
    return getattr(_state, "inline", False)


def enqueue(stage: Stage, *args) -> None:
    """Queue one job of `stage` (args: the row's primary key, if it has a row) once the
    current transaction commits."""
    if is_inline():
        transaction.on_commit(lambda: stage.job(*args))
        return

    def _enqueue() -> None:
        import django_rq

        queue = django_rq.get_queue(stage.queue)
        if stage.coalesce and _waiting(queue, stage):
            return
        retry = stage.retry() if stage.retry else None
        job_id = str(uuid.uuid4())  # known here even where django-rq defers the enqueue to a commit
        queue.enqueue(stage.job, *args, retry=retry, at_front=stage.front, job_id=job_id)
        if stage.coalesce:
            queue.connection.set(_waiting_key(stage), job_id, ex=86400)

    transaction.on_commit(_enqueue)


def _waiting_key(stage: Stage) -> str:
    return f"side:waiting:{stage.name}"


def _waiting(queue, stage: Stage) -> bool:
    """Whether the last job queued for `stage` still waits to start (the key only points at
    a job: a job that started, ended or vanished never holds back the next one)."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job, JobStatus

    job_id = queue.connection.get(_waiting_key(stage))
    if not job_id:
        return False
    try:
        return Job.fetch(job_id.decode(), connection=queue.connection).get_status() == JobStatus.QUEUED
    except NoSuchJobError:
        return False


def enqueue_many(stage: Stage, pks: Iterable[int]) -> int:
    pks = list(pks)
    for pk in pks:
        enqueue(stage, pk)
    return len(pks)


def waiting_jobs(stage: Stage, look: int = 200) -> list[tuple[str, tuple]]:
    """(job id, args) of the first `look` jobs of `stage` still waiting on its queue, next
    first; none inside `run_inline()` (no queue there)."""
    if is_inline():
        return []
    import django_rq
    from rq.job import Job

    queue = django_rq.get_queue(stage.queue)
    func = f"{stage.job.__module__}.{stage.job.__qualname__}"
    jobs = Job.fetch_many(queue.get_job_ids(0, look), connection=queue.connection)
    return [(job.id, tuple(job.args)) for job in jobs if job is not None and job.func_name == func]


def take_job(stage: Stage, job_id: str) -> bool:
    """Take a waiting job of `stage` off its queue, to do its work in the running job: true
    only for the one taker (Redis removes a list entry atomically), never for a job that a
    worker started meanwhile. Its rows stay unfinished until the taker ends them; a taker
    that dies leaves them to recovery, as any lost job does."""
    import django_rq

    queue = django_rq.get_queue(stage.queue)
    if not queue.remove(job_id):
        return False
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    with contextlib.suppress(NoSuchJobError):  # only its record left to drop
        Job.fetch(job_id, connection=queue.connection).delete(remove_from_queue=False)
    return True
