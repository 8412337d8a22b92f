"""The watcher: a patrolled wiki's recent changes read from the cursor kept in PostgreSQL.

One read per wiki at a time: the cursor's row is locked (SKIP LOCKED: a second watcher
leaves the wiki to the first) for the whole read, and the changes read are recorded in
the same transaction that moves the cursor. So a watcher killed mid-read leaves the
cursor where it was and the next read takes the same changes again; rcid is unique per
wiki, so no change is taken twice; each read starts SIDE_PATROL_OVERLAP seconds before
the newest change taken, so a change committed late is not lost either.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as tz

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.patrol.models import PatrolCursor, PatrolEdit
from sideapp.patrol.services import rows_deleted, rows_restored
from sideapp.scans.models import ScanJob, Wiki
from sideapp.scans.pages import article_deleted, article_moved, article_restored
from sideapp.scans.services import scan_request
from sideapp.scans.wikiapi import WikiClient, WikiError
from sideapp.scans.wikis import client_for

log = logging.getLogger(__name__)
RCPROP = "ids|title|user|comment|timestamp|sizes|tags|flags|loginfo"
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class Change:
    rcid: int
    kind: str  # edit, new, log
    title: str
    page_id: int
    revid: int
    parent_revid: int
    user: str
    bot: bool
    comment: str
    tags: list
    timestamp: datetime
    log: tuple[str, str, str] = ("", "", "")  # (type, action, move target)


def _stamp(value: datetime) -> str:
    return value.astimezone(tz.utc).strftime(_STAMP)


def change_from(rc: dict) -> Change:
    return Change(
        rcid=int(rc["rcid"]), kind=rc.get("type", ""), title=rc.get("title", ""), page_id=int(rc.get("pageid") or 0),
        revid=int(rc.get("revid") or 0), parent_revid=int(rc.get("old_revid") or 0), user=rc.get("user", ""),
        bot=bool(rc.get("bot")), comment=rc.get("comment", ""), tags=list(rc.get("tags") or []),
        timestamp=datetime.strptime(rc["timestamp"], _STAMP).replace(tzinfo=tz.utc),
        log=(rc.get("logtype", ""), rc.get("logaction", ""), str((rc.get("logparams") or {}).get("target_title", ""))))


def changes_read(client: WikiClient, *, start: datetime, resume: str = "", limit: int) -> tuple[list[Change], str]:
    """Changes from `start` on (or from where a read cut short stopped), oldest first,
    following continuation up to `limit`; returns them and where to resume ("" when done)."""
    params = {"list": "recentchanges", "rcdir": "newer", "rcstart": _stamp(start), "rctype": "edit|new|log",
              "rcnamespace": settings.SIDE_PATROL_NAMESPACES, "rcprop": RCPROP,
              # No more than a read takes per request, so that a short batch continues too.
              "rclimit": str(limit) if limit < 500 else "max", "formatversion": 2}
    if resume:
        params["rccontinue"] = resume
    changes: list[Change] = []
    while True:
        result = client.query(**params)
        changes += [change_from(rc) for rc in result.get("query", {}).get("recentchanges", [])]
        if "continue" not in result:
            return changes, ""
        if len(changes) >= limit:
            return changes, result["continue"]["rccontinue"]
        params.update(result["continue"])


def missed_since(client: WikiClient, position: datetime, now: datetime) -> str:
    """The changes a cursor at `position` can no longer read, in words ("" when none):
    the wiki keeps recent changes for SIDE_PATROL_RC_MAX_AGE_DAYS, and its oldest now is
    younger than the cursor."""
    days = settings.SIDE_PATROL_RC_MAX_AGE_DAYS
    if position >= now - timedelta(days=days):
        return ""
    result = client.query(list="recentchanges", rcdir="newer", rclimit=1, rcprop="timestamp", formatversion=2)
    oldest = [change_from({"rcid": 0, **rc}).timestamp for rc in result.get("query", {}).get("recentchanges", [])]
    until = oldest[0] if oldest else now - timedelta(days=days)
    if until <= position:
        return ""
    return (f"changes between {_stamp(position)} and {_stamp(until)} were missed: the wiki keeps recent "
            f"changes for about {days:g} days, and patrolling had not read them by then")


def patrol_poll(*, wiki_id: int, client: WikiClient | None = None) -> str:
    """Read the wiki's new changes once and record them; what happened, in words."""
    with transaction.atomic():
        cursor = (PatrolCursor.objects.select_for_update(skip_locked=True, of=("self",)).select_related("wiki")
                  .filter(wiki_id=wiki_id, wiki__patrol=True).first())
        if cursor is None:
            return "not patrolled, or another watcher is reading it"
        now = timezone.now()
        if cursor.next_poll_at and cursor.next_poll_at > now:
            return f"waiting until {cursor.next_poll_at:%H:%M:%S} after a failed read"
        try:
            client = client or client_for(cursor.wiki, follow=True)  # the configured wiki may have moved
            missed = missed_since(client, cursor.last_timestamp or cursor.started_at, now)
            changes, resume = changes_read(client, start=cursor.read_from, resume=cursor.resume,
                                           limit=settings.SIDE_PATROL_BATCH)
        except WikiError as exc:
            _failed(cursor, exc, now)
            return f"the wiki did not answer: {exc}"
        taken = changes_take(wiki=cursor.wiki, changes=changes)
        _advance(cursor, changes, resume, missed, now)
    return f"{taken} new change{'s' if taken != 1 else ''} taken"


