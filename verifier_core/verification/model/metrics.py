"""Metrics and folds from scikit-learn, wrapped for the verifier's label indices.

y holds indices into types.LABELS: 0 supported, 1 partially supported, 2 not supported.
"""
from __future__ import annotations

import math

import numpy as np


def roc_auc(positive: np.ndarray, score: np.ndarray) -> float:
    """ROC-AUC of `score` for `positive`; NaN when a class is missing."""
    from sklearn.metrics import roc_auc_score

    positive = np.asarray(positive, dtype=bool)
    if positive.all() or not positive.any():
        return math.nan
    return float(roc_auc_score(positive, score))


def macro_f1(pred: np.ndarray, y: np.ndarray) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, pred, labels=[0, 1, 2], average="macro", zero_division=0))


def group_folds(y, groups, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) index arrays: stratified by label, no group split across folds."""
    import warnings

    from sklearn.model_selection import GroupKFold, StratifiedGroupKFold

    y, groups = np.asarray(y), np.asarray(groups)
    k = max(2, min(k, len(set(groups.tolist()))))
    splitter = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    if np.bincount(y).max() < k:  # smoke-sized inputs: too few of every label to stratify
        splitter = GroupKFold(n_splits=k)
    with warnings.catch_warnings():  # a label rarer than k folds: sklearn warns, and copes
        warnings.simplefilter("ignore", UserWarning)
        return [(train, test) for train, test in splitter.split(np.zeros(len(y)), y, groups) if len(test)]


def precision_recall_below(score: np.ndarray, positive: np.ndarray, cut: float) -> tuple[float, float]:
    """Precision and recall of `positive` among the scores below `cut`."""
    chosen = score < cut
    precision = float(positive[chosen].mean()) if chosen.any() else math.nan
    recall = float(chosen[positive].mean()) if positive.any() else math.nan
    return precision, recall


def precision_at_recall(score: np.ndarray, positive: np.ndarray, recall: float = 0.15) -> float:
    """Precision among the lowest scores, down to the cut that first reaches `recall` of
    the positives (the flagged list read from the top)."""
    order = np.argsort(score, kind="mergesort")
    hits = np.cumsum(positive[order])
    needed = math.ceil(recall * positive.sum())
    if needed == 0:
        return math.nan
    n = int(np.searchsorted(hits, needed)) + 1
    return float(hits[n - 1] / n)
