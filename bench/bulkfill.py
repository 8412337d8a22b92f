"""Rows written by one INSERT ... SELECT in PostgreSQL, for benchmarks that need a million.

Saving a million claims through the ORM (objects built in Python, sent in batches) takes
most of an hour on two cores; generating them in the database from `generate_series` takes
minutes. `insert_select` names every column of a model: those given as SQL expressions
over the SELECT's rows, and every other one its field's default, so the rows are what the
ORM would have written (and a column added later gets its default without editing here).
"""
from __future__ import annotations

import contextlib
import json
from typing import Iterator

from django.db import connection, models


def _default(field: models.Field) -> tuple[str, list]:
    """A column's value when the benchmark does not set it: the field's default as the ORM
    would save it (`now()` for auto_now_add, NULL for nullable fields, '' for blank text)."""
    if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
        return "now()", []
    if isinstance(field, models.JSONField) and field.has_default():
        return "%s::jsonb", [json.dumps(field.get_default())]
    if field.has_default():
        return "%s", [field.get_db_prep_save(field.get_default(), connection)]
    if field.null:
        return "NULL", []
    if field.blank:
        return "%s", [field.get_db_prep_save(field.to_python(""), connection)]
    raise ValueError(f"{field.model.__name__}.{field.name} has no default: give it an expression")


def insert_select(model: type[models.Model], values: dict[str, str], rows_sql: str, params: list | tuple = ()) -> int:
    """INSERT INTO model's table every row of `rows_sql` (a FROM ... clause: tables,
    generate_series, joins, WHERE), with `values` the SQL expression of each column given
    (by attname, e.g. "article_id"); returns the rows written."""
    unknown = set(values) - {f.attname for f in model._meta.concrete_fields}
    if unknown:
        raise ValueError(f"{model.__name__} has no columns {sorted(unknown)}")
    columns, expressions, defaults = [], [], []
    for field in model._meta.concrete_fields:
        if field.primary_key or isinstance(field, models.GeneratedField):
            continue
        columns.append(connection.ops.quote_name(field.column))
        if field.attname in values:
            expressions.append(values[field.attname])
        else:
            sql, extra = _default(field)
            expressions.append(sql)
            defaults += extra
    statement = (f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({', '.join(columns)}) "
                 f"SELECT {', '.join(expressions)} {rows_sql}")
    with connection.cursor() as cursor:
        # The defaults come first in the statement, then the caller's parameters in rows_sql.
        cursor.execute(statement, [*defaults, *params])
        return cursor.rowcount


@contextlib.contextmanager
def indexes_set_aside(table: str) -> Iterator[None]:
    """Drop `table`'s indexes (not those of its constraints) while rows are written, and build
    them again after: one sort per index instead of a million inserts into each (GIN above all)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname NOT IN "
                       "(SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass)", [table, table])
        kept = cursor.fetchall()
        for name, _ in kept:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        # Nor are foreign keys checked row by row (a trigger per row and key, as pg_restore
        # --disable-triggers does): the benchmark's rows point at rows it wrote first.
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = DEFAULT")
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '256MB'")
        for _, definition in kept:
            cursor.execute(definition)
