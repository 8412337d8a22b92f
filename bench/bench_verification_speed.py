"""Speed side by side on the same claims and sources: the verifier's scoring path vs a
plain transformers path over the same trained weights.

    .venv/bin/python bench/bench_verification_speed.py [--model models/verifier] [--claims 120]

* verifier: BM25 pre-filter to the top-4 passages, max 192 pieces, batches sorted by
  length, in fp32 (as shipped) and with int8 dynamic quantisation (the score cache
  is disabled here).
* plain: fp32, max length 512, every passage of the source scored, batches in
  document order.
Both feed the same features to a verdict head; accuracy is cross-validated on the
benchmark's claims (heads refitted inside training folds) for each path, so neither
path is judged by a head fitted to its own test claims. Prints markdown tables.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifier_core.verification.judgement.features import (  # noqa: E402
    FEATURE_NAMES,
    claim_features,
    content_words,
    word_support_from_pieces,
)
from verifier_core.verification.model.data import load_wice  # noqa: E402
from verifier_core.verification.model.evaluation import cross_validate  # noqa: E402


def verifier_path(examples, rows, model_dir: Path, quantize: bool | None = None):
    from verifier_core.verification import ClaimInput, Verifier
    from verifier_core.verification.model.cache import ScoreCache

    verifier = Verifier.load(model_dir, cache=ScoreCache(max_items=0), quantize=quantize)
    X, pairs = np.zeros((len(examples), len(FEATURE_NAMES))), 0
    verifier.score_source(ClaimInput(examples[rows[0]].claim), examples[rows[0]].page)  # warm-up
    started = time.perf_counter()
    for i in rows:
        ex = examples[i]
        verdict = verifier.score_source(ClaimInput(ex.claim, title=ex.title), ex.page)
        X[i] = [verdict.features[n] for n in FEATURE_NAMES]
        pairs += len(verdict.passage_scores)
    return X, time.perf_counter() - started, pairs


def plain_path(examples, rows, model_dir: Path, batch_size: int = 16):
    """Every passage, fp32, up to 512 pieces, document-order batches, no cache."""
    import torch

    from verifier_core.encoder import load_encoder
    from verifier_core.verification.evidence.engine import prepare_source
    from verifier_core.verification.model.cross_encoder import load_model
    from verifier_core.verification.model.pairs import collate, encode_claim_pairs

    model, config = load_model(model_dir)
    tokenizer, _ = load_encoder()
    X, pairs = np.zeros((len(examples), len(FEATURE_NAMES))), 0
    started = time.perf_counter()
    for i in rows:
        ex = examples[i]
        prepared = prepare_source(ex.claim, ex.page, top_k=10**6, max_words=config["passage_words"])
        texts = [prepared.passages[j].text for j in prepared.selected]
        items = encode_claim_pairs(tokenizer, ex.claim, ex.title, texts, 512)
        probs, pieces = [], []
        with torch.inference_mode():
            for s in range(0, len(items), batch_size):
                batch = items[s : s + batch_size]
                pair, token = model(**collate(batch))
                probs += torch.sigmoid(pair).tolist()
                tok = torch.sigmoid(token).numpy()
                pieces += [tok[r, it.claim_slice[0] : it.claim_slice[1]].tolist() for r, it in enumerate(batch)]
        words = content_words(ex.claim)
        offsets = items[0].claim_offsets if items else []
        prepared.analysis.pair_probs = probs
        prepared.analysis.word_support = [word_support_from_pieces(p, offsets, words) for p in pieces]
        X[i] = claim_features(ex.claim, [prepared.analysis])
        pairs += len(items)
    return X, time.perf_counter() - started, pairs


def accuracy(X, examples, folds: int) -> dict:
    m = cross_validate(X, examples, folds, 0, list(FEATURE_NAMES))["metrics"]
    return {k: m[k]["mean"] for k in ("supported_vs_rest_accuracy", "accuracy_3way", "roc_auc")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--claims", type=int, default=0, help="first N dev claims (0: all)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    examples = load_wice(Path(args.data))
    rows = [i for i, e in enumerate(examples) if e.source == "dev"]
    rows = rows[: args.claims] if args.claims else rows
    subset = [examples[i] for i in rows]
    results = {}
    paths = (
        ("verifier fp32 (BM25 top-4, max 192, length batches)", lambda *a: verifier_path(*a, quantize=False)),
        ("verifier int8 (BM25 top-4, max 192, length batches)", lambda *a: verifier_path(*a, quantize=True)),
        ("plain transformers (fp32, max 512, all passages, document order)", plain_path),
    )
    for name, run in paths:
        X, seconds, pairs = run(examples, rows, Path(args.model))
        results[name] = (accuracy(X[rows], subset, args.folds), seconds, pairs)
    print(f"`{' '.join(sys.argv)}`  ({len(rows)} claims, one cited source each, {args.threads} threads)\n")
    print("| path | claim-source pairs/s | ms per claim | passage pairs scored | passage pairs/s | supported-vs-rest acc | 3-way acc | ROC-AUC |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (acc, seconds, pairs) in results.items():
        print(
            f"| {name} | {len(rows) / seconds:.2f} | {1000 * seconds / len(rows):.0f} | {pairs} | {pairs / seconds:.1f} "
            f"| {acc['supported_vs_rest_accuracy']:.3f} | {acc['accuracy_3way']:.3f} | {acc['roc_auc']:.3f} |"
        )
    plain = list(results.values())[-1][1]
    for name, (_, seconds, _) in list(results.items())[:-1]:
        print(f"\n{name}: {plain / seconds:.1f}x the plain path's throughput")


if __name__ == "__main__":
    main()
