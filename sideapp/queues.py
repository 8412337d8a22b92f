"""Putting work on the RQ queues, after the transaction that made it commits.

Jobs are named by dotted path and take primary keys only. Inside `run_inline()` the
same calls run in this process instead (for `scan_article --sync`), so the synchronous
path and the queued path execute the very same job functions.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from django.db import transaction
from django.utils.module_loading import import_string

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


def enqueue_after_commit(queue: str, func: str, *args, **options) -> None:
    if is_inline():
        transaction.on_commit(lambda: import_string(func)(*args))
        return

    def _enqueue() -> None:
        import django_rq

        django_rq.get_queue(queue).enqueue(func, *args, **options)

    transaction.on_commit(_enqueue)
