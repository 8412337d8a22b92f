"""Commands that read or write the database say what to do when it is not ready,
instead of a traceback."""
from __future__ import annotations

from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor


def require_migrated_database() -> None:
    try:
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CommandError(f"cannot reach the database ({first_line}); start PostgreSQL "
                           "(bin/bootstrap does) and check DATABASE_URL in .env") from exc
    if pending:
        raise CommandError(f"the database is not migrated ({len(pending)} migration(s) pending): "
                           "run python manage.py migrate")
