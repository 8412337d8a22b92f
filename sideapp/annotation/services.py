"""Handing out items and taking votes.

The rule that must hold under concurrency: an item never has more than N live claims
on it (votes that are not skips, plus unanswered assignments). `Item.taken` counts them
and is only raised by a conditional UPDATE (`taken < N`): PostgreSQL re-checks the
condition after waiting for a concurrent writer's row lock, so two annotators asking at
once cannot both take the last slot. One vote per annotator per item is a unique
constraint; the assignment row is locked while a vote is written.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from sideapp.annotation import guidelines
from sideapp.annotation.models import Assignment, Item, Kind, Preference, Vote, VoteRevision

REVISABLE = 10  # an annotator may revise this many of their latest votes
CANDIDATES = 20  # items of the lowest tier tried, in random order, before giving up


class VoteError(Exception):
    """A vote that cannot be taken; the message is for the annotator."""


@dataclass(frozen=True)
class ScreenAnswer:
    """An answer as the annotator gave it, in screen terms (A = left, B = right)."""

    preference: str  # a, b, equal, neither, or skip
    evidence_a: str = ""
    evidence_b: str = ""
    skip_reason: str = ""
    note: str = ""

    @property
    def is_skip(self) -> bool:
        return self.preference == "skip"

    def contradictory(self) -> bool:
        """A preferred while A has no evidence and B has enough (or the other way)."""
        return ((self.preference == "a" and self.evidence_a == "none" and self.evidence_b == "enough")
                or (self.preference == "b" and self.evidence_b == "none" and self.evidence_a == "enough"))

    def in_source_terms(self, *, wiki_left: bool) -> dict:
        wiki, suggested = ("a", "b") if wiki_left else ("b", "a")
        by_letter = {wiki: Preference.WIKI, suggested: Preference.SUGGESTED}
        evidence = {"a": self.evidence_a, "b": self.evidence_b}
        skip = self.is_skip
        return {"preference": Preference.SKIP if skip else by_letter.get(self.preference, self.preference),
                "evidence_wiki": "" if skip else evidence[wiki],
                "evidence_suggested": "" if skip else evidence[suggested],
                "skip_reason": self.skip_reason if skip else "", "note": self.note.strip()[:4000]}


def _cap() -> int:
    return settings.SIDE_ANNOTATION_VOTES_PER_ITEM


def assignments_expire(*, now: datetime | None = None) -> int:
    """Give back the slots of assignments left unanswered past their time.

    One statement (it runs before every hand-out): the row locks of the inner UPDATE
    make a concurrent caller skip assignments already expired here."""
    with connection.cursor() as cursor:
        cursor.execute(
            """WITH expired AS (
                   UPDATE annotation_assignment SET state = %s
                   WHERE state = %s AND expires_at < %s RETURNING item_id),
               counted AS (SELECT item_id, count(*) AS n FROM expired GROUP BY item_id)
               UPDATE annotation_item SET taken = taken - counted.n FROM counted
               WHERE annotation_item.id = counted.item_id RETURNING counted.n""",
            [Assignment.State.EXPIRED, Assignment.State.OPEN, now or timezone.now()])
        return sum(n for (n,) in cursor.fetchall())


def assignment_next(*, annotator, now: datetime | None = None, rng: random.Random | None = None) -> Assignment | None:
    """The annotator's open assignment, or a new one on the item with the fewest votes
    they have not seen; gold items are mixed in at SIDE_ANNOTATION_GOLD_RATE."""
    now, rng = now or timezone.now(), rng or random.Random()
    assignments_expire(now=now)
    current = (Assignment.objects.select_related("item").filter(
        annotator=annotator, state=Assignment.State.OPEN, expires_at__gte=now).order_by("created_at").first())
    if current is not None:
        return current
    gold_first = rng.random() < settings.SIDE_ANNOTATION_GOLD_RATE
    order = (True, False) if gold_first else (False, True)
    for gold in order:
        for item_id in _candidates(annotator=annotator, gold=gold, rng=rng):
            taken = _take(item_id=item_id, annotator=annotator, capped=not gold, now=now, rng=rng)
            if taken is not None:
                return taken
    return None


def _candidates(*, annotator, gold: bool, rng: random.Random) -> list[int]:
    unseen = Item.objects.exclude(assignments__annotator=annotator)
    if gold:
        rows = list(unseen.filter(kind=Kind.GOLD).order_by("taken", "pk").values_list("pk", "taken")[:CANDIDATES])
    else:
        rows = list(unseen.exclude(kind=Kind.GOLD).filter(taken__lt=_cap())
                    .order_by("taken", "pk").values_list("pk", "taken")[:CANDIDATES])
    # Within the lowest tier the order is random, so that concurrent annotators spread
    # over different rows instead of queueing on one row lock.
    rows.sort(key=lambda row: (row[1], rng.random()))
    return [pk for pk, _ in rows]


# The screen order is chosen in the insert itself: the side shown less often so far among
# the item's live assignments, or the coin (the last parameter) on a tie.
_INSERT_ASSIGNMENT = f"""
    INSERT INTO {Assignment._meta.db_table} (item_id, annotator_id, wiki_left, state, created_at, expires_at)
    SELECT %(item)s, %(annotator)s,
           CASE WHEN shown.left_n <> shown.right_n THEN shown.left_n < shown.right_n ELSE %(coin)s END,
           %(state)s, %(now)s, %(expires)s
    FROM (SELECT count(*) FILTER (WHERE wiki_left) AS left_n, count(*) FILTER (WHERE NOT wiki_left) AS right_n
          FROM {Assignment._meta.db_table} WHERE item_id = %(item)s AND state <> %(expired)s) AS shown
    ON CONFLICT (item_id, annotator_id) DO NOTHING RETURNING id, wiki_left"""


def _take(*, item_id: int, annotator, capped: bool, now: datetime, rng: random.Random) -> Assignment | None:
    # No savepoint (each costs two round trips): nothing here is expected to raise, and a
    # lost race is undone by hand.
    with transaction.atomic(savepoint=False):
        items = Item.objects.filter(pk=item_id)
        if capped:
            items = items.filter(taken__lt=_cap())
        if not items.update(taken=F("taken") + 1):
            return None
        # The UPDATE holds the item's row lock until commit, so the count of shown sides in
        # the insert is serialised per item: the screen order stays balanced.
        expires = now + timedelta(minutes=settings.SIDE_ANNOTATION_ASSIGNMENT_MINUTES)
        with connection.cursor() as cursor:
            cursor.execute(_INSERT_ASSIGNMENT, {
                "item": item_id, "annotator": annotator.pk, "coin": rng.random() < 0.5, "now": now,
                "state": Assignment.State.OPEN, "expires": expires, "expired": Assignment.State.EXPIRED})
            row = cursor.fetchone()
        if row is None:  # the same annotator, in another tab, took this item first
            Item.objects.filter(pk=item_id).update(taken=F("taken") - 1)
            return None
        return Assignment(pk=row[0], item_id=item_id, annotator=annotator, wiki_left=row[1],
                          state=Assignment.State.OPEN, created_at=now, expires_at=expires)


# The common case in one statement: the open assignment is closed (its row lock taken,
# its state re-checked after any wait) and what the vote needs comes back.
_ANSWER_OPEN = f"""
    UPDATE {Assignment._meta.db_table} SET state = %(answered)s
    WHERE item_id = %(item)s AND annotator_id = %(annotator)s AND state = %(open)s
    RETURNING id, wiki_left, created_at"""


def vote_cast(*, annotator, item_id: int, answer: ScreenAnswer, now: datetime | None = None) -> Vote:
    """Store the annotator's answer on the item they were assigned."""
    now = now or timezone.now()
    with transaction.atomic(savepoint=False):  # every error comes before the first write
        assignment, expired = _assignment_close(annotator=annotator, item_id=item_id, answer=answer)
        vote = Vote.objects.create(
            item_id=item_id, annotator=annotator, assignment=assignment, wiki_left=assignment.wiki_left,
            guidelines_version=guidelines.VERSION, seconds=round((now - assignment.created_at).total_seconds(), 1),
            **answer.in_source_terms(wiki_left=assignment.wiki_left))
        if answer.is_skip and not expired:  # a skip judges nothing: the slot goes to someone else
            Item.objects.filter(pk=item_id).update(taken=F("taken") - 1)
    return vote


