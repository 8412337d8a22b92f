"""How far the not_supported ranking moves on this data (issue 13's recall target), for
bench_verification_quality.py --ceiling.

The recall target (precision >= 0.8 at recall >= 0.5) needs a ranking of not-supported
claims far better than the shipped score's. Each row here ranks the same `dev` claims out
of fold with another head, more features or fewer training claims; rank figures only, so
no threshold is fitted and nothing is chosen on the claims reported on. Every logistic
head keeps the shipped regularisation (calibration.HEAD_C, balanced classes).
"""
from __future__ import annotations

import time

import numpy as np

from verifier_core.verification.judgement.calibration import HEAD_BALANCED, HEAD_C, fit_logistic
from verifier_core.verification.judgement.features import FEATURE_NAMES, analyse_claim
from verifier_core.verification.model.data import grouped_folds, train_indices
from verifier_core.verification.model.evaluation import cross_validate, mean_std, share_of_groups
from verifier_core.verification.model.metrics import precision_at_recall, roc_auc
from verifier_core.verification.types import LABELS

SUMMARIES = ("word_mean", "word_supported_share", "part_max", "part_mean")
PART_PAIRS = ("part_pair_max", "part_pair_min")
CEILING_KEYS = ("auc", "p15", "p50")
NOT_SUPPORTED = LABELS.index("not_supported")


def summaries(examples, rows, analyses, words) -> np.ndarray:
    """What a claim's words and parts say beyond their minimum: means, maxima, the share
    of words supported (a partially supported claim has some; a not supported one none)."""
    out = np.zeros((len(examples), len(SUMMARIES)))
    for i in rows:
        found = analyse_claim(examples[i].claim, [analyses[i]], words)
        probs, parts = found.word_probs, found.part_scores
        out[i] = [probs.mean() if len(probs) else 1.0, (probs > 0.5).mean() if len(probs) else 1.0,
                  max(parts, default=1.0), float(np.mean(parts)) if parts else 1.0]
    return out


def part_pairs(model, tokenizer, config, examples, rows, X) -> tuple[np.ndarray, float]:
    """Each part of a multi-part claim cross-encoded on its own against its own top
    passages (WiCE's sub-claim checking); (best, weakest) part probability, and the extra
    ms per claim it costs. One-part claims keep their whole-claim probability."""
    from verifier_core.verification.evidence.engine import analyse
    from verifier_core.verification.evidence.parts import split_claim

    out, started = np.zeros((len(examples), len(PART_PAIRS))), time.perf_counter()
    for i in rows:
        ex, whole = examples[i], X[i, FEATURE_NAMES.index("pair_max")]
        parts = split_claim(ex.claim)
        probs = [max(analyse(model, tokenizer, p.text, ex.title, ex.page, config["top_k"], config["max_length"],
                             config["passage_words"]).analysis.pair_probs, default=0.0) for p in parts] if len(parts) > 1 else [whole]
        out[i] = [max(probs), min(probs)]
    return out, 1000 * (time.perf_counter() - started) / len(rows)


def _logistic(seed):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=HEAD_C, class_weight="balanced" if HEAD_BALANCED else None, max_iter=5000))


def _forest(seed):
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(500, min_samples_leaf=3, class_weight="balanced", random_state=seed)


def _boosting(seed):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_depth=3, learning_rate=0.05, max_iter=200, class_weight="balanced", random_state=seed)


def binary_oof(X, examples, folds, seed, make, share: float = 1.0) -> np.ndarray:
    """Out-of-fold P(not supported) of a not-supported-vs-rest classifier; `share` < 1
    fits each fold on that share of its training groups (drawn with the seed)."""
    y = np.array([e.label == "not_supported" for e in examples])
    rng = np.random.RandomState(seed)

    def risk(train, test):
        train = share_of_groups(examples, train, share, rng) if share < 1.0 else train
        return make(seed).fit(X[train], y[train]).predict_proba(X[test])[:, 1]
    return _out_of_fold(examples, folds, seed, risk)


def _multinomial_ns(X, examples, folds, seed) -> np.ndarray:
    """Out-of-fold P(not supported) of the shipped 3-way head (its fit, no thresholds)."""
    y = np.array([LABELS.index(e.label) for e in examples])

    def risk(train, test):
        head = fit_logistic(X[train], y[train], list(FEATURE_NAMES), HEAD_C, HEAD_BALANCED)
        return head.probs(X[test])[:, NOT_SUPPORTED]
    return _out_of_fold(examples, folds, seed, risk)


def _out_of_fold(examples, folds, seed, risk) -> np.ndarray:
    """risk(train rows, test rows) for each grouped fold; NaN on rows no fold tests."""
    oof = np.full(len(examples), np.nan)
    for test in grouped_folds(examples, folds, seed):
        oof[test] = risk([i for i in train_indices(examples, test) if examples[i].source == "dev"], test)
    return oof


def rank_figures(risk: np.ndarray, examples) -> dict[str, float]:
    """risk: higher = more likely not supported (NaN rows are not dev claims)."""
    seen = ~np.isnan(risk)
    positive = np.array([e.label == "not_supported" for e in examples])[seen]
    safe = -risk[seen]  # precision_at_recall reads the lowest scores first
    return {"auc": roc_auc(positive, risk[seen]), "p15": precision_at_recall(safe, positive, 0.15),
            "p50": precision_at_recall(safe, positive, 0.5)}


def ceiling_rows(X, extra: dict[str, np.ndarray], examples, folds, seeds) -> dict[str, dict]:
    """Row label -> figures (mean ± std over seeds) for every ranking tried."""
    names = list(FEATURE_NAMES)
    every = np.hstack([X, *extra.values()])

    rankings = {
        "this verifier's score (P(supported) + P(partial) / 2, shipped head)":
            lambda s: -cross_validate(X, examples, folds, s, names)["oof_score"],
        "P(not supported) of the shipped 3-way head": lambda s: _multinomial_ns(X, examples, folds, s),
        "not-supported-vs-rest logistic head, shipped features": lambda s: binary_oof(X, examples, folds, s, _logistic),
    }
    for label, block in extra.items():
        rankings[f"  + {label}"] = lambda s, b=block: binary_oof(np.hstack([X, b]), examples, folds, s, _logistic)
    rankings["  + all of these"] = lambda s: binary_oof(every, examples, folds, s, _logistic)
    rankings["random forest, all of these"] = lambda s: binary_oof(every, examples, folds, s, _forest)
    rankings["gradient boosting, all of these"] = lambda s: binary_oof(every, examples, folds, s, _boosting)
    for share in (0.25, 0.5, 0.75):
        rankings[f"logistic, all of these, on {share:.0%} of the training claims"] = (
            lambda s, f=share: binary_oof(every, examples, folds, s, _logistic, share=f))
    out = {}
    for label, rank in rankings.items():
        runs = [rank_figures(rank(seed), examples) for seed in seeds]
        out[label] = {key: mean_std([r[key] for r in runs]) for key in CEILING_KEYS}
    return out


def ceiling_table(rows: dict[str, dict]) -> str:
    lines = ["| ranking of not-supported claims | ROC-AUC (not vs rest) | precision at 15% recall | precision at 50% recall |",
             "|---|---|---|---|"]
    for label, m in rows.items():
        lines.append(f"| {label} | " + " | ".join(f"{m[k]['mean']:.3f} ± {m[k]['std']:.3f}" for k in CEILING_KEYS) + " |")
    return "\n".join(lines)
