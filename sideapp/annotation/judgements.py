"""Majority judgements for verifier training and evaluation, in `verify_jsonl`'s input
shape plus the people's verdict: one line per (item, side) with a majority evidence label."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from sideapp.annotation.models import Evidence, Item, Kind, Preference, Vote
from sideapp.annotation.statistics import majority
from sideapp.claims.judgements import labelled_row
from sideapp.sources.models import SourceDocument
from verifier_core.verification import Verdict

# People's evidence labels as verdicts.
GOLD_VERDICT = {Evidence.ENOUGH: Verdict.SUPPORTED, Evidence.PARTIAL: Verdict.PARTIALLY_SUPPORTED,
                Evidence.NONE: Verdict.NOT_SUPPORTED}


def verify_jsonl_rows() -> Iterator[dict]:
    labels: dict[int, dict[str, list[str]]] = defaultdict(lambda: {"wiki": [], "suggested": []})
    for item_id, wiki, suggested in (Vote.objects.exclude(preference=Preference.SKIP)
                                     .values_list("item_id", "evidence_wiki", "evidence_suggested")):
        labels[item_id]["wiki"].append(wiki)
        labels[item_id]["suggested"].append(suggested)
    items = (Item.objects.filter(pk__in=list(labels)).exclude(kind=Kind.PASSAGE)
             .select_related("claim__article", "wiki_source", "suggested_source").order_by("pk"))
    for item in items.iterator(chunk_size=500):
        for role in ("wiki", "suggested"):
            votes = labels[item.pk][role]
            label = majority(votes)
            if label is None:
                continue
            source = getattr(item, f"{role}_source")
            text = SourceDocument.objects.filter(source=source).values_list("text", flat=True).first()
            if not text:
                continue
            yield labelled_row(id=f"item{item.pk}-{role}", claim=item.claim, claim_text=item.claim.text,
                               source=source, text=text, gold=GOLD_VERDICT[label], votes=len(votes),
                               agreement=round(votes.count(label) / len(votes), 3),
                               verifier_verdict=getattr(item, f"{role}_verdict"))
