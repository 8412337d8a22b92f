"""Saving an edit on the wiki without losing anyone's work, once per confirm.

Saves from Side editor's pages go out as one shared bot account, and MediaWiki does not
report an edit conflict between edits of the same account: two editors saving from the
same base revision would silently undo each other. So Side editor keeps its own rules:

- one save of a page at a time, across every web process (a Redis lock per article);
- the change is rebuilt on the wiki's current revision, and refused when any revision
  since the one the editor saw (by anyone, the bot account included) touched its section;
- a save is keyed by its signed token (sideapp.edits.tokens: the user, the claim, what was
  asked and the revision the editor saw): a repeat of a saved token answers with the
  revision already saved (a double click is one edit);
- the audit log holds a `pending` row before the wiki is asked and its outcome after
  (saved with the revision, refused with the reason, failed); the edit summary carries
  the save's marker, so a save whose row could not be completed, or whose answer never
  came (a timeout, a connection lost after sending), stays pending and is settled from
  the wiki's history: right away where the wiki already shows it, else by recovery
  (`pending_saves_settle`); settled as saved, the claim's re-check is queued.
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from redis import Redis, RedisError
from redis.exceptions import LockError

from sideapp.edits.audit import audit_record
from sideapp.edits.lock_timing import LockTiming, lock_timing
from sideapp.edits.models import AuditEntry
from sideapp.scans.models import Article
from sideapp.scans.wikiapi import EditConflict, EditOutcomeUnknown, SavedEdit, WikiError
from sideapp.scans.wikis import client_for
from verifier_core.wikitext.sections import section_heading, section_text

log = logging.getLogger(__name__)
PENDING_GRACE = timedelta(minutes=2)  # a pending save older than this died on its way
HISTORY = 50  # revisions read back to find who touched a section
UNCONFIRMED = ("The change was sent to the wiki, but its answer did not come back, so whether the wiki saved it is "
               "being confirmed from the page's history. Do not save it again: the audit log says “being saved” "
               "until then, and once the wiki shows the edit the claim is checked again.")


class SavingUnavailable(Exception):
    """A part Side editor needs to save safely (the lock store, the database) does not
    answer; nothing was saved. The message says so in words (the page answers 503)."""


class PageLock:
    """A save's hold of its page's lock: `check()` before the edit is sent refuses it when
    the lock expired, or will before one wiki call could end (the edit would outlive it)."""

    def __init__(self, lock, timing: LockTiming):
        self._lock, self.timing, self._since = lock, timing, time.monotonic()

    def check(self) -> None:
        left = self.timing.lifetime - (time.monotonic() - self._since)
        try:
            owned = self._lock.owned()
        except RedisError as exc:
            raise SavingUnavailable(_LOCK_DOWN) from exc
        if not owned or left < self.timing.wiki_timeout:
            raise EditConflict(f"this save took longer than a page may stay locked ({self.timing.lifetime:g} s), "
                               "so another save could have started; nothing was saved. Try again.")


_LOCK_DOWN = ("Side editor cannot reach its lock store (Redis) just now, and saving without it could undo "
              "another editor's save; nothing was saved. Try again in a few minutes.")


def _lock_store() -> Redis:
    url = settings.SIDE_LOCK_REDIS_URL or settings.REDIS_URL
    return Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


@contextmanager
def page_lock(article: Article):
    """Only one save of `article` at a time, whichever web process runs it; its wait and
    lifetime fit inside the web worker's timeout (lock_timing). SavingUnavailable when the
    lock store does not answer; released on every way out."""
    timing = lock_timing(settings.SIDE_WEB_TIMEOUT, settings.SIDE_WIKI_TIMEOUT, strict=False)
    lock = _lock_store().lock(f"side:edit-lock:{article.pk}", timeout=timing.lifetime, blocking_timeout=timing.wait)
    try:
        acquired = lock.acquire()
    except RedisError as exc:
        log.warning("edit lock of article %s not taken: %s", article.pk, exc)
        raise SavingUnavailable(_LOCK_DOWN) from exc
    if not acquired:
        raise EditConflict("another save of this page is still running; nothing was saved. Try again in a moment.")
    try:
        yield PageLock(lock, timing)
    finally:
        try:
            lock.release()
        except LockError:  # expired meanwhile: nothing to release
            log.warning("edit lock of article %s expired before its save ended", article.pk)
        except RedisError as exc:  # it expires by itself within its lifetime
            log.warning("edit lock of article %s not released (%s); it expires in %g s", article.pk, exc,
                        timing.lifetime)


def marker(token: str) -> str:
    """What the edit summary carries of the save's key (random per preview: unique per save),
    to find the save in the wiki's history."""
    return f"side-editor {token.rsplit('.', 1)[-1][:12]}"


