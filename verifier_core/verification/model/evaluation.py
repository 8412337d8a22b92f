"""Metrics and grouped cross-validation of the verdict layer.

Only `dev` claims are scored (they carry all three labels); every threshold is chosen
inside the training folds (calibration.fit_head), never on the fold it is reported on.
"""
from __future__ import annotations

import numpy as np

from verifier_core.verification.judgement.calibration import fit_head
from verifier_core.verification.model.data import Example, grouped_folds, train_indices
from verifier_core.verification.model.metrics import macro_f1, precision_at_recall, roc_auc
from verifier_core.verification.types import LABELS


def metrics(score: np.ndarray, pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """y and pred are indices into LABELS. `flagged` is the default flagged list (a
    not_supported verdict, always high confidence); `not_quiet` is any verdict but
    supported (what the list held before confidence existed)."""
    binary, full_or_partial = y != 1, y != 2
    flagged = pred == 2
    return {
        "ns_precision": float((y[flagged] == 2).mean()) if flagged.any() else float("nan"),
        # A flag is also right when the claim is only partly supported (a contradicted figure).
        "flag_not_fully_precision": float((y[flagged] != 0).mean()) if flagged.any() else float("nan"),
        "ns_recall": float(flagged[y == 2].mean()) if (y == 2).any() else float("nan"),
        "supported_flagged": float(flagged[y == 0].mean()) if (y == 0).any() else float("nan"),
        "partial_flagged": float(flagged[y == 1].mean()) if (y == 1).any() else float("nan"),
        "supported_not_quiet": float((pred[y == 0] != 0).mean()) if (y == 0).any() else float("nan"),
        "precision_at_15_recall": precision_at_recall(score, y == 2, 0.15),
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
    per_fold, oof, oof_pred = [], np.full(len(examples), np.nan), np.full(len(examples), -1)
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
        pred = apply_rules(np.array([LABELS.index(head.verdict(s)) for s in score]), X[test], names)
        oof[test], oof_pred[test] = score, pred
        per_fold.append(metrics(score, pred, y[test]))
    summary = {key: mean_std([m[key] for m in per_fold]) for key in (per_fold[0] if per_fold else [])}
    seen = ~np.isnan(oof)
    pooled = metrics(oof[seen], oof_pred[seen].astype(int), y[seen]) if seen.any() else {}
    return {"folds": len(per_fold), "metrics": summary, "per_fold": per_fold, "pooled": pooled, "oof_score": oof}


def mean_std(values) -> dict[str, float]:
    """Mean and std over the values that exist (a fold without a flagged claim has no precision)."""
    values = np.array(values, dtype=float)
    values = values[~np.isnan(values)]
    if not len(values):
        return {"mean": float("nan"), "std": float("nan")}
    return {"mean": float(values.mean()), "std": float(values.std())}


def apply_rules(pred: np.ndarray, X: np.ndarray, names) -> np.ndarray:
    """judgement.judge's rules that give a confident verdict, as the app applies them: a
    contradicted figure (the head's `num_mismatch` feature) and an off-topic source
    (OFF_TOPIC) are not_supported, high confidence: the flagged list. (An unsure failure,
    `judgement.unsure_failure`, is not_supported with low confidence: never flagged, so
    these figures leave it out.)"""
    from verifier_core.verification.judgement.judge import OFF_TOPIC

    if "num_mismatch" not in names:  # the verifier before these rules
        return pred
    wrong = X[:, list(names).index("num_mismatch")] > 0
    return np.where(wrong | (X[:, list(names).index("cov_page")] < OFF_TOPIC), 2, pred)


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
