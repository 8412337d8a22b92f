"""Jobs that a test's real worker process runs: each leaves a line in a Redis list, so a
test can read in which order, and in which process, the worker ran them."""
from __future__ import annotations

import os

import django_rq
from django.db import connection

LOG = "side:test:worker-log"


def record(name: str) -> None:
    django_rq.get_connection().rpush(LOG, f"{name} {os.getpid()}")


def record_with_database(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    record(name)


def drop_own_database_connection() -> None:
    """What a restart of PostgreSQL does to a worker's open connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
