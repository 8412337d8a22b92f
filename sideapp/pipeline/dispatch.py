"""Putting a stage's work on its queue, after the transaction that made it commits.

Work is asked for by stage name; the stage table (pipeline/stages.py) says which queue
and which job function, and the job is enqueued by reference. Inside `run_inline()` the
same job functions run in this process instead (for `scan_article --sync`), so the
synchronous path and the queued path execute the very same code.
"""
from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Iterator

from django.db import transaction

from sideapp.pipeline.names import StageName

if TYPE_CHECKING:
    from sideapp.pipeline.stages import Stage

_state = threading.local()


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


def stages() -> list["Stage"]:
    """The stage table, in pipeline order. The table imports every stage's service, and
    services hand work on through this module, so it is looked up when work is asked
    for, not at import time."""
    from sideapp.pipeline.stages import STAGES

    return list(STAGES.values())


def stage(name: StageName) -> "Stage":
    return next(s for s in stages() if s.name == name)


def enqueue(name: StageName, *args) -> None:
    """Queue one job of stage `name` (args: the row's primary key, if it has a row)
    once the current transaction commits."""
    target = stage(name)
    if is_inline():
        transaction.on_commit(lambda: target.job(*args))
        return

    def _enqueue() -> None:
        import django_rq

        retry = target.retry() if target.retry else None
        django_rq.get_queue(target.queue).enqueue(target.job, *args, retry=retry)

    transaction.on_commit(_enqueue)


def enqueue_many(name: StageName, pks) -> int:
    pks = list(pks)
    for pk in pks:
        enqueue(name, pk)
    return len(pks)
