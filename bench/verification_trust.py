"""Flag-trust figures for bench_verification_quality.py (issue 13): the verifier as it
was before (15 features, thresholds for accuracy and macro-F1) and as it is now (claim
parts and contradicted figures as features, the not_supported cut fitted for precision),
cross-validated side by side on the same features of the same run."""
from __future__ import annotations

import random
import time

import numpy as np

from verifier_core.verification.judgement.calibration import fit_head
from verifier_core.verification.judgement.features import FEATURE_NAMES
from verifier_core.verification.judgement.verdicts import Thresholds, _cuts, accuracy_cut
from verifier_core.verification.language.quantities import quantities
from verifier_core.verification.model.data import grouped_folds, train_indices
from verifier_core.verification.model.evaluation import apply_rules, cross_validate, mean_std
from verifier_core.verification.model.metrics import macro_f1
from verifier_core.verification.types import LABELS

LEGACY = list(FEATURE_NAMES[:15])  # the verdict head's features before issue 13
TRUST_KEYS = ("ns_precision", "flag_not_fully_precision", "ns_recall", "supported_flagged", "partial_flagged",
              "supported_not_quiet",
              "precision_at_15_recall", "roc_auc", "roc_auc_sup_vs_partial")
TRUST_HEAD = ("| verifier | not_supported precision | flags right as \"not fully supported\" | not_supported recall "
              "| supported flagged | partial flagged "
              "| supported given another verdict | precision at 15% recall | ROC-AUC (sup vs not) | ROC-AUC (sup vs partial) |")


def legacy_rule(score: np.ndarray, y: np.ndarray) -> Thresholds:
    """Before issue 13: the supported cut for supported-vs-rest accuracy, the not_supported
    cut for 3-way macro-F1, every verdict as sure as any other."""
    t_sup = accuracy_cut(score, y == 0)
    best = (-1.0, 0.0)
    for t in _cuts(score)[_cuts(score) <= t_sup]:
        pred = np.where(score >= t_sup, 0, np.where(score < t, 2, 1))
        best = max(best, (macro_f1(pred, y), float(t)))
    return Thresholds(supported=t_sup, not_supported=best[1])


def variants(X: np.ndarray) -> dict[str, tuple[np.ndarray, list[str], dict]]:
    names = list(FEATURE_NAMES)
    return {
        "before issue 13 (15 features; cuts for accuracy and macro-F1)": (X[:, :15], LEGACY, {"rule": legacy_rule}),
        "this verifier (+ claim parts, figures; not_supported cut at precision 0.8)": (X, names, {}),
    }


def pooled_over_seeds(X, examples, folds, seeds, names, **kw) -> dict:
    """Each seed's out-of-fold predictions pooled over its folds; mean ± std over seeds."""
    runs = [cross_validate(X, examples, folds, seed, names, **kw)["pooled"] for seed in seeds]
    return {key: mean_std([r[key] for r in runs]) for key in runs[0]}


def trust_table(X, examples, folds, seeds) -> str:
    lines = [TRUST_HEAD, "|---" * (len(TRUST_KEYS) + 1) + "|"]
    for label, (Xv, names, kw) in variants(X).items():
        m = pooled_over_seeds(Xv, examples, folds, seeds, names, **kw)
        lines.append(f"| {label} | " + " | ".join(f"{m[k]['mean']:.3f} ± {m[k]['std']:.3f}" for k in TRUST_KEYS) + " |")
    return "\n".join(lines)


def tradeoff_table(X, examples, folds, seeds, targets=(0.5, 0.6, 0.7, 0.8, 0.9)) -> str:
    """What the precision target buys: the not_supported verdict at other targets."""
    lines = ["| precision target | not_supported precision | not_supported recall | supported flagged | partial flagged |",
             "|---|---|---|---|---|"]
    for target in targets:
        m = pooled_over_seeds(X, examples, folds, seeds, list(FEATURE_NAMES), precision=target)
        keys = ("ns_precision", "ns_recall", "supported_flagged", "partial_flagged")
        lines.append(f"| {target:.1f} | " + " | ".join(f"{m[k]['mean']:.3f}" for k in keys) + " |")
    return "\n".join(lines)


