"""Metrics and grouped cross-validation of the verdict layer.

Only `dev` claims are scored (they carry all three labels); every threshold is chosen
inside the training folds (calibration.fit_head), never on the fold it is reported on.
"""
from __future__ import annotations

import math

import numpy as np

from verifier_core.verification.calibration import LABELS, fit_head, macro_f1
from verifier_core.verification.data import Example, grouped_folds, train_indices


def roc_auc(positive: np.ndarray, score: np.ndarray) -> float:
    """Mann-Whitney AUC with ties counted half; NaN when a class is missing."""
    pos, neg = score[positive], score[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return math.nan
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    values = np.concatenate([pos, neg])[order]
    i = 0
    while i < len(values):  # average ranks over ties
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def metrics(score: np.ndarray, pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """y and pred are indices into LABELS."""
    binary, full_or_partial = y != 1, y != 2
    return {
        "roc_auc": roc_auc(y[binary] == 0, score[binary]),
        # where the supported-vs-rest accuracy is won or lost: full vs partial support
        "roc_auc_sup_vs_partial": roc_auc(y[full_or_partial] == 0, score[full_or_partial]),
        "accuracy_3way": float((pred == y).mean()),
        "macro_f1_3way": macro_f1(pred, y),
        "supported_vs_rest_accuracy": float(((pred == 0) == (y == 0)).mean()),
    }


def cross_validate(X: np.ndarray, examples: list[Example], k: int, seed: int, names, train_share: float = 1.0, **head_kw) -> dict:
    """Fold-averaged metrics (mean, std) and out-of-fold scores for the dev claims.

    train_share < 1 fits each fold's head on that share of its training groups (drawn
    with the seed): the learning curve that says whether more labelled claims would help.
    """
    y = np.array([LABELS.index(e.label) for e in examples])
    rng = np.random.RandomState(seed)
    per_fold, oof = [], np.full(len(examples), np.nan)
    for test in grouped_folds(examples, k, seed):
        if not test:
            continue
        train = [i for i in train_indices(examples, test) if examples[i].source == "dev"]
        if train_share < 1.0:
            train = share_of_groups(examples, train, train_share, rng)
        if len(set(y[train])) < 2:
            continue
        head = fit_head(X[train], y[train], [examples[i].group for i in train], names, seed=seed, **head_kw)
        score = head.score(X[test])
        pred = np.array([LABELS.index(head.verdict(s)) for s in score])
        oof[test] = score
        per_fold.append(metrics(score, pred, y[test]))
    summary = {}
    for key in per_fold[0] if per_fold else []:
        values = np.array([m[key] for m in per_fold], dtype=float)
        summary[key] = {"mean": float(np.nanmean(values)), "std": float(np.nanstd(values))}
    return {"folds": len(per_fold), "metrics": summary, "per_fold": per_fold, "oof_score": oof}


def share_of_groups(examples: list[Example], rows: list[int], share: float, rng) -> list[int]:
    groups = sorted({examples[i].group for i in rows})
    rng.shuffle(groups)
    keep = set(groups[: max(2, round(share * len(groups)))])
    return [i for i in rows if examples[i].group in keep]


def format_table(rows: dict[str, dict]) -> str:
    """Markdown table: one row per method, fold mean ± std per metric."""
    keys = ("roc_auc", "roc_auc_sup_vs_partial", "accuracy_3way", "macro_f1_3way", "supported_vs_rest_accuracy")
    head = ("| method | ROC-AUC (sup vs not) | ROC-AUC (sup vs partial) | 3-way accuracy | 3-way macro-F1 "
            "| supported-vs-rest accuracy |")
    lines = [head, "|---|---|---|---|---|---|"]
    for name, result in rows.items():
        cells = [f"{result['metrics'][k]['mean']:.3f} ± {result['metrics'][k]['std']:.3f}" for k in keys]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
