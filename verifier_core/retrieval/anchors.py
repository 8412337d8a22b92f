"""Anchor-text query expansion (MacKinnon & Vechtomova).

The wiki's own links say which words name which article: `[[Target|anchor text]]`.
From all links we build an anchor dictionary. A query is scanned for multi-word units
with a window that shrinks from 5 words to 1 (a lone stop word is not a unit); a unit
resolves to the article that most links with that anchor text point to (anchors seen
fewer than 2 times are ignored; on a tie the article with the most incoming links
wins). That article's other anchor texts used more than once become expansion terms,
weighted below the query's own terms.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from verifier_core.retrieval.tokenize import stop_words, words

FORMAT_VERSION = 1
MAX_WINDOW = 5
MIN_ANCHOR_COUNT = 2
DEFAULT_EXPANSION_WEIGHT = 0.3
DEFAULT_MAX_ANCHORS = 5  # per resolved article; more anchors drift from the query


def normalise_anchor(text: str) -> str:
    return " ".join(words(text))


def normalise_target(title: str) -> str:
    title = " ".join(title.replace("_", " ").split("#", 1)[0].split())
    return title[:1].upper() + title[1:]


@dataclass(frozen=True)
class Unit:
    """A run of query words (positions start..end-1) resolved to an article."""

    text: str
    start: int
    end: int
    target: str


@dataclass(frozen=True)
class Expansion:
    units: list[Unit]
    terms: list[tuple[str, float]]  # (anchor text, weight), strongest first


class AnchorDictionary:
    """anchor text -> {target: links}, with the reverse map and incoming-link counts."""

    def __init__(self, counts: dict[str, dict[str, int]]):
        self.counts = {a: dict(t) for a, t in counts.items() if a}
        self.by_target: dict[str, dict[str, int]] = defaultdict(dict)
        self.incoming: Counter[str] = Counter()
        for anchor, targets in self.counts.items():
            for target, n in targets.items():
                self.by_target[target][anchor] = n
                self.incoming[target] += n
        self._totals = {a: sum(t.values()) for a, t in self.counts.items()}

    @classmethod
    def from_links(cls, links: Iterable) -> "AnchorDictionary":
        """From WikiLink objects or (target, anchor) pairs; a link without anchor text
        shows its target's title, so that title is its anchor."""
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for link in links:
            target, anchor = (link.target, link.anchor) if hasattr(link, "target") else link
            target = normalise_target(target or "")
            anchor = normalise_anchor(anchor or target)
            if target and anchor:
                counts[anchor][target] += 1
        return cls(counts)

    def __len__(self) -> int:
        return len(self.counts)

    def resolve(self, anchor: str) -> str | None:
        """The article an anchor text names, or None when the anchor is too rare."""
        anchor = normalise_anchor(anchor)
        if self._totals.get(anchor, 0) < MIN_ANCHOR_COUNT:
            return None
        targets = self.counts[anchor]
        # Most links with this anchor; ties go to the better-linked article, then by name
        # so the choice never depends on dictionary order.
        return min(targets, key=lambda t: (-targets[t], -self.incoming[t], t))

    def find_units(self, text: str) -> list[Unit]:
        tokens = words(text)
        taken = [False] * len(tokens)
        units = []
        stop = stop_words()
        for size in range(min(MAX_WINDOW, len(tokens)), 0, -1):
            for start in range(len(tokens) - size + 1):
                if any(taken[start : start + size]):
                    continue
                if size == 1 and tokens[start] in stop:
                    continue
                phrase = " ".join(tokens[start : start + size])
                target = self.resolve(phrase)
                if target is None:
                    continue
                units.append(Unit(phrase, start, start + size, target))
                taken[start : start + size] = [True] * size
        return sorted(units, key=lambda u: u.start)

    def expansion_anchors(self, target: str, exclude: set[str]) -> list[tuple[str, int]]:
        """The article's anchor texts used more than once, most used first."""
        anchors = self.by_target.get(target, {})
        kept = [(a, n) for a, n in anchors.items() if n > 1 and a not in exclude]
        return sorted(kept, key=lambda an: (-an[1], an[0]))

    def expand(self, text: str, *, weight: float = DEFAULT_EXPANSION_WEIGHT,
               max_anchors: int = DEFAULT_MAX_ANCHORS) -> Expansion:
        if not 0 < weight < 1:
            raise ValueError("expansion weight must be between 0 and 1 (below original terms)")
        units = self.find_units(text)
        in_query = {u.text for u in units}
        terms: dict[str, float] = {}
        for unit in units:
            for anchor, _ in self.expansion_anchors(unit.target, in_query)[:max_anchors]:
                terms.setdefault(anchor, weight)
        return Expansion(units, list(terms.items()))

    # --- persistence ------------------------------------------------------------
    def to_dict(self) -> dict:
        rows = [[t, a, n] for a, targets in sorted(self.counts.items()) for t, n in sorted(targets.items())]
        return {"format": FORMAT_VERSION, "kind": "anchor-dictionary", "links": rows}

    @classmethod
    def from_dict(cls, data: dict) -> "AnchorDictionary":
        if data.get("kind") != "anchor-dictionary" or data.get("format") != FORMAT_VERSION:
            raise ValueError("not an anchor dictionary of format %d" % FORMAT_VERSION)
        counts: dict[str, dict[str, int]] = defaultdict(dict)
        for target, anchor, n in data["links"]:
            counts[anchor][target] = int(n)
        return cls(counts)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".anchors-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(self.to_dict(), handle, ensure_ascii=False)
        os.replace(tmp, path)  # readers never see half a file

    @classmethod
    def load(cls, path: str | Path) -> "AnchorDictionary":
        try:
            with open(path, encoding="utf-8") as handle:
                return cls.from_dict(json.load(handle))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"anchor dictionary {path} cannot be read: {exc}") from exc