def planted_claims(examples, rows, seed: int = 0) -> dict[int, str]:
    """FactCC-style swaps: in each supported claim, one figure the page gives replaced by
    another figure of the same kind (year for year) from the same page."""
    rng, out = random.Random(seed), {}
    for i in rows:
        ex = examples[i]
        page = quantities(ex.page)
        mine = [q for q in quantities(ex.claim) if q.value in {s.value for s in page}]
        if ex.label != "supported" or not mine:
            continue
        q = rng.choice(mine)
        others = [s for s in page if s.kind == q.kind and s.value != q.value]
        if others:
            out[i] = ex.claim[:q.start] + rng.choice(others).text + ex.claim[q.end:]
    return out


def like_for_like_swaps(examples, rows, seed: int = 0) -> dict[int, str]:
    """Planted figure errors as an editor could make them: in each supported claim, one figure
    the page states in a sentence of its body (not only in a byline, a menu or a heading)
    replaced by another figure of the page of the same kind about the same kind of thing (a
    year for a year, a count of the same noun, a length for a length: `comparable`), so that
    the page gives the claim's figure and the swap is a wrong value of it. `planted_claims`
    also puts in figures of other dimensions ("About $8.3 Million prior to the start of
    filming" for "About three months") and figures for which the page states nothing (a DOI
    for a date); no reason of the form "the source gives X, not Y" can be right about those."""
    from verifier_core.verification.evidence.sentences import body_sentences
    from verifier_core.verification.language.quantities import COMPARED, agrees, comparable

    rng, out = random.Random(seed), {}
    for i in rows:
        ex = examples[i]
        if ex.label != "supported":
            continue
        page = quantities(ex.page)
        body = [(s.start, s.end) for s in body_sentences(ex.page)]
        stated = [q for q in quantities(ex.claim) if q.kind in COMPARED and any(
            comparable(q, s) and agrees(q, s) and not s.page_date and any(a <= s.start < b for a, b in body)
            for s in page)]
        if not stated:
            continue
        q = rng.choice(stated)
        others = sorted({s.text for s in page if comparable(q, s) and not agrees(q, s) and not s.page_date})
        if others:
            out[i] = ex.claim[:q.start] + rng.choice(others) + ex.claim[q.end:]
    return out


def planted_supported(X, Xp: dict[int, np.ndarray], examples, folds: int, seed: int) -> dict[str, tuple[float, float]]:
    """Per variant: share of original and of planted claims called supported, each scored
    by the head of the fold its original claim was held out in."""
    y = np.array([LABELS.index(e.label) for e in examples])
    out = {}
    for label, (Xv, names, kw) in variants(X).items():
        cols = [list(FEATURE_NAMES).index(n) for n in names]
        orig, planted = [], []
        for test in grouped_folds(examples, folds, seed):
            train = [i for i in train_indices(examples, test) if examples[i].source == "dev"]
            head = fit_head(Xv[train], y[train], [examples[i].group for i in train], names, seed=seed, **kw)
            for i in (i for i in test if i in Xp):
                for target, row in ((orig, Xv[i]), (planted, Xp[i][cols])):
                    pred = apply_rules(np.array([LABELS.index(head.verdict(head.score(row[None, :])[0]))]), row[None, :], names)
                    target.append(pred[0] == 0)
        out[label] = (float(np.mean(orig)), float(np.mean(planted)))
    return out


def time_per_claim(model_dir, examples, rows, n: int = 40) -> tuple[float, float, float]:
    """(wall ms per claim through Verifier.score_source, cache off; CPU ms per claim, which
    a machine shared with other jobs does not inflate; ms of it for verdict, parts,
    figures and reason after the cross-encoder)."""
    from verifier_core.verification import ClaimInput, Verifier
    from verifier_core.verification.judgement.judge import judge
    from verifier_core.verification.model.cache import ScoreCache

    verifier = Verifier.load(model_dir, cache=ScoreCache(max_items=0))
    sample = rows[:n]
    verifier.score_source(ClaimInput(examples[sample[0]].claim), examples[sample[0]].page)  # warm-up
    started, cpu = time.perf_counter(), time.process_time()
    for i in sample:
        verifier.score_source(ClaimInput(examples[i].claim, title=examples[i].title), examples[i].page)
    total = 1000 * (time.perf_counter() - started) / len(sample)
    cpu_ms = 1000 * (time.process_time() - cpu) / len(sample)
    prepared = [verifier._prepare(ClaimInput(examples[i].claim), examples[i].page) for i in sample[:10]]
    started = time.perf_counter()
    for i, p in zip(sample, prepared):
        judge(examples[i].claim, [p.analysis], head=verifier.head, word_model=verifier.word_model)
    return total, cpu_ms, 1000 * (time.perf_counter() - started) / len(prepared)
