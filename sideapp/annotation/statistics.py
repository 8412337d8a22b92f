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

import numpy as np
from scipy.stats import binomtest  # at import, so that no page view pays for it

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


def fleiss_kappa(counts) -> float | None:
    """Fleiss' κ from a subjects x categories table of rating counts; every subject
    must have the same number of ratings (items with a full set of votes)."""
    table = np.asarray(counts, dtype=float)
    if table.ndim != 2 or not table.size:
        return None
    table = table[table.sum(axis=1) > 0]
    if not len(table):
        return None
    n = table[0].sum()
    if n < 2 or np.any(table.sum(axis=1) != n):
        raise ValueError("Fleiss' kappa needs the same number (>= 2) of ratings per subject")
    p_j = table.sum(axis=0) / table.sum()
    p_bar = ((table * table).sum(axis=1) - n).mean() / (n * (n - 1))
    p_e = float((p_j * p_j).sum())
    if p_e == 1:
        return None  # every rating in one category: agreement is undefined, not perfect
    return float((p_bar - p_e) / (1 - p_e))


def krippendorff_alpha_nominal(units: Iterable[Sequence[Hashable | None]]) -> float | None:
    """Krippendorff's α for nominal data; each unit is the list of its values (None or
    absent = missing). Units with fewer than two values are not pairable and drop out."""
    counted = [Counter(v for v in unit if v is not None) for unit in units]
    values = sorted({v for c in counted for v in c}, key=str)
    return krippendorff_alpha_from_counts([[c[v] for v in values] for c in counted])


def krippendorff_alpha_from_counts(counts) -> float | None:
    """The same from a units x values table of counts. With o_ck the coincidences,
    n_c = sum_k o_ck and n = sum n_c: alpha = 1 - D_o / D_e, D_o = sum_{c!=k} o_ck / n,
    D_e = sum_{c!=k} n_c n_k / (n (n - 1)). A unit of m values adds
    (m^2 - sum_c m_c^2) / (m - 1) to sum_{c!=k} o_ck and m_c to n_c."""
    table = np.asarray(counts, dtype=float)
    if table.ndim != 2 or not table.size:
        return None
    m = table.sum(axis=1)
    table, m = table[m >= 2], m[m >= 2]
    observed = ((m * m - (table * table).sum(axis=1)) / (m - 1)).sum()
    totals = table.sum(axis=0)
    n = totals.sum()
    spread = n * n - (totals * totals).sum()
    if n <= 1 or spread == 0:
        return None
    return float(1 - (n - 1) * observed / spread)


def sign_test(wins: int, losses: int) -> float | None:
    """Exact two-sided sign test (ties left out): binomial test of wins vs p = 0.5."""
    n = wins + losses
    if n == 0:
        return None
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