def _assignment_close(*, annotator, item_id: int, answer: ScreenAnswer) -> tuple[Assignment, bool]:
    """Mark the annotator's assignment on the item answered; (it, whether it had expired).
    An open one (the common case) in one statement; otherwise it is locked and read: never
    given, already answered, or expired (a real answer then needs a slot of the item again)."""
    with connection.cursor() as cursor:
        cursor.execute(_ANSWER_OPEN, {"answered": Assignment.State.ANSWERED, "open": Assignment.State.OPEN,
                                      "item": item_id, "annotator": annotator.pk})
        row = cursor.fetchone()
    if row is not None:
        return Assignment(pk=row[0], item_id=item_id, annotator=annotator, wiki_left=row[1], created_at=row[2],
                          state=Assignment.State.ANSWERED), False
    assignment = (Assignment.objects.select_for_update(of=("self",)).select_related("item")
                  .filter(item_id=item_id, annotator=annotator).first())
    if assignment is None:
        raise VoteError("this item was not given to you")
    if assignment.state == Assignment.State.ANSWERED:
        raise VoteError("you have already answered this item")
    expired = assignment.state == Assignment.State.EXPIRED
    if expired and not answer.is_skip and not _slot_take(assignment.item):
        raise VoteError("this item expired and has since been answered by enough people")
    assignment.state = Assignment.State.ANSWERED
    assignment.save(update_fields=["state"])
    return assignment, expired


def _slot_take(item: Item) -> bool:
    items = Item.objects.filter(pk=item.pk)
    if item.kind != Kind.GOLD:
        items = items.filter(taken__lt=_cap())
    return bool(items.update(taken=F("taken") + 1))


def revisable_votes(*, annotator):
    return Vote.objects.filter(annotator=annotator).order_by("-created_at", "-pk")[:REVISABLE]


def vote_revise(*, annotator, vote_id: int, answer: ScreenAnswer) -> Vote:
    """Replace the answer of one of the annotator's last 10 votes; the old one is kept."""
    with transaction.atomic():
        if vote_id not in {v.pk for v in revisable_votes(annotator=annotator)}:
            raise VoteError("only your last 10 votes can be revised")
        vote = Vote.objects.select_for_update(of=("self",)).select_related("item").get(pk=vote_id, annotator=annotator)
        was_skip = vote.is_skip
        if was_skip and not answer.is_skip and not _slot_take(vote.item):
            raise VoteError("this item has since been answered by enough people")
        if answer.is_skip and not was_skip:
            Item.objects.filter(pk=vote.item_id).update(taken=F("taken") - 1)
        VoteRevision.objects.create(
            vote=vote, preference=vote.preference, evidence_wiki=vote.evidence_wiki,
            evidence_suggested=vote.evidence_suggested, skip_reason=vote.skip_reason, note=vote.note,
            guidelines_version=vote.guidelines_version, answered_at=vote.updated_at)
        for name, value in answer.in_source_terms(wiki_left=vote.wiki_left).items():
            setattr(vote, name, value)
        vote.guidelines_version = guidelines.VERSION
        vote.save()
    return vote
