"""Passage encoding paths side by side: passages/s, index build time and hybrid retrieval
quality on WiCE, in one run, with today's path (MiniLM fp32 on the CPU) as the baseline.

For every encoder the whole WiCE evidence corpus (653 pages, 15,805 passages of 100
words, stride 50) is built into its own index; encoding time is measured inside the build
(the same 100-word passages, the same batches), so passages/s is the real rate of
`build_index`, and the 349 dev claims are retrieved from that index (hybrid, no anchors).
The 1M-passage build is projected from the measured rate plus the non-encoding part of a
1M build (tokenising, BM25, IVF: `--rest-1m`, from bench_retrieval_speed.py).

    .venv/bin/python bench/bench_encoding.py [--encoders minilm,minilm-int8,static] [--docs N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_retrieval_quality import WICE, run, wice_pages_and_queries  # noqa: E402

from bench.machine import load_line  # noqa: E402

REST_1M_SECONDS = 229.0  # bench_retrieval_speed.py: a 1M build with precomputed vectors


def build(work: Path, docs, encoder):
    """(engine, build seconds, encoding seconds, passages) for one encoder."""
    from verifier_core.retrieval import RetrievalEngine
    from verifier_core.retrieval.builder import build_index, encoder_embed
    from verifier_core.retrieval.corpus import CorpusReport

    encoding = [0.0]
    inner = encoder_embed(encoder)

    def timed(chunk, start):
        started = time.perf_counter()
        vectors = inner(chunk, start)
        encoding[0] += time.perf_counter() - started
        return vectors

    index = work / f"index-{encoder.name.replace('/', '_').replace(':', '_')}"
    report = CorpusReport(lines=len(docs), documents=len(docs))
    started = time.perf_counter()
    result = build_index(index, docs, report, encoder=encoder, embed=timed)
    seconds = time.perf_counter() - started
    engine = RetrievalEngine.load(index, encoder=encoder, auto_refresh=False)
    return engine, seconds, encoding[0], result.passages


def query_latency(engine, queries, n: int = 60) -> tuple[float, float]:
    """p50 of one query's encoding alone and of a whole hybrid search, in ms."""
    enc, total = [], []
    for _, q, _ in queries[:n]:
        started = time.perf_counter()
        engine.encoder.encode([q.text()])
        enc.append(time.perf_counter() - started)
        started = time.perf_counter()
        engine.search_many([q], k=10, mode="hybrid", expand=False)
        total.append(time.perf_counter() - started)
    return 1000 * statistics.median(enc), 1000 * statistics.median(total)


WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)


def fusion_cv(index: str, folds: int = 5) -> None:
    """RRF with the dense list weighted w (BM25 at 1): per-query P@1 for each w, then w
    chosen on 4 folds of the claims and scored on the fifth."""
    import numpy as np

    from verifier_core.retrieval import RetrievalEngine
    from verifier_core.retrieval.searching import SearchOptions, query_weights

    engine = RetrievalEngine.load(index, auto_refresh=False)
    snap, opts = engine._snap, SearchOptions(expand=False)
    _, queries = wice_pages_and_queries(with_section=False)
    dense = snap.dense.search(engine.encoder.encode([q.text() for _, q, _ in queries]), 100)
    hits = np.zeros((len(queries), len(WEIGHTS)))
    for i, (_, q, gold) in enumerate(queries):
        sparse_ids = snap.sparse.search(query_weights(snap, q.text(), opts), 100)[0]
        for j, w in enumerate(WEIGHTS):
            fused: dict[int, float] = {}
            for ids, weight in ((sparse_ids, 1.0), (dense[i][0], w)):
                for rank, p in enumerate(ids, start=1):
                    fused[int(p)] = fused.get(int(p), 0.0) + weight / (60 + rank)
            best = min(fused, key=lambda p: (-fused[p], p))
            hits[i, j] = snap.urls[snap.doc_of[best]] == gold
    fold = np.random.default_rng(0).permutation(len(queries)) % folds
    picks = [int(np.argmax(hits[fold != f].mean(0))) for f in range(folds)]
    held = np.mean([hits[fold == f, j].mean() for f, j in enumerate(picks)])
    print(f"command: {' '.join([Path(sys.executable).name] + sys.argv)}\nencoder {engine.encoder.name}")
    print("P@1 by dense weight (all claims): " + ", ".join(f"{w}: {m:.3f}" for w, m in zip(WEIGHTS, hits.mean(0))))
    print(f"weight chosen on each training fold: {[WEIGHTS[j] for j in picks]}; held-out P@1 {held:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default="/tmp/side-bench-encoding")
    parser.add_argument("--encoders", default="static,minilm-int8,minilm",
                        help="comma-separated: minilm, minilm-int8, static, minilm-gpu")
    parser.add_argument("--docs", type=int, default=None, help="only the first N pages (a quick look)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rest-1m", type=float, default=REST_1M_SECONDS,
                        help="seconds a 1M build spends outside encoding")
    parser.add_argument("--fusion-cv", metavar="INDEX", help="only: cross-validate the dense weight in RRF on INDEX")
    args = parser.parse_args()
    if args.fusion_cv:
        return fusion_cv(args.fusion_cv)
    if not WICE.is_dir():
        sys.exit(f"WiCE data not found at {WICE}: this benchmark needs ../shared/data/wice")
    import faiss
    import torch

    from verifier_core.retrieval import make_encoder

    torch.set_num_threads(args.threads)
    faiss.omp_set_num_threads(args.threads)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    docs, queries = wice_pages_and_queries(with_section=False)
    docs = docs[: args.docs] if args.docs else docs
    print(f"command: {' '.join([Path(sys.executable).name] + sys.argv)}")
    print(f"torch threads {torch.get_num_threads()}, GPU: "
          f"{torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none'}; {load_line('before the run')}\n")
    print("| encoder | dim | passages/s | build (s) | projected 1M build | hybrid P@1 | success@10 "
          "| success@100 | dense P@1 | query encode p50 (ms) | hybrid query p50 (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for kind in args.encoders.split(","):
        if kind == "minilm-gpu" and not torch.cuda.is_available():
            print(f"| {kind} | - | no GPU here | | | | | | | | |")
            continue
        encoder = make_encoder("minilm" if kind == "minilm-gpu" else kind,
                               device="cuda" if kind == "minilm-gpu" else "cpu",
                               cache_dir=work / "encoders")
        encoder.encode(["warm up: loads (or distils) the model outside the timing"])
        engine, seconds, encoding, passages = build(work / kind, docs, encoder)
        rate = passages / encoding
        projected = 1_000_000 / rate + args.rest_1m
        hybrid, _ = run(engine, queries, mode="hybrid", expand=False)
        dense, _ = run(engine, queries, mode="dense")
        enc_ms, query_ms = query_latency(engine, queries)
        print(f"| {kind} | {encoder.dim} | {rate:,.0f} | {seconds:.0f} | {projected / 3600:.1f} h "
              f"| {hybrid['P@1']:.3f} | {hybrid['success@10']:.3f} | {hybrid['success@100']:.3f} "
              f"| {dense['P@1']:.3f} | {enc_ms:.1f} | {query_ms:.1f} |", flush=True)
    print(f"\n{passages} passages per build; projected 1M build = 1M / passages/s + {args.rest_1m:.0f} s "
          "(tokenising, BM25, IVF at 1M, measured with precomputed vectors): a projection, not a run.")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
