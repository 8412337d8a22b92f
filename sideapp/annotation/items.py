"""Making annotation items: at the end of a scan, by admins, and by command.

SIDE's study design: a claim enters the study when its top suggestion outscores the
wiki's current citation. An item is never made twice for the same (kind, claim, wiki
source, suggested source): the unique constraint decides, get_or_create reads it back.
"""
from __future__ import annotations

import logging
import random
import re
from typing import Iterable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from sideapp.annotation.models import Item, Kind, Preference
from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.sources.models import Source

AUTO_MODES = ("better", "all", "off")
logger = logging.getLogger(__name__)


def _wiki_link(claim: Claim) -> ClaimCitation | None:
    """The claim's current citation to compare against: the best-scored fetched one."""
    links = (claim.claim_citations.select_related("citation__source__document")
             .filter(citation__source__status=Source.Status.OK, evidence__isnull=False)
             .exclude(score=None).order_by("-score", "position"))
    return next((link for link in links if hasattr(link.citation.source, "document")), None)


def _top_suggestion(claim: Claim) -> Suggestion | None:
    return (claim.suggestions.select_related("source")
            .filter(source__status=Source.Status.OK, evidence__isnull=False).order_by("rank").first())


def _shown(evidence: dict, *, highlight: bool = True) -> dict:
    keep = {k: evidence.get(k) for k in ("passage", "start", "end")}
    keep["sentence_spans"] = (evidence.get("sentence_spans") or []) if highlight else []
    return keep


def item_create(*, claim: Claim, better_only: bool = True, created_by: str = "admin") -> Item | None:
    """The pair item of `claim` (its citation vs its top suggestion), or None when the
    claim has no judged fetched citation, no suggestion, or (better_only) the suggestion
    does not outscore the citation."""
    link, suggestion = _wiki_link(claim), _top_suggestion(claim)
    if link is None or suggestion is None:
        return None
    if better_only and not suggestion.score > link.score:
        return None
    item = _get_or_create(kind=Kind.PAIR, claim=claim, wiki_source=link.citation.source,
                          suggested_source=suggestion.source, defaults={
                              "wiki_evidence": _shown(link.evidence), "wiki_score": link.score,
                              "wiki_verdict": link.verdict, "suggested_evidence": _shown(suggestion.evidence),
                              "suggested_score": suggestion.score, "suggested_verdict": suggestion.verdict,
                              "created_by": created_by})
    if _wants_passage_control(claim.pk):
        passage_item_create(claim=claim, created_by=created_by)
    return item


def _get_or_create(*, defaults: dict, **triple) -> Item:
    try:
        with transaction.atomic():
            return Item.objects.get_or_create(**triple, defaults=defaults)[0]
    except IntegrityError:  # made by a concurrent caller between the read and the insert
        return Item.objects.get(**triple)


def _wants_passage_control(claim_pk: int) -> bool:
    """A fixed share of claims also gets a passage control; a hash keeps it stable."""
    return (claim_pk * 2654435761) % 1000 < settings.SIDE_ANNOTATION_PASSAGE_RATE * 1000


def random_passage(text: str, *, start: int, end: int, seed: int) -> dict | None:
    """A passage as long as text[start:end], elsewhere in the text, cut at word bounds."""
    length = end - start
    room = [(0, start - length), (end, len(text) - length)]
    room = [(lo, hi) for lo, hi in room if hi >= lo]
    if length <= 0 or not room:
        return None
    rng = random.Random(seed)
    lo, hi = rng.choice(room)
    at = rng.randint(lo, hi)
    words = re.search(r"\S", text[at:])  # begin at a word
    at = at + (words.start() if words else 0)
    stop = min(len(text), at + length)
    stop = next((m.start() for m in re.finditer(r"\s", text[stop:stop + 40])), 0) + stop
    return {"passage": text[at:stop].strip(), "start": at, "end": stop, "sentence_spans": []}


def passage_item_create(*, claim: Claim, created_by: str = "admin") -> Item | None:
    """SIDE's control: the verifier's passage of the cited source (as "suggested") vs a
    random passage of the same text (as "wiki"). No highlight on either side, since only
    the verifier's passage would have one."""
    link = _wiki_link(claim)
    if link is None:
        return None
    evidence, source = link.evidence, link.citation.source
    other = random_passage(source.document.text, start=evidence.get("start", 0),
                           end=evidence.get("end", 0), seed=claim.pk)
    if other is None or not other["passage"]:
        return None
    return _get_or_create(kind=Kind.PASSAGE, claim=claim, wiki_source=source, suggested_source=source,
                          defaults={"wiki_evidence": other, "suggested_evidence": _shown(evidence, highlight=False),
                                    "wiki_score": link.score, "wiki_verdict": link.verdict,
                                    "created_by": created_by})


def items_create(*, claims: Iterable[Claim] | QuerySet, better_only: bool = True,
                 created_by: str = "admin", limit: int | None = None) -> list[Item]:
    """Pair items for many claims (up to `limit` new or existing ones)."""
    made = []
    for claim in claims:
        item = item_create(claim=claim, better_only=better_only, created_by=created_by)
        if item is not None:
            made.append(item)
        if limit is not None and len(made) >= limit:
            break
    return made


def items_for_scan(*, claim_ids: Iterable[int]) -> list[Item]:
    """At the end of a scan: items for its claims, as SIDE_ANNOTATION_AUTO_ITEMS says.
    A failure here is logged, never raised: it must not keep the scan from ending."""
    mode = settings.SIDE_ANNOTATION_AUTO_ITEMS
    if mode == "off":
        return []
    claims = Claim.objects.filter(pk__in=list(claim_ids), suggestions__isnull=False).distinct().order_by("pk")
    try:
        with transaction.atomic():
            return items_create(claims=claims, better_only=mode != "all", created_by="scan")
    except Exception:  # noqa: BLE001 - the scan's own outcome matters more than its items
        logger.exception("could not make annotation items at the end of a scan")
        return []


def item_gold_set(*, item: Item, preference: str) -> Item:
    """Make `item` a gold item whose right answer is `preference` (in source terms)."""
    if preference not in (Preference.WIKI, Preference.SUGGESTED, Preference.EQUAL, Preference.NEITHER):
        raise ValueError(f"not a gold answer: {preference!r}")
    gold = Item.objects.filter(kind=Kind.GOLD, claim=item.claim, wiki_source=item.wiki_source,
                               suggested_source=item.suggested_source).exclude(pk=item.pk).first()
    if gold is not None:  # already gold elsewhere: change that one's answer
        item = gold
    item.kind, item.gold_preference = Kind.GOLD, preference
    item.save(update_fields=["kind", "gold_preference"])
    return item
