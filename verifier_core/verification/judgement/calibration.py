"""The verdict layer: a calibrated multinomial logistic head over claim features.

Score = P(supported) + 0.5 * P(partially supported), in [0, 1], higher = better
supported. Verdicts and their confidence are cuts on that score (verdicts.Thresholds),
so a list sorted by score is also sorted by verdict. The cuts are chosen on out-of-fold
predictions inside the training data (never on the claims a reported metric is computed on), and stored
with the model; numpy alone applies the head at run time.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from verifier_core.verification.judgement.verdicts import PRECISION_TARGET, Thresholds, fit_thresholds
from verifier_core.verification.model.metrics import group_folds
from verifier_core.verification.types import Verdict


@dataclass
class VerdictHead:
    feature_names: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[list[float]]  # (3, F), rows in LABELS order
    intercept: list[float]
    t_supported: float = 0.5
    t_not_supported: float = 0.2
    t_confident_supported: float | None = None  # older heads: every supported is high

    def probs(self, X: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(X) - np.array(self.mean)) / np.array(self.scale)
        logits = z @ np.array(self.coef).T + np.array(self.intercept)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    def score(self, X: np.ndarray) -> np.ndarray:
        p = self.probs(X)
        return p[:, 0] + 0.5 * p[:, 1]

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(self.t_supported, self.t_not_supported, self.t_confident_supported)

    def verdict(self, score: float) -> Verdict:
        return self.thresholds.decide(score)[0]

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


# Strong regularisation and balanced classes won in grouped CV (C in 0.03..0.3, with
# and without balance; 10 seeds): a few hundred claims, correlated features.
HEAD_C = 0.03
HEAD_BALANCED = True


def fit_head(X, y, groups, names, C: float = HEAD_C, balanced: bool = HEAD_BALANCED, inner_folds: int = 5, seed: int = 0,
             precision: float = PRECISION_TARGET, rule=None) -> VerdictHead:
    """Fit on all of (X, y); thresholds from inner grouped out-of-fold scores (by `rule`,
    a function (scores, y) -> Thresholds; default: fitted to `precision`)."""
    oof = np.zeros(len(y))
    for train, test in group_folds(y, groups, inner_folds, seed):
        oof[test] = fit_logistic(X[train], y[train], names, C, balanced).score(X[test])
    head = fit_logistic(X, y, names, C, balanced)
    t = rule(oof, y) if rule is not None else fit_thresholds(oof, y, precision)
    head.t_supported, head.t_not_supported, head.t_confident_supported = t.supported, t.not_supported, t.confident_supported
    return head