def saved_before(token: str) -> SavedEdit | None:
    """The save already made for `token` (a repeated confirm); a save left pending (by a
    process that died, or one whose answer never came) is settled from the wiki's history
    first, and EditOutcomeUnknown when the wiki does not show it yet."""
    entry = AuditEntry.objects.select_related("article__wiki").filter(
        token=token, status__in=[AuditEntry.Status.SAVED, AuditEntry.Status.PENDING]).first()
    if entry is not None and entry.status == AuditEntry.Status.PENDING:
        entry = _settled(entry, final=entry.created_at < timezone.now() - PENDING_GRACE)
        if entry.status == AuditEntry.Status.PENDING:
            raise EditOutcomeUnknown(UNCONFIRMED)
    if entry is None or entry.status != AuditEntry.Status.SAVED:
        return None
    return _saved_edit(entry)


def _saved_edit(entry: AuditEntry) -> SavedEdit:
    client = client_for(entry.article.wiki, interactive=True)
    return SavedEdit(title=entry.article.title, old_rev_id=entry.base_revision or 0, rev_id=entry.revision_id,
                     diff_url=client.diff_url(entry.revision_id))


def revision_text(article: Article, rev_id: int):
    """Revision `rev_id` of the article as a base to build on (the one the editor saw)."""
    from sideapp.edits.locating import BaseText

    page = client_for(article.wiki, interactive=True).page_at(rev_id)
    return BaseText(page.title, page.rev_id, page.timestamp, page.wikitext, True)


def check_untouched(article: Article, seen, *, until: int) -> None:
    """EditConflict, naming who and when, if a revision after the one the editor saw
    (`seen`, the proposal built on it) up to `until` touched the proposal's section."""
    since = seen.base.rev_id
    client = client_for(article.wiki, interactive=True)
    revisions = [r for r in client.revisions_after(seen.title, since, limit=HISTORY, page_id=article.page_id)
                 if r["revid"] <= until]
    if len(revisions) >= HISTORY and revisions[-1]["revid"] < until:
        raise EditConflict(f"edit conflict: the page was edited more than {HISTORY} times since revision {since}, "
                           "which you saw; nothing was saved. Check this revision and try again.")
    touching = _touching(seen, [{"text": seen.change.old}], revisions)
    if touching is not None:
        number = seen.section.number
        where = (f"the section “{seen.section_name}”" if seen.section_name
                 else "the lead section" if number == 0 else "the page")
        raise EditConflict(
            f"edit conflict: since revision {since}, which you saw, {touching['user']} edited {where} "
            f"(revision {touching['revid']}, {touching['timestamp']}); nothing was saved. "
            "Check this revision and try again.")


def _touching(proposal, before: list[dict], revisions: list[dict]) -> dict | None:
    """The first revision that changed the proposal's section (any, for a change that
    reaches beyond its section; a revision whose text is hidden counts as touching it)."""
    number = proposal.section.number
    if number is None:
        return revisions[0] if revisions else None
    heading = section_heading(proposal.change.old, number) or ""
    texts = [r.get("text") for r in before + revisions]
    previous = section_text(texts[0], heading, number) if texts and texts[0] is not None else None
    for revision in revisions:
        text = revision.get("text")
        now = section_text(text, heading, number) if text is not None else None
        if now is None or previous is None or now != previous:
            return revision
        previous = now
    return None


