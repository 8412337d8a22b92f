"""Reads for the annotation pages and the exports.

What an annotator sees is built here, the same way for both sides, from the screen
letter: nothing on the page says which side is the wiki's.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Iterator
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from sideapp.annotation.models import Assignment, Evidence, Item, Kind, SkipReason, Vote, VoteRevision
from sideapp.claims.selectors import evidence_parts
from sideapp.sources.models import SourceDocument

EXPORT_FIELDS = [
    "item", "kind", "claim_id", "wiki_source_id", "wiki_url", "suggested_source_id", "suggested_url",
    "shown_left", "preference", "evidence_wiki", "evidence_suggested", "skip_reason", "note",
    "annotator", "created_at", "updated_at", "seconds", "guidelines_version", "revisions",
]


def where(url: str) -> str:
    """Domain and path only: no query string or fragment that might tell sources apart."""
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    return host + (parts.path if parts.path not in ("", "/") else "")


def _side(item: Item, role: str, letter: str) -> dict:
    source = getattr(item, f"{role}_source")
    evidence = getattr(item, f"{role}_evidence") or {}
    document = getattr(source, "document", None)  # None when the page was never fetched
    title = (document.title if document else "") or source.title or where(source.url)
    return {"letter": letter, "title": title, "where": where(source.final_url or source.url),
            "parts": evidence_parts(evidence)}


# What the annotator's page shows (the claim and source rows are wide: leave the rest).
SCREEN_FIELDS = ("kind", "wiki_evidence", "suggested_evidence", "claim__text", "claim__context", "claim__section",
                 "claim__article__title", *(f"{side}_source__{f}" for side in ("wiki", "suggested")
                                            for f in ("url", "final_url", "title", "document__title")))


def item_screen(assignment: Assignment) -> dict:
    """The item as shown to its annotator: claim, and sides A (left) and B (right)."""
    item = (Item.objects.select_related("claim__article", "wiki_source__document", "suggested_source__document")
            .only(*SCREEN_FIELDS).get(pk=assignment.item_id))
    claim = item.claim
    return {"item": item, "claim": claim, "article": claim.article.title, "section": claim.section_path,
            "sides": [_side(item, assignment.side_of(letter), letter) for letter in ("A", "B")]}


def full_text(assignment: Assignment, letter: str) -> str:
    role = assignment.side_of(letter)
    source_id = getattr(assignment.item, f"{role}_source_id")
    return SourceDocument.objects.filter(source_id=source_id).values_list("text", flat=True).first() or ""


def screen_answer(vote: Vote) -> dict:
    """A stored vote back in the screen terms of its annotator (for revising it)."""
    wiki, suggested = ("a", "b") if vote.wiki_left else ("b", "a")
    letter = {"wiki": wiki, "suggested": suggested}
    return {"preference": letter.get(vote.preference, vote.preference),
            f"evidence_{wiki}": vote.evidence_wiki, f"evidence_{suggested}": vote.evidence_suggested,
            "skip_reason": vote.skip_reason, "note": vote.note}


def pseudonym(user_id: int) -> str:
    """A stable annotator id for exports that does not reveal the account."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"annotator:{user_id}".encode(), hashlib.sha256)
    return "ann-" + digest.hexdigest()[:10]


def export_rows() -> Iterator[dict]:
    """Every vote, one dict each, in the export contract's terms."""
    votes = (Vote.objects.select_related("item__wiki_source", "item__suggested_source")
             .order_by("pk").iterator(chunk_size=2000))
    revised = _revision_counts()
    names: dict[int, str] = {}
    for vote in votes:
        item = vote.item
        name = names.setdefault(vote.annotator_id, pseudonym(vote.annotator_id))
        yield {
            "item": item.pk, "kind": item.kind, "claim_id": item.claim_id,
            "wiki_source_id": item.wiki_source_id, "wiki_url": item.wiki_source.url,
            "suggested_source_id": item.suggested_source_id, "suggested_url": item.suggested_source.url,
            "shown_left": "wiki" if vote.wiki_left else "suggested", "preference": vote.preference,
            "evidence_wiki": vote.evidence_wiki, "evidence_suggested": vote.evidence_suggested,
            "skip_reason": vote.skip_reason, "note": vote.note, "annotator": name,
            "created_at": vote.created_at.isoformat(), "updated_at": vote.updated_at.isoformat(),
            "seconds": vote.seconds, "guidelines_version": vote.guidelines_version,
            "revisions": revised.get(vote.pk, 0),
        }


def _revision_counts() -> dict[int, int]:
    return dict(VoteRevision.objects.values("vote_id").annotate(n=Count("pk")).values_list("vote_id", "n"))


_SCREEN_WORDS = {"equal": "both supported it equally", "neither": "neither supported it"}


def recent_votes(*, annotator, limit: int = 10) -> list[dict]:
    """The annotator's own latest votes in words, in their screen terms (A, B) with the
    sources named as the item showed them: never which side was the wiki's."""
    sides = ("wiki_source", "suggested_source")
    votes = (Vote.objects.filter(annotator=annotator)
             .select_related("item__claim", *(f"item__{side}__document" for side in sides))
             .defer(*(f"item__{side}__document__text" for side in sides))
             .order_by("-created_at", "-pk")[:limit])
    return [{"vote": v, "claim": v.item.claim.text, **_answer_words(v)} for v in votes]


def _answer_words(vote: Vote) -> dict:
    answer = screen_answer(vote)
    if vote.is_skip:
        return {"answer": f"skipped: {SkipReason(vote.skip_reason).label}" if vote.skip_reason else "skipped",
                "evidence": ""}
    names = {letter: _side(vote.item, "wiki" if (letter == "A") == vote.wiki_left else "suggested", letter)["title"]
             for letter in "AB"}
    preferred = answer["preference"].upper()
    words = (f"preferred {preferred}, “{names[preferred]}”" if preferred in names
             else _SCREEN_WORDS.get(answer["preference"], answer["preference"]))
    evidence = "; ".join(f"{letter} had {Evidence(answer[f'evidence_{letter.lower()}']).label}"
                         for letter in "AB" if answer.get(f"evidence_{letter.lower()}"))
    return {"answer": words, "evidence": evidence}


def items_waiting(*, annotator, cap: int) -> int:
    """How many items the annotator could be given now (their open one, and unseen items
    that still want votes), counted up to `cap`: the home page's "where to start"."""
    open_now = Assignment.objects.filter(annotator=annotator, state=Assignment.State.OPEN,
                                         expires_at__gte=timezone.now()).exists()
    unseen = (Item.objects.exclude(assignments__annotator=annotator).exclude(kind=Kind.GOLD)
              .filter(taken__lt=settings.SIDE_ANNOTATION_VOTES_PER_ITEM))
    return min(cap, int(open_now) + unseen.values("pk").order_by()[:cap].count())
