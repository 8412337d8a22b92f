"""The results page's numbers, read from the votes in a few flat queries.

Preference is counted per vote. Agreement uses items, with the answers of their
non-skip votes: Fleiss' κ on items with a full set (N) of votes, Krippendorff's α on
every item with at least two. Pair items only, unless said otherwise.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model

from sideapp.annotation import statistics as st
from sideapp.annotation.models import Evidence, Item, Kind, Preference, Vote

BUCKETS = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0001)]
PREFERENCES = [Preference.SUGGESTED, Preference.WIKI, Preference.EQUAL, Preference.NEITHER]
LABELS = [Evidence.ENOUGH, Evidence.PARTIAL, Evidence.NONE]
VERDICTS = ["supported", "partially_supported", "not_supported", "source_unavailable"]
SAME_SIDE_MIN, SAME_SIDE_SHARE = 10, 0.9


@dataclass
class Row:
    """One vote, flattened."""

    item: int
    annotator: int
    wiki_left: bool
    preference: str
    evidence_wiki: str
    evidence_suggested: str
    seconds: float

    @property
    def left_won(self) -> bool | None:
        if self.preference not in (Preference.WIKI, Preference.SUGGESTED):
            return None
        return (self.preference == Preference.WIKI) == self.wiki_left


@dataclass
class ItemInfo:
    kind: str
    wiki_score: float | None
    wiki_verdict: str
    suggested_verdict: str
    gold: str
    rows: list[Row] = field(default_factory=list)

    @property
    def answers(self) -> list[Row]:
        return [r for r in self.rows if r.preference != Preference.SKIP]


def _load() -> dict[int, ItemInfo]:
    items = {pk: ItemInfo(*rest) for pk, *rest in Item.objects.values_list(
        "pk", "kind", "wiki_score", "wiki_verdict", "suggested_verdict", "gold_preference").iterator(chunk_size=5000)}
    for values in Vote.objects.values_list("item_id", "annotator_id", "wiki_left", "preference", "evidence_wiki",
                                           "evidence_suggested", "seconds").iterator(chunk_size=5000):
        items[values[0]].rows.append(Row(*values))
    return items


def preference_summary(rows: list[Row]) -> dict:
    counts = Counter(r.preference for r in rows)
    answered = sum(counts[p] for p in PREFERENCES)
    decisive = counts[Preference.SUGGESTED] + counts[Preference.WIKI]
    return {"counts": {p.value: counts[p] for p in PREFERENCES}, "skips": counts[Preference.SKIP],
            "answered": answered, "suggested": st.Share(counts[Preference.SUGGESTED], decisive),
            "ties": st.Share(counts[Preference.EQUAL], answered),
            "neither": st.Share(counts[Preference.NEITHER], answered),
            "sign_p": st.sign_test(counts[Preference.SUGGESTED], counts[Preference.WIKI])}


def buckets(pairs: list[ItemInfo]) -> list[dict]:
    """SIDE's Figure 3: preference by the verifier's score of the wiki's citation."""
    out = []
    for lo, hi in BUCKETS:
        inside = [i for i in pairs if i.wiki_score is not None and lo <= i.wiki_score < hi]
        summary = preference_summary([r for i in inside for r in i.rows])
        out.append({"label": f"{lo:.1f}–{min(hi, 1.0):.1f}", "items": len(inside), **summary})
    return out


def agreement(pairs: list[ItemInfo]) -> list[dict]:
    cap = settings.SIDE_ANNOTATION_VOTES_PER_ITEM
    out = []
    for name, attr, categories in (("preference", "preference", PREFERENCES),
                                   ("evidence, wiki's source", "evidence_wiki", LABELS),
                                   ("evidence, suggested source", "evidence_suggested", LABELS)):
        full = [i for i in pairs if len(i.answers) == cap]
        table = [[sum(getattr(r, attr) == c for r in i.answers) for c in categories] for i in full]
        units = [[getattr(r, attr) for r in i.answers] for i in pairs]
        out.append({"name": name, "fleiss": st.fleiss_kappa(table) if cap >= 2 else None, "full_items": len(full),
                    "alpha": st.krippendorff_alpha_nominal(units),
                    "alpha_items": sum(len(u) >= 2 for u in units)})
    return out


