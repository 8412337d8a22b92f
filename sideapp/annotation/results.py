"""The results page's numbers, read from the votes in two flat queries and counted with
numpy (tens of thousands of votes in well under a second).

Preference is counted per vote. Agreement uses items, with the answers of their
non-skip votes: Fleiss' κ on items with a full set (N) of votes, Krippendorff's α on
every item with at least two. Pair items only, unless said otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model

from sideapp.annotation import statistics as st
from sideapp.annotation.models import Evidence, Item, Kind, Preference, Vote
from verifier_core.verification import Verdict

EDGES = [0.2, 0.4, 0.6, 0.8]  # score buckets [0, .2), [.2, .4), ... [.8, 1]
PREFERENCES = [Preference.SUGGESTED, Preference.WIKI, Preference.EQUAL, Preference.NEITHER, Preference.SKIP]
SUGGESTED, WIKI, EQUAL, NEITHER, SKIP = range(5)
LABELS = [Evidence.ENOUGH, Evidence.PARTIAL, Evidence.NONE]
KINDS = [Kind.PAIR, Kind.PASSAGE, Kind.GOLD]
VERDICTS = list(Verdict)
SAME_SIDE_MIN, SAME_SIDE_SHARE = 10, 0.9


def _codes(values, vocabulary) -> np.ndarray:
    index = {v: n for n, v in enumerate(vocabulary)}
    return np.fromiter((index.get(v, -1) for v in values), dtype=np.int64, count=len(values))


@dataclass
class Table:
    """Items and votes as parallel arrays; a vote's item is an index into the items."""

    kind: np.ndarray
    score: np.ndarray
    verdicts: dict[str, list[str]]
    gold: np.ndarray
    item: np.ndarray
    annotator: np.ndarray
    wiki_left: np.ndarray
    pref: np.ndarray
    evidence: dict[str, np.ndarray]
    seconds: np.ndarray

    @property
    def left_won(self) -> np.ndarray:
        """1 when the vote chose the left side, 0 the right, -1 for no side."""
        decisive = self.pref <= WIKI
        return np.where(decisive, ((self.pref == WIKI) == self.wiki_left).astype(int), -1)


def _load() -> Table:
    items = list(Item.objects.values_list("pk", "kind", "wiki_score", "wiki_verdict", "suggested_verdict",
                                          "gold_preference"))
    votes = list(Vote.objects.values_list("item_id", "annotator_id", "wiki_left", "preference", "evidence_wiki",
                                          "evidence_suggested", "seconds"))
    position = {row[0]: n for n, row in enumerate(items)}
    column = list(zip(*votes)) if votes else [()] * 7
    return Table(
        kind=_codes([r[1] for r in items], KINDS),
        score=np.array([np.nan if r[2] is None else r[2] for r in items], dtype=float),
        verdicts={"wiki": [r[3] for r in items], "suggested": [r[4] for r in items]},
        gold=_codes([r[5] for r in items], PREFERENCES),
        item=np.fromiter((position[i] for i in column[0]), dtype=np.int64, count=len(votes)),
        annotator=np.array(column[1], dtype=np.int64), wiki_left=np.array(column[2], dtype=bool),
        pref=_codes(column[3], PREFERENCES),
        evidence={"wiki": _codes(column[4], LABELS), "suggested": _codes(column[5], LABELS)},
        seconds=np.array(column[6], dtype=float))


def preference_summary(pref: np.ndarray) -> dict:
    counts = np.bincount(pref, minlength=len(PREFERENCES))
    answered = int(counts[:SKIP].sum())
    decisive = int(counts[SUGGESTED] + counts[WIKI])
    return {"counts": {p.value: int(counts[n]) for n, p in enumerate(PREFERENCES[:SKIP])},
            "skips": int(counts[SKIP]), "answered": answered,
            "suggested": st.Share(int(counts[SUGGESTED]), decisive),
            "ties": st.Share(int(counts[EQUAL]), answered), "neither": st.Share(int(counts[NEITHER]), answered),
            "sign_p": st.sign_test(int(counts[SUGGESTED]), int(counts[WIKI]))}


def buckets(t: Table, pair_votes: np.ndarray) -> list[dict]:
    """SIDE's Figure 3: preference by the verifier's score of the wiki's citation."""
    known = ~np.isnan(t.score)
    bucket = np.where(known, np.digitize(np.nan_to_num(t.score), EDGES), -1)
    is_pair = t.kind == KINDS.index(Kind.PAIR)
    bounds = [0.0, *EDGES, 1.0]
    return [{"label": f"{bounds[b]:.1f}–{bounds[b + 1]:.1f}", "items": int(np.sum(is_pair & (bucket == b))),
             **preference_summary(t.pref[pair_votes & (bucket[t.item] == b)])}
            for b in range(len(EDGES) + 1)]


def _item_counts(t: Table, votes: np.ndarray, codes: np.ndarray, width: int) -> np.ndarray:
    """items x categories: how many of the selected votes gave each answer."""
    table = np.zeros((len(t.kind), width), dtype=np.int64)
    np.add.at(table, (t.item[votes], codes[votes]), 1)
    return table


