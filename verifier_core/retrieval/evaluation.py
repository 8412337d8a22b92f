"""Retrieval evaluation as KILT does it with rank key `url`: P@1 and success@k.

Gold lines: {"id", "output": [{"provenance": [{"url": ...}, ...]}, ...]}; each output
entry with provenance is one evidence set, and a query succeeds at k when every page of
some evidence set is among the first k distinct predicted pages. P@1 counts the first
predicted page when it belongs to any gold set.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Evaluation:
    queries: int
    scores: dict[str, float]
    missing_predictions: int = 0
    skipped_lines: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, reason)

    def as_dict(self) -> dict:
        return {"queries": self.queries, "missing_predictions": self.missing_predictions,
                **{k: round(v, 4) for k, v in self.scores.items()}}


def read_kilt_jsonl(path: str | Path, skipped: list) -> list[tuple[int, dict]]:
    """(line number, record) of each KILT-style line with an id; blank lines are passed
    over, and lines that are not JSON objects with an id go to `skipped` as
    (file, line, reason)."""
    rows = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                skipped.append((str(path), number, f"invalid JSON: {exc.msg}"))
                continue
            if not isinstance(row, dict) or "id" not in row:
                skipped.append((str(path), number, "no id"))
                continue
            rows.append((number, row))
    return rows


def _rows(path: str | Path, skipped: list) -> list[dict]:
    return [row for _, row in read_kilt_jsonl(path, skipped)]


def _provenance_sets(row: dict) -> list[list[str]]:
    sets = []
    for output in row.get("output") or []:
        if isinstance(output, dict) and output.get("provenance"):
            urls = [p.get("url") for p in output["provenance"] if isinstance(p, dict) and p.get("url")]
            if urls:
                sets.append(urls)
    return sets


def ranked_urls(row: dict) -> list[str]:
    """Distinct predicted urls in rank order (a page counts once, at its best rank)."""
    seen, ranked = set(), []
    for urls in _provenance_sets(row):
        for url in urls:
            if url not in seen:
                seen.add(url)
                ranked.append(url)
    return ranked


def evaluate(gold_rows: list[dict], pred_rows: list[dict], ks: list[int]) -> Evaluation:
    preds = {str(r["id"]): ranked_urls(r) for r in pred_rows}
    totals = {"P@1": 0.0, **{f"success@{k}": 0.0 for k in ks}}
    counted = missing = 0
    for row in gold_rows:
        gold = [set(s) for s in _provenance_sets(row)]
        if not gold:
            continue  # nothing to find: KILT leaves such queries out
        counted += 1
        ranking = preds.get(str(row["id"]))
        if ranking is None:
            missing += 1
            ranking = []
        if ranking and any(ranking[0] in s for s in gold):
            totals["P@1"] += 1
        for k in ks:
            top = set(ranking[:k])
            totals[f"success@{k}"] += any(s <= top for s in gold)
    scores = {name: (value / counted if counted else 0.0) for name, value in totals.items()}
    return Evaluation(counted, scores, missing)


def evaluate_files(gold: str | Path, pred: str | Path, ks: list[int]) -> Evaluation:
    skipped: list = []
    result = evaluate(_rows(gold, skipped), _rows(pred, skipped), ks)
    result.skipped_lines = skipped
    return result
