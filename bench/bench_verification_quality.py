"""Cross-validated quality of the verifier vs the zero-shot bi-encoder, on WiCE `dev`.

    .venv/bin/python bench/bench_verification_quality.py [--model models/verifier]
        [--data ../shared/data/wice] [--folds 5] [--seeds 0,1,2] [--ablations]
        [--learning-curve] [--prefilter]

Every row refits its verdict layer inside the training folds (thresholds from inner
folds) and reports fold mean ± std over all seeds' folds. The shipped cross-encoder
never saw `dev` (it is trained on `nst_train`), so scoring `dev` with it is fair.
Prints markdown tables.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifier_core.verification.data import load_wice  # noqa: E402
from verifier_core.verification.evaluation import cross_validate, format_table  # noqa: E402
from verifier_core.verification.features import FEATURE_NAMES  # noqa: E402

LEXICAL = [n for n in FEATURE_NAMES if not n.startswith(("pair", "tok"))]


def baseline_scores(examples, rows) -> np.ndarray:
    """Zero-shot bi-encoder: max cosine(claim, 100-word passages, stride 50)."""
    from verifier_core.encoder import encode
    from verifier_core.text import word_passages

    out = np.zeros((len(examples), 1))
    for i in rows:
        texts = [p.text for p in word_passages(examples[i].page, 100, 50)]
        vectors = encode([examples[i].claim, *texts])
        out[i, 0] = float((vectors[1:] @ vectors[0]).max()) if texts else 0.0
    return out


def model_features(examples, rows, model_dir: Path | None, quantize: bool, top_k: int) -> tuple[np.ndarray, float]:
    """Features as the app computes them; model_dir None: the untrained cross-encoder
    (bi-encoder initialisation), to show what fine-tuning adds."""
    from verifier_core.encoder import base_model_dir, load_encoder
    from verifier_core.verification.model import build_model, load_model
    from verifier_core.verification.pipeline import claim_matrix
    from verifier_core.verification.scoring import _quantize

    if model_dir is None:
        model, config = build_model(base_model_dir()).eval(), {"max_length": 192, "passage_words": 64}
    else:
        model, config = load_model(model_dir)
    model = _quantize(model) if quantize else model
    config = dict(config, top_k=top_k)
    started = time.time()
    X = claim_matrix(model, load_encoder()[0], examples, rows, config)
    return X, 1000 * (time.time() - started) / len(rows)


def prefilter_recall(examples, rows, ks=(1, 2, 4, 8)) -> dict[str, list[float]]:
    """Share of supported / partially supported claims whose top-k passages include one
    holding a supporting sentence: BM25 (free) vs bi-encoder (encodes every passage)."""
    from verifier_core.encoder import encode
    from verifier_core.verification.engine import prepare_source
    from verifier_core.verification.trainset import _overlap, _supporting_spans

    hits: dict[str, list[list[bool]]] = {"BM25": [], "bi-encoder": [], "BM25 + bi-encoder (z-sum)": []}
    for i in rows:
        ex = examples[i]
        spans = [s for group in _supporting_spans(ex) for s in group]
        if ex.label == "not_supported" or not spans:
            continue
        prepared = prepare_source(ex.claim, ex.page, top_k=10**6)
        holds = np.array([_overlap(p, spans) > 0 for p in prepared.passages])
        vectors = encode([ex.claim, *[p.text for p in prepared.passages]])
        bm25, cos = np.array(prepared.bm25), vectors[1:] @ vectors[0]
        z = lambda v: (v - v.mean()) / (v.std() + 1e-9)  # noqa: E731
        for name, score in (("BM25", bm25), ("bi-encoder", cos), ("BM25 + bi-encoder (z-sum)", z(bm25) + z(cos))):
            order = np.argsort(-score, kind="stable")
            hits[name].append([bool(holds[order[:k]].any()) for k in ks])
    return {name: np.mean(rows_, axis=0).tolist() for name, rows_ in hits.items()}


def pooled(X, examples, folds, seeds, names, cols=None, **kw):
    """Cross-validate once per seed and pool the folds (mean ± std over all folds)."""
    X = X if cols is None else X[:, [names.index(c) for c in cols]]
    names = names if cols is None else cols
    runs = [cross_validate(X, examples, folds, seed, list(names), **kw) for seed in seeds]
    keys = runs[0]["metrics"].keys()
    folds_all = [m for r in runs for m in r["per_fold"]]
    return {"metrics": {k: {"mean": float(np.nanmean([m[k] for m in folds_all])), "std": float(np.nanstd([m[k] for m in folds_all]))} for k in keys}}


def ablations(examples, rows, model_dir: Path, X, args, seeds, table, timing, quantize: bool) -> None:
    names = list(FEATURE_NAMES)
    table["  lexical features only (no cross-encoder)"] = pooled(X, examples, args.folds, seeds, names, LEXICAL)
    table["  cross-encoder features only"] = pooled(X, examples, args.folds, seeds, names, [n for n in names if n not in LEXICAL])
    prec, other = ("int8", "fp32") if quantize else ("fp32", "int8")
    variants = ((f"untrained cross-encoder (bi-encoder init), {prec} top-4", None, quantize, 4),)
    variants += ((f"{other} top-4", model_dir, not quantize, 4), (f"{prec} top-2", model_dir, quantize, 2))
    variants += ((f"{prec} top-8", model_dir, quantize, 8),)
    for label, directory, quantize, k in variants:
        Xv, timing[label] = model_features(examples, rows, directory, quantize, k)
        table[f"  {label}"] = pooled(Xv, examples, args.folds, seeds, names)


def learning_curve(X, examples, rows, args, seeds, shares=(0.25, 0.5, 0.75)) -> dict:
    """The shipped features with the verdict head fitted on a share of each fold's
    training claims: does the supported-vs-rest figure still climb with more labels?
    (100% is the "this verifier" row.)"""
    train_claims = len(rows) * (args.folds - 1) / args.folds
    return {f"  head fitted on {share:.0%} of the training claims (~{share * train_claims:.0f})":
            pooled(X, examples, args.folds, seeds, list(FEATURE_NAMES), train_share=share) for share in shares}


def print_prefilter(examples, rows) -> None:
    print("\nEvidence recall of the pre-filter (a passage holding a supporting sentence among the top k):\n")
    print("| pre-filter | k=1 | k=2 | k=4 | k=8 |\n|---|---|---|---|---|")
    for name, recall in prefilter_recall(examples, rows).items():
        print(f"| {name} | " + " | ".join(f"{r:.3f}" for r in recall) + " |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ablations", action="store_true", help="also fp32, top-k, untrained and feature-group rows")
    parser.add_argument("--prefilter", action="store_true", help="also evidence recall of the passage pre-filters")
    parser.add_argument("--learning-curve", action="store_true", help="also the head fitted on 25/50/75%% of the training claims")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    seeds = [int(s) for s in args.seeds.split(",")]
    examples = load_wice(Path(args.data))
    rows = [i for i, e in enumerate(examples) if e.source == "dev"]
    model_dir = Path(args.model)
    quantize = json.loads((model_dir / "config.json").read_text()).get("quantize", False)
    shipped = f"{'int8' if quantize else 'fp32'} top-4"
    table, timing = {}, {}
    X, timing[shipped] = model_features(examples, rows, model_dir, quantize, 4)
    table["zero-shot bi-encoder (max cosine, 100-word passages)"] = pooled(baseline_scores(examples, rows), examples, args.folds, seeds, ["cosine"])
    table[f"this verifier (cross-encoder {shipped} passages + verdict head)"] = pooled(X, examples, args.folds, seeds, list(FEATURE_NAMES))
    if args.ablations:
        ablations(examples, rows, model_dir, X, args, seeds, table, timing, quantize)
    if args.learning_curve:
        table.update(learning_curve(X, examples, rows, args, seeds))
    print(f"`{' '.join(sys.argv)}`  ({len(rows)} dev claims, {args.folds}-fold grouped CV x seeds {args.seeds})\n")
    print(format_table(table))
    print("\n| path | feature ms per claim |\n|---|---|")
    for label, ms in timing.items():
        print(f"| {label} | {ms:.0f} |")
    if args.prefilter:
        print_prefilter(examples, rows)


if __name__ == "__main__":
    main()
