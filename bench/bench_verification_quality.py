"""Cross-validated quality of the verifier vs the verifier before issue 13 and the
zero-shot bi-encoder, on WiCE `dev`, in one run.

    .venv/bin/python bench/bench_verification_quality.py [--model models/verifier]
        [--data ../shared/data/wice] [--folds 5] [--seeds 0,1,2] [--limit N] [--ablations]
        [--learning-curve] [--prefilter] [--ceiling]

Every row refits its verdict layer inside the training folds (thresholds from inner
folds, never from the fold reported on). The shipped cross-encoder and word model never
saw `dev` (both learn from `nst_train`), so scoring `dev` with them is fair. Prints
markdown tables: the flag-trust table (issue 13), the precision/recall trade-off of the
not_supported cut, planted figure swaps, claim-part figures and time per claim.
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

from bench.machine import load_line  # noqa: E402
from verifier_core.verification.judgement.features import FEATURE_NAMES  # noqa: E402
from verifier_core.verification.model.data import load_wice  # noqa: E402
from verifier_core.verification.model.evaluation import cross_validate, format_table  # noqa: E402

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


def model_features(examples, rows, model_dir: Path | None, quantize: bool, top_k: int, extra_rows=()) -> tuple[np.ndarray, float, dict]:
    """Features as the app computes them (and the analyses behind them); model_dir None:
    the untrained cross-encoder (bi-encoder initialisation), to show what fine-tuning adds."""
    from verifier_core.encoder import base_model_dir, load_encoder
    from verifier_core.verification.model.cross_encoder import build_model, load_model
    from verifier_core.verification.model.pipeline import analyse_rows, claim_matrix
    from verifier_core.verification.scoring import _quantize

    if model_dir is None:
        model, config = build_model(base_model_dir()).eval(), {"max_length": 192, "passage_words": 64}
    else:
        model, config = load_model(model_dir)
    model = _quantize(model) if quantize else model
    config = dict(config, top_k=top_k)
    tokenizer = load_encoder()[0]
    started = time.time()
    analyses = analyse_rows(model, tokenizer, examples, rows, config)
    ms = 1000 * (time.time() - started) / len(rows)
    analyses.update(analyse_rows(model, tokenizer, examples, list(extra_rows), config, "marked claims") if extra_rows else {})
    return claim_matrix(analyses, examples, rows, word_model(model_dir)), ms, analyses


def word_model(model_dir: Path | None):
    from verifier_core.verification.evidence.parts import UNTRAINED, WordModel
    from verifier_core.verification.scoring import WORD_MODEL_FILE

    path = model_dir / WORD_MODEL_FILE if model_dir else None
    return WordModel.from_dict(json.loads(path.read_text())) if path and path.exists() else UNTRAINED


def prefilter_recall(examples, rows, ks=(1, 2, 4, 8)) -> dict[str, list[float]]:
    """Share of supported / partially supported claims whose top-k passages include one
    holding a supporting sentence: BM25 (free) vs bi-encoder (encodes every passage)."""
    from verifier_core.encoder import encode
    from verifier_core.verification.evidence.engine import prepare_source
    from verifier_core.verification.model.trainset import _overlap, _supporting_spans

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
        Xv, timing[label], _ = model_features(examples, rows, directory, quantize, k)
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


def print_trust(args, examples, rows, X, analyses, model_dir: Path, seeds, ms) -> None:
    """Issue 13's figures: the flagged list's trust, before and now, side by side."""
    from bench.verification_trust import planted_claims, planted_supported, time_per_claim, tradeoff_table, trust_table
    from verifier_core.verification.model.wordtrain import test_words

    print("\nFlag trust (out-of-fold verdicts pooled over each seed's folds; mean ± std over seeds; "
          "\"flagged\" = the default list, i.e. a not_supported verdict):\n")
    print(trust_table(X, examples, args.folds, seeds))
    print("\nThe not_supported cut at other precision targets (this verifier):\n")
    print(tradeoff_table(X, examples, args.folds, seeds))
    planted = planted_claims(examples, rows)
    Xp = planted_features(examples, planted, model_dir)
    print(f"\nPlanted figure swaps ({len(planted)} supported claims, one figure swapped for another of the same kind "
          "from the same page; seed-0 folds):\n")
    print("| verifier | originals called supported | planted swaps called supported |\n|---|---|---|")
    for label, (orig, swapped) in planted_supported(X, Xp, examples, args.folds, seeds[0]).items():
        print(f"| {label} | {orig:.3f} | {swapped:.3f} |")
    marked = [i for i, e in enumerate(examples) if e.source == "nst_dev"]
    words = test_words(word_model(model_dir), examples, analyses, marked)
    print(f"\nClaim parts on `nst_dev` ({words['words']} marked words): word ROC-AUC {words['word_roc_auc']:.3f}; "
          f"the lowest-scoring word is unsupported in {words['weakest_word_hit_rate']:.0%} of claims "
          f"(chance {words['marked_share']:.0%})")
    total, cpu, rules = time_per_claim(model_dir, examples, rows)
    print(f"\nTime per claim (2 threads, cache off, 40 claims): {total:.0f} ms wall ({cpu:.0f} ms CPU over both threads) "
          f"through Verifier.score_source, of which {rules:.1f} ms verdict, parts, figures and reason; "
          f"features alone {ms:.0f} ms wall")


def print_ceiling(args, examples, rows, X, analyses, model_dir: Path, seeds, cosine) -> None:
    from bench.verification_ceiling import ceiling_rows, ceiling_table, part_pairs, summaries
    from verifier_core.encoder import load_encoder
    from verifier_core.verification.model.cross_encoder import load_model

    model, config = load_model(model_dir)
    pairs, ms = part_pairs(model, load_encoder()[0], config, examples, rows, X)
    extra = {"word and part means, best part, share of words supported": summaries(examples, rows, analyses, word_model(model_dir)),
             f"each claim part cross-encoded on its own (+{ms:.0f} ms per claim)": pairs,
             "zero-shot bi-encoder max cosine": cosine}
    print("\nHow far the not_supported ranking moves (out-of-fold, pooled per seed, mean ± std over seeds; "
          "rank figures, no threshold):\n")
    print(ceiling_table(ceiling_rows(X, extra, examples, args.folds, seeds)))


def planted_features(examples, planted: dict[int, str], model_dir: Path) -> dict:
    from verifier_core.encoder import load_encoder
    from verifier_core.verification.evidence.engine import analyse
    from verifier_core.verification.judgement.features import claim_features
    from verifier_core.verification.model.cross_encoder import load_model

    model, config = load_model(model_dir)
    tokenizer, words = load_encoder()[0], word_model(model_dir)
    out = {}
    for i, claim in planted.items():
        ex = examples[i]
        prepared = analyse(model, tokenizer, claim, ex.title, ex.page, config["top_k"], config["max_length"], config["passage_words"])
        out[i] = claim_features(claim, [prepared.analysis], words)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each file (quick runs)")
    parser.add_argument("--ablations", action="store_true", help="also fp32, top-k, untrained and feature-group rows")
    parser.add_argument("--prefilter", action="store_true", help="also evidence recall of the passage pre-filters")
    parser.add_argument("--ceiling", action="store_true", help="also how far other heads and features move the not_supported ranking")
    parser.add_argument("--learning-curve", action="store_true", help="also the head fitted on 25/50/75%% of the training claims")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    before = load_line("before the run")  # printed with the results: the time per claim depends on the host
    seeds = [int(s) for s in args.seeds.split(",")]
    examples = load_wice(Path(args.data), args.limit)
    rows = [i for i, e in enumerate(examples) if e.source == "dev"]
    marked = [i for i, e in enumerate(examples) if e.source == "nst_dev"]
    model_dir = Path(args.model)
    quantize = json.loads((model_dir / "config.json").read_text()).get("quantize", False)
    shipped = f"{'int8' if quantize else 'fp32'} top-4"
    table, timing = {}, {}
    X, timing[shipped], analyses = model_features(examples, rows, model_dir, quantize, 4, extra_rows=marked)
    cosine = baseline_scores(examples, rows)
    table["zero-shot bi-encoder (max cosine, 100-word passages)"] = pooled(cosine, examples, args.folds, seeds, ["cosine"])
    table[f"this verifier (cross-encoder {shipped} passages + verdict head)"] = pooled(X, examples, args.folds, seeds, list(FEATURE_NAMES))
    if args.ablations:
        ablations(examples, rows, model_dir, X, args, seeds, table, timing, quantize)
    if args.learning_curve:
        table.update(learning_curve(X, examples, rows, args, seeds))
    print(f"`{' '.join(sys.argv)}`  ({len(rows)} dev claims, {args.folds}-fold grouped CV x seeds {args.seeds})\n\n{before}\n")
    print(format_table(table))
    print("\n| path | feature ms per claim |\n|---|---|")
    for label, ms in timing.items():
        print(f"| {label} | {ms:.0f} |")
    print_trust(args, examples, rows, X, analyses, model_dir, seeds, timing[shipped])
    if args.prefilter:
        print_prefilter(examples, rows)
    if args.ceiling:
        print_ceiling(args, examples, rows, X, analyses, model_dir, seeds, cosine)
    print(f"\n{load_line('after the run')}")


if __name__ == "__main__":
    main()
