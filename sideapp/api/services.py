"""Writes of the public API: a check of a wiki page asked from the article page."""
from __future__ import annotations

import zlib

from django.db import connection, transaction

from sideapp.api.selectors import pending_scan
from sideapp.scans.models import ScanJob, Wiki
from sideapp.scans.services import scan_request

_LOCKS = 0x5ADE  # advisory-lock key space of page scans (the other key: wiki and title)


def page_scan_ask(*, wiki: Wiki, title: str, page_id: int | None = None) -> tuple[ScanJob, bool]:
    """A scan of the page's current revision: the page's pending scan when there is one (a
    second request joins it), else a new one, which reads the page by `page_id` when given
    (under whatever title it has by then). (job, created). One lock per page makes two
    requests at once end in one scan."""
    page = f"id {page_id}" if page_id else title
    key = zlib.crc32(f"{wiki.pk}\x1f{page}".encode()) - 2**31  # into PostgreSQL's int4
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCKS, key])
        job = pending_scan(wiki=wiki, title=title, page_id=page_id)
        if job is not None:
            return job, False
        return scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=[title], page_id=page_id), True
