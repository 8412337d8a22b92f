"""Jobs that a test's real worker process runs: each leaves a line in a Redis list, so a
test can read in which order, and in which process, the worker ran them."""
from __future__ import annotations

import os
import time

import django_rq
from django.db import connection

LOG = "side:test:worker-log"


def record(name: str) -> None:
    django_rq.get_connection().rpush(LOG, f"{name} {os.getpid()}")


def record_with_database(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    record(name)


def record_database_session(name: str) -> None:
    """The PostgreSQL backend serving this job: another one means another connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        record(f"{name}:{cursor.fetchone()[0]}")


def age_own_database_connection() -> None:
    """What DB_CONN_MAX_AGE seconds of a worker's life do to its connection."""
    record_database_session("aged")
    connection.close_at = time.monotonic() - 1


def drop_own_database_connection() -> None:
    """What a restart of PostgreSQL does to a worker's open connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
