"""The verdict layer: a calibrated multinomial logistic head over claim features.

Score = P(supported) + 0.5 * P(partially supported), in [0, 1], higher = better
supported. Verdicts are two thresholds on that score, so a list sorted by score is
also sorted by verdict. The thresholds are chosen on out-of-fold predictions inside
the training data (never on the claims a reported metric is computed on), and stored
with the model; numpy alone applies the head at run time.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

LABELS = ("supported", "partially_supported", "not_supported")


@dataclass
class VerdictHead:
    feature_names: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[list[float]]  # (3, F), rows in LABELS order
    intercept: list[float]
    t_supported: float = 0.5
    t_not_supported: float = 0.2

    def probs(self, X: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(X) - np.array(self.mean)) / np.array(self.scale)
        logits = z @ np.array(self.coef).T + np.array(self.intercept)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    def score(self, X: np.ndarray) -> np.ndarray:
        p = self.probs(X)
        return p[:, 0] + 0.5 * p[:, 1]

    def verdict(self, score: float) -> str:
        if score >= self.t_supported:
            return "supported"
        if score < self.t_not_supported:
            return "not_supported"
        return "partially_supported"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "VerdictHead":
        return cls(**data)


def fit_logistic(X: np.ndarray, y: np.ndarray, names, C: float, balanced: bool) -> VerdictHead:
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    if len(set(y.tolist())) < 2:  # tiny subsets: predict the one class seen
        intercept = np.full(3, -30.0)
        intercept[int(y[0]) if len(y) else 1] = 0.0
        return VerdictHead(list(names), mean.tolist(), scale.tolist(), np.zeros((3, X.shape[1])).tolist(), intercept.tolist())
    model = LogisticRegression(C=C, max_iter=5000, class_weight="balanced" if balanced else None)
    model.fit((X - mean) / scale, y)
    coef = np.zeros((3, X.shape[1]))
    intercept = np.full(3, -30.0)  # a class absent from training is never predicted
    if len(model.classes_) == 2:  # sklearn gives one row (for the second class) for two
        a, b = (int(c) for c in model.classes_)
        coef[a], coef[b] = -model.coef_[0] / 2, model.coef_[0] / 2
        intercept[a], intercept[b] = -model.intercept_[0] / 2, model.intercept_[0] / 2
    else:
        for row, cls in enumerate(model.classes_):
            coef[int(cls)], intercept[int(cls)] = model.coef_[row], model.intercept_[row]
    return VerdictHead(list(names), mean.tolist(), scale.tolist(), coef.tolist(), intercept.tolist())


def choose_thresholds(score: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """t_supported maximises supported-vs-rest accuracy; t_not then maximises macro-F1."""
    grid = np.unique(np.round(score, 4))
    cuts = np.concatenate([[0.0], (grid[:-1] + grid[1:]) / 2, [1.0]]) if len(grid) else np.array([0.5])
    acc = [((score >= t) == (y == 0)).mean() for t in cuts]
    t_sup = float(cuts[int(np.argmax(acc))])
    best = (-1.0, 0.0)
    for t in cuts[cuts <= t_sup]:
        pred = np.where(score >= t_sup, 0, np.where(score < t, 2, 1))
        best = max(best, (macro_f1(pred, y), float(t)))
    return t_sup, best[1]


def macro_f1(pred: np.ndarray, y: np.ndarray) -> float:
    scores = []
    for c in range(3):
        tp = np.sum((pred == c) & (y == c))
        denom = np.sum(pred == c) + np.sum(y == c)
        scores.append(2 * tp / denom if denom else 0.0)
    return float(np.mean(scores))


# Strong regularisation and balanced classes won in grouped CV (C in 0.03..0.3, with
# and without balance; 10 seeds): a few hundred claims, correlated features.
HEAD_C = 0.03
HEAD_BALANCED = True


def fit_head(X, y, groups, names, C: float = HEAD_C, balanced: bool = HEAD_BALANCED, inner_folds: int = 5, seed: int = 0) -> VerdictHead:
    """Fit on all of (X, y); thresholds from inner grouped out-of-fold scores."""
    oof = np.zeros(len(y))
    for test in _group_split(groups, inner_folds, seed):
        train = np.setdiff1d(np.arange(len(y)), test)
        oof[test] = fit_logistic(X[train], y[train], names, C, balanced).score(X[test])
    head = fit_logistic(X, y, names, C, balanced)
    head.t_supported, head.t_not_supported = choose_thresholds(oof, y)
    return head


def _group_split(groups, k: int, seed: int) -> list[np.ndarray]:
    rng = np.random.RandomState(seed)
    keys = sorted(set(groups))
    rng.shuffle(keys)
    fold_of = {g: n % k for n, g in enumerate(keys)}
    assign = np.array([fold_of[g] for g in groups])
    return [np.flatnonzero(assign == f) for f in range(k) if np.any(assign == f)]