def evidence_distribution(pairs: list[ItemInfo]) -> list[dict]:
    answers = [r for i in pairs for r in i.answers]
    out = []
    for name, attr in (("wiki's source", "evidence_wiki"), ("suggested source", "evidence_suggested")):
        counts = Counter(getattr(r, attr) for r in answers)
        total = sum(counts.values())
        out.append({"name": name, "total": total,
                    "labels": [{"label": lab.value, "count": counts[lab], "share": st.Share(counts[lab], total)}
                               for lab in LABELS]})
    return out


def position_bias(items: dict[int, ItemInfo]) -> dict:
    won = [r.left_won for i in items.values() for r in i.rows if r.left_won is not None]
    left = sum(won)
    return {"left": st.Share(left, len(won)), "p": st.sign_test(left, len(won) - left)}


def calibration(pairs: list[ItemInfo]) -> dict:
    """The verifier's verdict vs the people's majority evidence label, per source."""
    table: dict[str, Counter] = defaultdict(Counter)
    for item in pairs:
        for verdict, attr in ((item.wiki_verdict, "evidence_wiki"), (item.suggested_verdict, "evidence_suggested")):
            label = st.majority(getattr(r, attr) for r in item.answers)
            if verdict and label:
                table[verdict][label] += 1
    rows = [{"verdict": v, "cells": [table[v][lab] for lab in LABELS], "total": sum(table[v].values())}
            for v in VERDICTS if v in table]
    flagged = table.get("not_supported", Counter())
    return {"labels": [lab.value for lab in LABELS], "rows": rows,
            "not_supported_right": st.Share(flagged[Evidence.NONE], sum(flagged.values()))}


def annotators(items: dict[int, ItemInfo]) -> list[dict]:
    per: dict[int, list[tuple[ItemInfo, Row]]] = defaultdict(list)
    for item in items.values():
        for r in item.rows:
            per[r.annotator].append((item, r))
    names = dict(get_user_model().objects.filter(pk__in=per).values_list("pk", "username"))
    out = []
    for user_id, pairs in sorted(per.items(), key=lambda kv: names.get(kv[0], "")):
        golds = [(i, r) for i, r in pairs if i.kind == Kind.GOLD and r.preference != Preference.SKIP]
        sides = [r.left_won for _, r in pairs if r.left_won is not None]
        same = max(sum(sides), len(sides) - sum(sides)) if sides else 0
        out.append({"name": names.get(user_id, f"#{user_id}"), "votes": len(pairs),
                    "skips": sum(r.preference == Preference.SKIP for _, r in pairs),
                    "median_seconds": st.median([r.seconds for _, r in pairs]),
                    "gold": st.Share(sum(r.preference == i.gold for i, r in golds), len(golds)),
                    "same_side": len(sides) >= SAME_SIDE_MIN and same >= SAME_SIDE_SHARE * len(sides)})
    return out


def results() -> dict:
    items = _load()
    pairs = [i for i in items.values() if i.kind == Kind.PAIR]
    controls = [r for i in items.values() if i.kind == Kind.PASSAGE for r in i.rows]
    return {"overall": preference_summary([r for i in pairs for r in i.rows]),
            "items": Counter(i.kind for i in items.values()), "votes": sum(len(i.rows) for i in items.values()),
            "buckets": buckets(pairs), "agreement": agreement(pairs),
            "evidence": evidence_distribution(pairs), "position": position_bias(items),
            "control": preference_summary(controls), "calibration": calibration(pairs),
            "annotators": annotators(items), "cap": settings.SIDE_ANNOTATION_VOTES_PER_ITEM}
