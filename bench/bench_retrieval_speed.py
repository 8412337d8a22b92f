"""Retrieval speed: our BM25 vs rank-bm25 side by side at 100k passages, then hybrid
retrieval at 1M passages (query latency p50/p95, index build time, memory).

Corpora are synthetic (made-up words, Zipf-distributed, see verifier_core.retrieval.
synthetic). At 1M passages the passage embeddings are filler (clustered random unit
vectors) because encoding a million passages on 2 cores takes about an hour; queries
are still encoded by the real MiniLM model, so query latency is real. The 1M build and
the 1M queries run in separate processes so each memory figure is that phase's own.

    .venv/bin/python bench/bench_retrieval_speed.py [--passages 1000000] [--side-by-side 100000]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FILLER = "filler:clustered-random-unit-vectors/384"
WORDS_PER_DOC = 1000  # 100-word passages every 50 words: ~19 passages per document


def _threads() -> None:
    import faiss
    import torch

    torch.set_num_threads(2)
    faiss.omp_set_num_threads(2)


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2


def pct(values, q) -> float:
    return float(np.percentile(np.asarray(values) * 1000, q))


def corpus(passages: int, seed: int):
    from verifier_core.retrieval import synthetic

    return synthetic.documents(max(1, passages // 19), WORDS_PER_DOC, vocab_size=50_000, seed=seed)


# --- part 1: side by side -----------------------------------------------------------
def side_by_side(n: int, n_queries: int, n_ref_queries: int, work: Path) -> list[str]:
    from verifier_core.retrieval import synthetic
    from verifier_core.retrieval.corpus import iter_passages, sparse_text
    from verifier_core.retrieval.tokenize import tokenize

    docs = corpus(n, seed=1)
    tokens = [tokenize(sparse_text(p)) for p in iter_passages(docs)][:n]
    queries = [tokenize(q) for q, _ in synthetic.queries_from(docs, n_queries, words=12, seed=2)]
    ours_build, ours_times, ours_top = _time_ours(tokens, queries, work)
    ref_build, ref_times, ref_top = _time_rank_bm25(tokens, queries[:n_ref_queries])
    agree = [len(set(a.tolist()) & set(b.tolist())) / 10 for a, b in zip(ref_top, ours_top)]
    speedup = np.median(ref_times) / np.median(ours_times)
    return [
        f"Same {len(tokens):,} passages, same tokeniser, BM25 k1=1.5 b=0.75 Robertson idf (rank_bm25 "
        f"epsilon=0); queries of 12 words drawn from a document. rank-bm25 scores every passage in "
        f"Python, so only {len(ref_times)} of its queries were timed; ours ran {len(queries)}.\n",
        "| retriever | index build s | p50 ms/query | p95 ms/query | top-10 agreement |",
        "|---|---|---|---|---|",
        f"| ours (bm25s inverted index, weighted terms) | {ours_build:.1f} | {pct(ours_times, 50):.2f} | "
        f"{pct(ours_times, 95):.2f} | - |",
        f"| rank-bm25 BM25Okapi | {ref_build:.1f} | {pct(ref_times, 50):.1f} | {pct(ref_times, 95):.1f} | "
        f"{np.mean(agree):.3f} |",
        f"\nSpeed-up per query (median): **{speedup:.0f}x**",
    ]


def _time_ours(tokens, queries, work: Path):
    from verifier_core.retrieval.sparse import (
        Bm25Params, Bm25Segment, SparseSearcher, TokenIds, build_bm25, weights_for,
    )

    params = Bm25Params(k1=1.5, b=0.75, method="robertson")  # rank_bm25's formula (epsilon=0)
    started = time.perf_counter()
    ids = TokenIds()
    avg = build_bm25([ids.ids(t) for t in tokens], ids.vocab, params, work / "side-by-side-bm25")
    ours = SparseSearcher(params, Bm25Segment(work / "side-by-side-bm25", len(tokens)), avg, None)
    build = time.perf_counter() - started
    times, tops = [], []
    for q in queries:
        t0 = time.perf_counter()
        tops.append(ours.search(weights_for(q), 10)[0])
        times.append(time.perf_counter() - t0)
    return build, times, tops


def _time_rank_bm25(tokens, queries):
    from rank_bm25 import BM25Okapi

    started = time.perf_counter()
    ref = BM25Okapi(tokens, k1=1.5, b=0.75, epsilon=0.0)
    build = time.perf_counter() - started
    times, tops = [], []
    for q in queries:
        t0 = time.perf_counter()
        scores = ref.get_scores(q)
        tops.append(np.lexsort((np.arange(len(scores)), -scores))[:10])
        times.append(time.perf_counter() - t0)
    return build, times, tops


# --- part 2: 1M passages, two subprocesses --------------------------------------------
def filler_embed(dim: int = 384, clusters: int = 2048, seed: int = 7):
    centres = np.random.default_rng(seed).standard_normal((clusters, dim)).astype(np.float32)

    def embed(chunk, start: int) -> np.ndarray:
        rng = np.random.default_rng(seed + start)
        x = centres[rng.integers(clusters, size=len(chunk))]
        x = x + 0.6 * rng.standard_normal(x.shape, dtype=np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    return embed


class QueryEncoder:
    """Named like the filler so the index accepts it, but really runs MiniLM: the
    vectors cannot match filler passages, the time spent encoding is the real one."""

    name, dim = FILLER, 384

    def __init__(self):
        from verifier_core.retrieval import MiniLMEncoder

        self.real = MiniLMEncoder(max_length=128)

    def encode(self, texts):
        return self.real.encode(texts)


def bench_encoder(kind: str | None):
    """None: filler passage vectors with MiniLM queries; else that encoder for both, for real."""
    if kind is None:
        return QueryEncoder()
    from verifier_core.retrieval import make_encoder

    return make_encoder(kind, device="cpu")


def phase_build(n: int, work: Path, n_queries: int, approx_threshold: int, kind: str | None = None) -> dict:
    from verifier_core.progress import Progress
    from verifier_core.retrieval import DenseParams, IndexConfig, synthetic
    from verifier_core.retrieval.builder import build_index
    from verifier_core.retrieval.corpus import CorpusReport

    started = time.perf_counter()
    docs = corpus(n, seed=3)
    generated = time.perf_counter() - started
    queries = [q for q, _ in synthetic.queries_from(docs, n_queries, words=12, seed=4)]
    (work / "queries.json").write_text(json.dumps(queries))
    config = IndexConfig(dense=DenseParams(approx_threshold=approx_threshold))
    encoder = bench_encoder(kind)
    with Progress(total=len(docs), what="documents encoded", stream=sys.stderr, bar=False) as progress:
        report = build_index(work / "index-1m", docs, CorpusReport(documents=len(docs)), encoder=encoder,
                             embed=None if kind else filler_embed(), config=config, progress=progress,
                             log=lambda m: print(m, file=sys.stderr, flush=True))
    size = sum(p.stat().st_size for p in (work / "index-1m").rglob("*") if p.is_file())
    return {"passages": report.passages, "documents": report.documents, "build_s": report.seconds,
            "generate_s": generated, "peak_rss_gb": peak_rss_gb(), "disk_gb": size / 1024 ** 3,
            "dense": report.dense_kind}


def phase_query(work: Path, query_threads: int | None, kind: str | None = None) -> dict:
    from verifier_core.retrieval import RetrievalEngine
    from verifier_core.retrieval.dense import limited_threads

    started = time.perf_counter()
    engine = RetrievalEngine.load(work / "index-1m", encoder=bench_encoder(kind), auto_refresh=False,
                                  query_threads=query_threads)
    load_s = time.perf_counter() - started
    queries = json.loads((work / "queries.json").read_text())
    engine.search(queries[0], k=10)  # loads the model and warms the caches
    result = {"load_s": load_s}
    times = []
    for q in queries:
        t0 = time.perf_counter()
        with limited_threads(query_threads, 1):
            engine.encoder.encode([q])
        times.append(time.perf_counter() - t0)
    result["query encoding only"] = (pct(times, 50), pct(times, 95))
    for mode in ("sparse", "dense", "hybrid"):
        times = []
        for q in queries:
            t0 = time.perf_counter()
            engine.search(q, k=10, mode=mode, expand=False)
            times.append(time.perf_counter() - t0)
        result[mode] = (pct(times, 50), pct(times, 95))
    result["peak_rss_gb"] = peak_rss_gb()
    result["recall"] = ivf_recall(engine, n=100)
    return result


def ivf_recall(engine, n: int) -> dict:
    from verifier_core.retrieval.dense import recall_at_k

    store = engine._snap.stores[0]
    rows = np.random.default_rng(5).choice(len(store), size=n, replace=False)
    queries = np.asarray(store.embeddings[np.sort(rows)], dtype=np.float32)
    # A query near a passage, as a paraphrase would be: noise of norm ~0.7 on a unit
    # vector leaves a cosine of about 0.8 with the passage it came from.
    noise = np.random.default_rng(6).standard_normal(queries.shape, dtype=np.float32)
    queries += 0.7 * noise / np.sqrt(queries.shape[1])
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    best = np.full((n, 10), -np.inf, dtype=np.float32)
    best_ids = np.zeros((n, 10), dtype=np.int64)
    for lo in range(0, len(store), 200_000):  # exact top 10 by brute force, in chunks
        sims = queries @ np.asarray(store.embeddings[lo : lo + 200_000], dtype=np.float32).T
        cand = np.concatenate([best, sims], axis=1)
        cand_ids = np.concatenate([best_ids, np.arange(lo, lo + sims.shape[1])[None].repeat(n, 0)], axis=1)
        top = np.argsort(-cand, axis=1)[:, :10]
        best, best_ids = np.take_along_axis(cand, top, 1), np.take_along_axis(cand_ids, top, 1)
    index = engine._snap.loaded[0].dense
    if not hasattr(index, "nlist"):
        return {}  # exact index below the threshold: nothing to compare
    out = {"nlist": int(index.nlist)}
    for nprobe in (32, 128, 512):
        index.nprobe = nprobe
        _, approx = index.search(queries, 10)
        out[str(nprobe)] = recall_at_k(approx, best_ids, 10)
    return out


def run_phase(name: str, args, query_threads: int = 0) -> dict:
    cmd = [sys.executable, __file__, "--phase", name, "--work", args.work, "--passages", str(args.passages),
           "--queries", str(args.queries), "--approx-threshold", str(args.approx_threshold),
           "--query-threads", str(query_threads)] + (["--encoder", args.encoder] if args.encoder else [])
    done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--side-by-side", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rank-bm25-queries", type=int, default=10)
    parser.add_argument("--work", default="/tmp/side-bench-retrieval/speed")
    parser.add_argument("--approx-threshold", type=int, default=200_000, help="passages from which dense is IVF")
    parser.add_argument("--encoder", choices=["static", "minilm-int8", "minilm"], default=None,
                        help="encode the 1M passages for real with this encoder (default: filler vectors)")
    parser.add_argument("--phase", choices=["build", "query"], help=argparse.SUPPRESS)
    parser.add_argument("--query-threads", type=int, default=0, help=argparse.SUPPRESS)  # 0 = None
    args = parser.parse_args()
    _threads()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.phase:
        if args.phase == "build":
            result = phase_build(args.passages, work, args.queries, args.approx_threshold, args.encoder)
        else:
            result = phase_query(work, args.query_threads or None, args.encoder)
        print(json.dumps(result))
        return
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    print(f"command: {' '.join([Path(sys.executable).name] + sys.argv)}\n")
    if args.side_by_side:
        print(f"## Sparse: ours vs rank-bm25 at {args.side_by_side:,} passages\n")
        print("\n".join(side_by_side(args.side_by_side, args.queries, args.rank_bm25_queries, work)), flush=True)
    build = run_phase("build", args)
    # The process runs torch and faiss on 2 threads; the engine by default drops to one
    # thread while it answers a single query (query_threads=1). Both are measured.
    queries = {threads: run_phase("query", args, threads) for threads in (0, 1)}
    print_large(args, build, queries)


def print_large(args, build: dict, queries: dict) -> None:
    from verifier_core.retrieval import DenseParams

    query = queries[1]
    print(f"\n## Hybrid at {build['passages']:,} passages ({build['documents']:,} documents)\n")
    recall = query["recall"]
    kind = f"IVF{recall['nlist']} fp16 codes, nprobe {DenseParams().nprobe}" if recall else "exact IndexFlatIP"
    vectors = (f"encoded for real by `{args.encoder}`, passages and queries" if args.encoder else
               f"{FILLER} (filler, not encoded); queries encoded by MiniLM (real cost)")
    print(f"Passage embeddings: {vectors}. "
          f"Dense index: {kind}; "
          f"{args.queries} queries of 12 words, k=10, one query at a time, faiss on 2 threads.\n")
    print("| mode | p50 ms (engine default: 1 thread per query) | p95 ms | p50 ms (2 torch + 2 faiss threads) | p95 ms |")
    print("|---|---|---|---|---|")
    for mode in ("query encoding only", "sparse", "dense", "hybrid"):
        (a50, a95), (b50, b95) = queries[1][mode], queries[0][mode]
        print(f"| {mode} | {a50:.1f} | {a95:.1f} | {b50:.1f} | {b95:.1f} |")
    print("\n| measure | value |\n|---|---|")
    what = "encode, tokenise" if args.encoder else "tokenise"
    print(f"| index build ({what}, BM25, passage store, IVF; corpus generation excluded) | {build['build_s']:.0f} s |")
    print(f"| build throughput | {build['passages'] / build['build_s']:,.0f} passages/s |")
    print(f"| corpus generation (synthetic text) | {build['generate_s']:.0f} s |")
    print(f"| peak memory, build process | {build['peak_rss_gb']:.2f} GB |")
    print(f"| peak memory, query process (load + {args.queries * 4 + 1} queries; mapped index pages "
          f"included) | {query['peak_rss_gb']:.2f} GB |")
    print(f"| index load | {query['load_s']:.1f} s |")
    print(f"| index size on disk | {build['disk_gb']:.2f} GB |")
    if not recall:
        return
    print("\nIVF recall@10 against exact search on the filler vectors (100 perturbed passage vectors as queries):\n")
    print("| nprobe | recall@10 |\n|---|---|")
    for nprobe in (32, 128, 512):
        print(f"| {nprobe} | {recall[str(nprobe)]:.3f} |")


if __name__ == "__main__":
    main()
