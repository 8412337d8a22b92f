"""The one score-to-verdict rule, with its confidence, and how its thresholds are fitted.

A verdict is three cuts on one score (higher = better supported), so a list sorted by
score is sorted by verdict too:

    score <  not_supported        -> not_supported, high confidence
    score <  supported            -> partially_supported, low confidence ("needs a look")
    score <  confident_supported  -> supported, low confidence
    otherwise                     -> supported, high confidence

`not_supported` is fitted for precision: the largest cut whose out-of-fold precision for
not-supported claims reaches the target (0.8), so an editor who opens a not_supported
verdict finds a real failure four times out of five. Thresholds are always fitted on
out-of-fold scores of training claims, never on the claims a metric is reported on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verifier_core.verification.types import Verdict

HIGH, LOW = "high", "low"
PRECISION_TARGET = 0.8
MIN_FLAGGED = 5  # a precision over fewer claims than this says nothing


@dataclass(frozen=True)
class Thresholds:
    supported: float
    not_supported: float
    confident_supported: float | None = None  # None: every supported verdict is high

    def decide(self, score: float) -> tuple[Verdict, str]:
        """(verdict, confidence) for one score: the only such rule in the project."""
        if score < self.not_supported:
            return Verdict.NOT_SUPPORTED, HIGH
        if score < self.supported:
            return Verdict.PARTIALLY_SUPPORTED, LOW
        confident = self.confident_supported if self.confident_supported is not None else self.supported
        return Verdict.SUPPORTED, (HIGH if score >= confident else LOW)


def _cuts(score: np.ndarray) -> np.ndarray:
    grid = np.unique(np.round(score, 4))
    if not len(grid):
        return np.array([0.5])
    return np.concatenate([[0.0], (grid[:-1] + grid[1:]) / 2, [1.0 + 1e-9]])


def precision_cut_below(score: np.ndarray, positive: np.ndarray, target: float = PRECISION_TARGET) -> float:
    """The largest cut c with precision(positive | score < c) >= target (0.0: none)."""
    best = 0.0
    for c in _cuts(score):
        chosen = score < c
        if chosen.sum() >= MIN_FLAGGED and positive[chosen].mean() >= target:
            best = float(c)
    return best


def precision_cut_above(score: np.ndarray, positive: np.ndarray, target: float = PRECISION_TARGET) -> float:
    """The smallest cut c with precision(positive | score >= c) >= target (above all: none)."""
    for c in _cuts(score):
        chosen = score >= c
        if chosen.sum() >= MIN_FLAGGED and positive[chosen].mean() >= target:
            return float(c)
    return float(score.max() + 1e-6) if len(score) else 1.0


def accuracy_cut(score: np.ndarray, positive: np.ndarray) -> float:
    """The cut that maximises accuracy of `score >= c` for `positive`."""
    cuts = _cuts(score)
    acc = [((score >= c) == positive).mean() for c in cuts]
    return float(cuts[int(np.argmax(acc))])


def fit_thresholds(score: np.ndarray, y: np.ndarray, target: float = PRECISION_TARGET) -> Thresholds:
    """Thresholds from out-of-fold scores; y indexes (supported, partial, not_supported)."""
    supported = accuracy_cut(score, y == 0)
    not_supported = min(precision_cut_below(score, y == 2, target), supported)
    confident = max(precision_cut_above(score, y == 0, target), supported)
    return Thresholds(supported=supported, not_supported=not_supported, confident_supported=confident)