def agreement(t: Table, answers: np.ndarray, pairs: np.ndarray) -> list[dict]:
    cap = settings.SIDE_ANNOTATION_VOTES_PER_ITEM
    out = []
    for name, codes, width in (("preference", t.pref, SKIP), ("evidence, wiki's source", t.evidence["wiki"], 3),
                               ("evidence, suggested source", t.evidence["suggested"], 3)):
        table = _item_counts(t, answers, codes, width)[pairs]
        sizes = table.sum(axis=1)
        full = table[sizes == cap]
        out.append({"name": name, "fleiss": st.fleiss_kappa(full) if cap >= 2 and len(full) else None,
                    "full_items": len(full), "alpha": st.krippendorff_alpha_from_counts(table),
                    "alpha_items": int(np.sum(sizes >= 2))})
    return out


def evidence_distribution(t: Table, answers: np.ndarray) -> list[dict]:
    out = []
    for name, side in (("wiki's source", "wiki"), ("suggested source", "suggested")):
        counts = np.bincount(t.evidence[side][answers], minlength=3)
        total = int(counts.sum())
        out.append({"name": name, "total": total,
                    "labels": [{"label": lab.value, "count": int(counts[n]), "share": st.Share(int(counts[n]), total)}
                               for n, lab in enumerate(LABELS)]})
    return out


def position_bias(t: Table) -> dict:
    won = t.left_won
    left, decisive = int(np.sum(won == 1)), int(np.sum(won >= 0))
    return {"left": st.Share(left, decisive), "p": st.sign_test(left, decisive - left)}


def calibration(t: Table, answers: np.ndarray, pairs: np.ndarray) -> dict:
    """The verifier's verdict vs the people's majority evidence label, per source."""
    cells = {v: [0, 0, 0] for v in VERDICTS}
    for side in ("wiki", "suggested"):
        table = _item_counts(t, answers, t.evidence[side], 3)
        top, total = table.argmax(axis=1), table.sum(axis=1)
        has_majority = pairs & (table.max(axis=1) * 2 > total)
        for n in np.flatnonzero(has_majority):
            verdict = t.verdicts[side][n]
            if verdict in cells:
                cells[verdict][top[n]] += 1
    rows = [{"verdict": v, "cells": c, "total": sum(c)} for v, c in cells.items() if sum(c)]
    flagged = cells[Verdict.NOT_SUPPORTED]
    return {"labels": [lab.value for lab in LABELS], "rows": rows,
            "not_supported_right": st.Share(flagged[2], sum(flagged))}


def annotators(t: Table) -> list[dict]:
    people, which = np.unique(t.annotator, return_inverse=True)
    names = dict(get_user_model().objects.filter(pk__in=people.tolist()).values_list("pk", "username"))
    order = np.argsort(which, kind="stable")
    groups = np.split(order, np.cumsum(np.bincount(which, minlength=len(people)))[:-1])
    gold_item = t.kind[t.item] == KINDS.index(Kind.GOLD)
    won = t.left_won
    out = []
    for user_id, votes in zip(people.tolist(), groups):
        golds = votes[gold_item[votes] & (t.pref[votes] != SKIP)]
        sides = won[votes][won[votes] >= 0]
        same = max(int(sides.sum()), len(sides) - int(sides.sum())) if len(sides) else 0
        skips = int(np.sum(t.pref[votes] == SKIP))
        out.append({"name": names.get(user_id, f"#{user_id}"), "answers": len(votes) - skips, "skips": skips,
                    "median_seconds": float(np.median(t.seconds[votes])) if len(votes) else None,
                    "gold": st.Share(int(np.sum(t.pref[golds] == t.gold[t.item[golds]])), len(golds)),
                    "same_side": len(sides) >= SAME_SIDE_MIN and same >= SAME_SIDE_SHARE * len(sides)})
    return sorted(out, key=lambda row: row["name"])


def results() -> dict:
    t = _load()
    pairs = t.kind == KINDS.index(Kind.PAIR)
    pair_votes = pairs[t.item]
    answers = pair_votes & (t.pref != SKIP)
    controls = t.kind[t.item] == KINDS.index(Kind.PASSAGE)
    return {"overall": preference_summary(t.pref[pair_votes]),
            "items": {k.value: int(np.sum(t.kind == n)) for n, k in enumerate(KINDS)}, "votes": len(t.item),
            "answers": int(np.sum(t.pref != SKIP)), "skips": int(np.sum(t.pref == SKIP)),
            "buckets": buckets(t, pair_votes), "agreement": agreement(t, answers, pairs),
            "evidence": evidence_distribution(t, answers), "position": position_bias(t),
            "control": preference_summary(t.pref[controls]), "calibration": calibration(t, answers, pairs),
            "annotators": annotators(t), "cap": settings.SIDE_ANNOTATION_VOTES_PER_ITEM}
