"""Milvus (milvus-lite, embedded) beside this project's index, on the same WiCE passages and
the same vectors: quality (P@1, success@10/100 by page), query latency and memory.

The passages, their embeddings and the encoder come from an index built by
bench_encoding.py (so both engines search identical vectors); Milvus gets the passage
text for its own BM25 (full-text search with its built-in analyzer) and the vectors for
dense search, and the two lists are fused with the same RRF as ours.

    .venv/bin/pip install pymilvus==3.0.2 milvus-lite==3.2.2   # not in requirements.txt: bench only
    .venv/bin/python bench/bench_milvus.py --index /tmp/side-bench-encoding/minilm/index-...
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_retrieval_quality import KS, WICE, run, wice_pages_and_queries  # noqa: E402

DEPTH = 100


def rss_mb(pid: int | None = None) -> float:
    import psutil

    proc = psutil.Process(pid or os.getpid())
    return sum(p.memory_info().rss for p in [proc] + proc.children(recursive=True)) / 2**20


def milvus_collection(client, snap, dim: int) -> float:
    """Loads every passage into a new collection; returns seconds (insert + index)."""
    import numpy as np
    from pymilvus import DataType, Function, FunctionType

    schema = client.create_schema(auto_id=False)
    schema.add_field("id", DataType.INT64, is_primary=True)
    schema.add_field("doc", DataType.INT64)
    schema.add_field("text", DataType.VARCHAR, max_length=8192, enable_analyzer=True)
    schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    schema.add_field("dense", DataType.FLOAT_VECTOR, dim=dim)
    schema.add_function(Function(name="bm25", function_type=FunctionType.BM25,
                                 input_field_names=["text"], output_field_names=["sparse"]))
    index = client.prepare_index_params()
    index.add_index("dense", index_type="FLAT", metric_type="IP")
    index.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
    started = time.perf_counter()
    client.create_collection("passages", schema=schema, index_params=index)
    emb = np.concatenate([np.asarray(s.embeddings, dtype=np.float32) for s in snap.stores])
    rows = [{"id": i, "doc": int(snap.doc_of[i]), "text": f"{snap.titles[snap.doc_of[i]]}\n{snap.passage(i).text}"[:8000],
             "dense": emb[i].tolist()} for i in range(len(snap))]
    for lo in range(0, len(rows), 2000):
        client.insert("passages", rows[lo : lo + 2000])
        print(f"milvus: {lo + 2000} rows inserted, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    client.load_collection("passages")
    return time.perf_counter() - started


def milvus_search(client, snap, vectors, texts):
    """Per query: document urls best first (hybrid: RRF of BM25 and dense top 100)."""
    from verifier_core.retrieval.fusion import rank_items, reciprocal_rank_fusion

    dense, sparse = [], []
    for lo in range(0, len(texts), 10):  # one request for all 349 queries never came back
        dense += client.search("passages", data=[v.tolist() for v in vectors[lo : lo + 10]], anns_field="dense",
                               limit=DEPTH, output_fields=["doc"])
        sparse += client.search("passages", data=list(texts[lo : lo + 10]), anns_field="sparse", limit=DEPTH,
                                output_fields=["doc"], search_params={"metric_type": "BM25"})
    out = []
    for d, s in zip(dense, sparse):
        fused = rank_items(reciprocal_rank_fusion([[h["id"] for h in s], [h["id"] for h in d]]))
        seen = dict.fromkeys(snap.urls[snap.doc_of[p]] for p in fused)
        out.append(list(seen))
    return out


def scores(ranked, queries) -> dict:
    p1 = sum(r[:1] == [gold] for r, (_, _, gold) in zip(ranked, queries)) / len(queries)
    result = {"P@1": p1}
    for k in KS[1:]:
        result[f"success@{k}"] = sum(gold in r[:k] for r, (_, _, gold) in zip(ranked, queries)) / len(queries)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", required=True, help="an index of the WiCE corpus from bench_encoding.py")
    parser.add_argument("--queries", type=int, default=None,
                        help="only the first N dev claims (milvus-lite's BM25 answered in about a second each here)")
    parser.add_argument("--latency-queries", type=int, default=20)
    args = parser.parse_args()
    if not WICE.is_dir():
        sys.exit(f"WiCE data not found at {WICE}")
    from pymilvus import MilvusClient

    from verifier_core.retrieval import RetrievalEngine

    engine = RetrievalEngine.load(args.index, auto_refresh=False)
    snap = engine._snap
    _, queries = wice_pages_and_queries(with_section=False)
    queries = queries[: args.queries] if args.queries else queries
    texts = [q.text() for _, q, _ in queries]
    vectors = engine.encoder.encode(texts)
    ours, _ = run(engine, queries, mode="hybrid", expand=False)
    before = rss_mb()
    print(f"ours: {ours}", file=sys.stderr, flush=True)
    ours_ms = []
    for (_, q, _) in queries[: args.latency_queries]:
        started = time.perf_counter()
        engine.search_many([q], k=10, mode="hybrid", expand=False)
        ours_ms.append(1000 * (time.perf_counter() - started))

    work = tempfile.mkdtemp(prefix="side-milvus-")
    client = MilvusClient(os.path.join(work, "milvus.db"))
    load_seconds = milvus_collection(client, snap, engine.encoder.dim)
    print(f"milvus: loaded in {load_seconds:.0f} s; searching", file=sys.stderr, flush=True)
    started = time.perf_counter()
    ranked = milvus_search(client, snap, vectors, texts)
    print(f"milvus: {len(texts)} queries in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    theirs = scores(ranked, queries)
    milvus_ms = []
    for i in range(args.latency_queries):
        started = time.perf_counter()
        milvus_search(client, snap, vectors[i : i + 1], texts[i : i + 1])
        milvus_ms.append(1000 * (time.perf_counter() - started) + 0.0)
    after = rss_mb()
    print(f"command: {' '.join([Path(sys.executable).name] + sys.argv)}")
    print(f"{len(snap)} passages, {len(queries)} queries, encoder {engine.encoder.name}; query encoding "
          "is left out of both latencies (shared)\n")
    print("| engine | hybrid P@1 | success@10 | success@100 | query p50 (ms) | load (s) | memory |")
    print("|---|---|---|---|---|---|---|")
    print(f"| this index (BM25 + faiss, RRF) | {ours['P@1']:.3f} | {ours['success@10']:.3f} | "
          f"{ours['success@100']:.3f} | {statistics.median(ours_ms):.1f} (with encoding) | - | "
          f"{before:.0f} MB (process) |")
    print(f"| milvus-lite (BM25 function + FLAT IP, same RRF) | {theirs['P@1']:.3f} | {theirs['success@10']:.3f} | "
          f"{theirs['success@100']:.3f} | {statistics.median(milvus_ms):.1f} | {load_seconds:.0f} | "
          f"+{after - before:.0f} MB (process and its server) |")


if __name__ == "__main__":
    main()
