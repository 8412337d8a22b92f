"""WiCE rows as training / evaluation examples, and grouped cross-validation folds.

The data is read at run time from the shared folder and never copied into the repo.
A page is rebuilt as one text (one evidence sentence per line) so that supporting
sentence indices become character spans, exactly like offsets into a fetched source.
"""
from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from verifier_core.verification.model.metrics import group_folds
from verifier_core.verification.types import LABELS

FILES = ("dev", "nst_dev", "nst_train")
_META = "(meta data) "


@dataclass
class Example:
    id: str
    source: str  # which file: dev | nst_dev | nst_train
    claim: str
    title: str
    section: str
    context: str
    page: str  # the cited page as one text
    sentence_spans: list[tuple[int, int]]  # evidence index -> (start, end) in `page`
    label: str
    supporting: list[list[int]]  # alternative sets of evidence indices
    claim_tokens: list[str] = field(default_factory=list)  # nst_* only
    unsupported: list[bool] = field(default_factory=list)  # nst_* only, parallel to tokens
    group: str = ""  # claims sharing a parent claim or a page share a group

    @property
    def page_id(self) -> str:
        return hashlib.sha1(self.page.encode("utf-8")).hexdigest()[:16]

    @property
    def parent_id(self) -> str:
        return self.id.split("-")[0]


def _literal(value):
    # nst_* files store nested fields as Python literals, dev.jsonl as JSON.
    return ast.literal_eval(value) if isinstance(value, str) else value


def build_page(evidence: list[str]) -> tuple[str, list[tuple[int, int]]]:
    parts, spans, pos = [], [], 0
    for sentence in evidence:
        text = sentence[len(_META):] if sentence.startswith(_META) else sentence
        text = " ".join(text.split())
        spans.append((pos, pos + len(text)))
        parts.append(text)
        pos += len(text) + 1
    return "\n".join(parts), spans


def _example(row: dict, source: str) -> Example:
    meta = _literal(row["meta"])
    page, spans = build_page(_literal(row["evidence"]))
    return Example(
        id=meta["id"],
        source=source,
        claim=" ".join(row["claim"].split()),
        title=meta.get("claim_title") or "",
        section=(meta.get("claim_section") or "").rstrip("."),
        context=meta.get("claim_context") or "",
        page=page,
        sentence_spans=spans,
        label=row["label"],
        supporting=[list(s) for s in _literal(row.get("supporting_sentences") or [])],
        claim_tokens=list(_literal(row.get("claim_tokens") or [])),
        unsupported=[bool(v) for v in _literal(row.get("non_supported_spans") or [])],
    )


def load_wice(folder: Path, limit: int | None = None) -> list[Example]:
    """All rows of the three files, grouped; `limit` keeps the first N of each file."""
    folder = Path(folder)
    missing = [f for f in FILES if not (folder / f"{f}.jsonl").exists()]
    if missing:
        raise FileNotFoundError(f"WiCE files missing in {folder}: {missing}")
    examples: list[Example] = []
    for name in FILES:
        with open(folder / f"{name}.jsonl", encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
        examples += [_example(r, name) for r in rows[:limit]]
    _assign_groups(examples)
    return examples


def _assign_groups(examples: list[Example]) -> None:
    """Union-find over parent claim id and page, so that no group straddles folds."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for ex in examples:
        a, b = find("c:" + ex.parent_id), find("p:" + ex.page_id)
        if a != b:
            parent[max(a, b)] = min(a, b)
    for ex in examples:
        ex.group = find("c:" + ex.parent_id)


def grouped_folds(examples: list[Example], k: int, seed: int) -> list[list[int]]:
    """Indices of the `dev` examples in each of k test folds, stratified by label, no
    group split (scikit-learn's StratifiedGroupKFold).

    Only `dev` rows are evaluated (they carry all three labels); nst_* rows are
    training material, excluded from training when their group is in the test fold.
    """
    dev = [i for i, ex in enumerate(examples) if ex.source == "dev"]
    if not dev:
        return []
    y = [LABELS.index(examples[i].label) for i in dev]
    folds = group_folds(y, [examples[i].group for i in dev], k, seed)
    return [sorted(dev[j] for j in test) for _, test in folds]


HALVES = ("dev", "held-out")


def half(example: Example) -> str:
    """Which half of a benchmark an example belongs to, "dev" (rules are designed on it)
    or "held-out" (only reported): a hash of its group, so that claims sharing a page or
    a parent claim (and nst_* rows that share them) never fall on both sides."""
    return HALVES[hashlib.sha256(example.group.encode("utf-8")).digest()[0] & 1]


def train_indices(examples: list[Example], test: list[int]) -> list[int]:
    banned = {examples[i].group for i in test}
    return [i for i, ex in enumerate(examples) if ex.group not in banned]
