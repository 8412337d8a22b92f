"""Statistics for the results page, as pure functions on plain tables (no Django).

Checked in tests against textbook values: Fleiss' κ on Fleiss (1971) as reproduced in
most texts (0.210), Krippendorff's α on Krippendorff's own worked examples, and the
sign test against scipy.stats.binomtest and a hand count.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Share:
    """k of n, with its Wilson 95% interval."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.k, self.n)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a binomial proportion (None when n is 0)."""
    if n == 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> float | None:
    """Fleiss' κ from a subjects x categories table of rating counts; every subject
    must have the same number of ratings (items with a full set of votes)."""
    rows = [list(r) for r in counts if sum(r) > 0]
    if not rows:
        return None
    n = sum(rows[0])
    if n < 2 or any(sum(r) != n for r in rows):
        raise ValueError("Fleiss' kappa needs the same number (>= 2) of ratings per subject")
    subjects = len(rows)
    totals = [sum(col) for col in zip(*rows)]
    p_j = [t / (subjects * n) for t in totals]
    p_i = [(sum(c * c for c in r) - n) / (n * (n - 1)) for r in rows]
    p_bar, p_e = sum(p_i) / subjects, sum(p * p for p in p_j)
    if p_e == 1:
        return None  # every rating in one category: agreement is undefined, not perfect
    return (p_bar - p_e) / (1 - p_e)


def krippendorff_alpha_nominal(units: Iterable[Sequence[Hashable | None]]) -> float | None:
    """Krippendorff's α for nominal data; each unit is the list of its values (None or
    absent = missing). Units with fewer than two values are not pairable and drop out."""
    coincidence: Counter = Counter()
    for unit in units:
        values = [v for v in unit if v is not None]
        m = len(values)
        if m < 2:
            continue
        for c, nc in Counter(values).items():
            for k, nk in Counter(values).items():
                coincidence[c, k] += nc * (nk - (c == k)) / (m - 1)
    n_c: Counter = Counter()
    for (c, _k), w in coincidence.items():
        n_c[c] += w
    n = sum(n_c.values())
    if n <= 1:
        return None
    # alpha = 1 - D_o / D_e with D_o = sum_{c!=k} o_ck / n and
    # D_e = sum_{c!=k} n_c n_k / (n (n - 1)); the common 1/n cancels.
    observed = sum(w for (c, k), w in coincidence.items() if c != k)
    expected = (n * n - sum(v * v for v in n_c.values())) / (n - 1)
    if expected == 0:
        return None
    return 1 - observed / expected


def sign_test(wins: int, losses: int) -> float | None:
    """Exact two-sided sign test (ties left out): binomial test of wins vs p = 0.5."""
    n = wins + losses
    if n == 0:
        return None
    from scipy.stats import binomtest

    return float(binomtest(wins, n, 0.5, alternative="two-sided").pvalue)


def majority(labels: Iterable[str]) -> str | None:
    """The label more than half of the answers gave, or None."""
    counted = Counter(label for label in labels if label)
    total = sum(counted.values())
    if not total:
        return None
    label, count = counted.most_common(1)[0]
    return label if count * 2 > total else None


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