def changes_take(*, wiki: Wiki, changes: list[Change]) -> int:
    """Record each change not taken before; an edit becomes a patrol scan of its revision."""
    known = set(PatrolEdit.objects.filter(wiki=wiki, rcid__in=[c.rcid for c in changes])
                .values_list("rcid", flat=True))
    taken = 0
    for change in sorted(changes, key=lambda c: (c.timestamp, c.rcid)):
        if change.rcid not in known:
            known.add(change.rcid)
            _take(wiki, change)
            taken += 1
    return taken


def _take(wiki: Wiki, change: Change) -> None:
    edit = PatrolEdit.objects.create(
        wiki=wiki, rcid=change.rcid, kind=change.kind, revid=change.revid, parent_revid=change.parent_revid,
        title=change.title, page_id=change.page_id, user=change.user, bot=change.bot,
        comment=change.comment[:5000], tags=change.tags, timestamp=change.timestamp)
    if change.kind == "log":
        edit.end(*_log_applied(wiki, change))
    elif change.bot and not settings.SIDE_PATROL_BOTS:
        # Read, not checked: the citations it took out are closed in its name. Left unread, a
        # bot that rewrote a citation would have it "removed by" the next person to edit.
        _scan(wiki, change, edit, close_only=True)
    else:
        _scan(wiki, change, edit)


def _scan(wiki: Wiki, change: Change, edit: PatrolEdit, close_only: bool = False) -> None:
    job = scan_request(wiki=wiki, kind=ScanJob.Kind.PATROL, titles=[change.title], rev_id=change.revid)
    if close_only:
        job.params["close_only"] = True
        job.save(update_fields=["params"])
    PatrolEdit.objects.filter(pk=edit.pk).update(scan_job=job)


def _log_applied(wiki: Wiki, change: Change) -> tuple[str, str]:
    """A log entry applied to the page's row as it comes: a move renames it (by page id), a
    deletion marks it and its rows deleted, a restoration opens them again."""
    log_type, action, target = change.log
    who = change.user or "someone"
    if log_type == "move":
        said = f"{who} moved the page to {target or 'another title'}"
        article_moved(wiki=wiki, page_id=change.page_id, old_title=change.title, new_title=target, reason=said,
                      when=change.timestamp)
        return PatrolEdit.Status.MOVED, said
    if log_type == "delete" and action in ("delete", "delete_redir"):
        said = f"{who} deleted the page"
        article = article_deleted(wiki=wiki, page_id=change.page_id, title=change.title, when=change.timestamp)
        if article is not None:
            rows_deleted(article=article, reason=said)
        return PatrolEdit.Status.DELETED, said
    if log_type == "delete" and action == "restore":
        article = article_restored(wiki=wiki, page_id=change.page_id, title=change.title)
        if article is not None:
            rows_restored(article=article)
        return PatrolEdit.Status.RESTORED, f"{who} restored the page"
    return PatrolEdit.Status.SKIPPED, f"a {log_type or 'log'} entry, not an edit"


def _advance(cursor: PatrolCursor, changes: list[Change], resume: str, missed: str, now: datetime) -> None:
    newest = max((c.timestamp for c in changes), default=None)
    if newest is not None and (cursor.last_timestamp is None or newest > cursor.last_timestamp):
        cursor.last_timestamp = newest
    if missed:
        log.warning("patrol of %s: %s", cursor.wiki, missed)
        cursor.missed = "\n".join([missed, *cursor.missed.splitlines()][:5])
    cursor.resume, cursor.polled_at, cursor.next_poll_at = resume, now, None
    cursor.failures, cursor.state, cursor.reason = 0, PatrolCursor.State.OK, ""
    cursor.save()


def _failed(cursor: PatrolCursor, exc: WikiError, now: datetime) -> None:
    cursor.failures += 1
    cursor.state, cursor.reason, cursor.polled_at = PatrolCursor.State.UNREACHABLE, str(exc)[:2000], now
    cursor.next_poll_at = now + cursor.backoff()
    cursor.save()
    log.warning("patrol of %s failed (%d in a row): %s", cursor.wiki, cursor.failures, exc)