class Attempt:
    """One confirmed save, in the audit log from before the wiki is asked to its outcome."""

    def __init__(self, *, user, claim, action: str, token: str) -> None:
        self.user, self.claim, self.action, self.token = user, claim, action, token

    def closed(self, status: str, reason: str) -> None:
        """A confirm that never reached the wiki: refused (or failed) with the reason."""
        audit_record(user=self.user, action=self.action, claim=self.claim, detail="not saved",
                     status=status, token=self.token, outcome=reason[:2000])

    def save(self, proposal, *, summary: str, after: Callable[[], object], held: PageLock) -> SavedEdit:
        """The change saved: the pending row, the lock checked, the edit sent, its outcome;
        `after` (the re-check's queueing) runs once the saved row is committed."""
        try:
            held.check()
        except EditConflict as exc:
            self.closed(AuditEntry.Status.REFUSED, str(exc))
            raise
        try:
            entry = audit_record(user=self.user, action=self.action, claim=self.claim,
                                 detail=f"{proposal.summary}: {proposal.change.snippet}",
                                 status=AuditEntry.Status.PENDING, token=self.token,
                                 base_revision=proposal.base.rev_id)
        except IntegrityError as exc:  # another process holds this token (its lock expired)
            raise EditConflict("this change is being saved already; nothing more was saved.") from exc
        client = client_for(self.claim.article.wiki, interactive=True)
        try:
            saved = client.edit(proposal.title, proposal.change.new, f"{summary} ({marker(self.token)})",
                                baserevid=proposal.base.rev_id, starttimestamp=timezone.now(),
                                page_id=proposal.base.page_id)
        except EditOutcomeUnknown as exc:
            return self._unknown(entry, exc)
        except EditConflict as exc:
            _close(entry, AuditEntry.Status.REFUSED, str(exc))
            raise
        except Exception as exc:
            _close(entry, AuditEntry.Status.FAILED, str(exc) or type(exc).__name__)
            raise
        AuditEntry.objects.filter(pk=entry.pk).update(status=AuditEntry.Status.SAVED, revision_id=saved.rev_id)
        try:
            with transaction.atomic():
                after()
        except (RedisError, DatabaseError) as exc:  # the save stands; recovery queues a scan row left unqueued
            log.warning("save %s made revision %s, but its re-check was not queued: %s", entry.pk, saved.rev_id, exc)
        return saved

    def _unknown(self, entry: AuditEntry, exc: EditOutcomeUnknown) -> SavedEdit:
        """A save sent whose answer never came: left pending, with what happened, and settled
        from the wiki's history right away where the wiki shows it already (its re-check
        queued); EditOutcomeUnknown, in words, where it does not yet (recovery settles it)."""
        log.warning("save %s of article %s: outcome unknown: %s", entry.pk, entry.article_id, exc)
        AuditEntry.objects.filter(pk=entry.pk).update(outcome=f"outcome being confirmed: {exc}"[:2000])
        entry.refresh_from_db()
        entry = _settled(entry, final=False)
        if entry.status == AuditEntry.Status.SAVED:
            return _saved_edit(entry)
        raise EditOutcomeUnknown(UNCONFIRMED) from exc


def _close(entry: AuditEntry, status: str, outcome: str) -> None:
    AuditEntry.objects.filter(pk=entry.pk).update(status=status, outcome=outcome[:2000])


def _settled(entry: AuditEntry, *, final: bool) -> AuditEntry:
    """A pending save's outcome read from the wiki: the bot's revision carrying its marker
    after the base revision (saved, and the article queued for the same re-check a save
    queues); when the wiki shows none, failed only when `final` (the save is old enough that
    it can no longer land), else still pending."""
    from sideapp.scans.models import ScanJob
    from sideapp.scans.services import scan_request

    try:
        found = client_for(entry.article.wiki, interactive=True).revisions_after(
            entry.article.title, entry.base_revision or 0, content=False, limit=50, page_id=entry.article.page_id)
    except WikiError as exc:
        log.warning("pending save %s not settled: %s", entry.pk, exc)
        return entry
    mine = next((r for r in found if marker(entry.token) in r["comment"]), None)
    with transaction.atomic():
        if mine is not None:
            AuditEntry.objects.filter(pk=entry.pk).update(status=AuditEntry.Status.SAVED, revision_id=mine["revid"],
                                                          outcome="")
            scan_request(wiki=entry.article.wiki, kind=ScanJob.Kind.TITLES, titles=[entry.article.title],
                         user=entry.user)
        elif final:
            _close(entry, AuditEntry.Status.FAILED, "the save did not complete; the wiki holds no such edit")
    entry.refresh_from_db()
    return entry


def pending_saves_settle(*, older_than: timedelta = PENDING_GRACE) -> int:
    """Settle saves left pending (by a process that died, or whose answer never came) that
    are older than `older_than`: run by the workers' recovery."""
    stale = AuditEntry.objects.select_related("article__wiki", "user").filter(
        status=AuditEntry.Status.PENDING, created_at__lt=timezone.now() - older_than)
    settled = 0
    for entry in stale:
        try:
            with page_lock(entry.article):
                entry.refresh_from_db()
                final = entry.created_at < timezone.now() - PENDING_GRACE
                if entry.status == AuditEntry.Status.PENDING and \
                        _settled(entry, final=final).status != AuditEntry.Status.PENDING:
                    settled += 1
        except (EditConflict, SavingUnavailable) as exc:  # its page is being saved, or Redis is away: next round
            log.warning("pending save %s not settled this time: %s", entry.pk, exc)
    return settled
