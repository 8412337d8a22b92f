"""Retrieval quality on WiCE: P@1, success@10, success@100 for sparse, sparse + anchor
expansion, dense and hybrid, plus the recall of the approximate dense index against
exact search on the same real embeddings.

Every evidence page of ../shared/data/wice (dev, nst_train, nst_dev) is a document (id:
a hash of its text); every dev claim, with its article title, is a query; its own page
is gold. The data is read at run time and never copied into the repository; the built
index goes to a work folder outside it (reused on the next run unless --rebuild).

    .venv/bin/python bench/bench_retrieval_quality.py [--work /tmp/side-bench-retrieval] [--rebuild]
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"
WICE = SHARED / "data" / "wice"
WIKITEXT = SHARED / "data" / "wikitext"
KS = [1, 10, 100]


def _literal(value):
    return ast.literal_eval(value) if isinstance(value, str) else value


def wice_pages_and_queries(with_section: bool):
    from verifier_core.retrieval import Document, Query

    pages: dict[str, Document] = {}
    queries = []
    for name in ("dev", "nst_train", "nst_dev"):
        with open(WICE / f"{name}.jsonl", encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                url = _add_page(pages, _literal(row["evidence"]), Document)
                if name == "dev":
                    meta = _literal(row["meta"])
                    section = (meta.get("claim_section") or "").rstrip(".") if with_section else ""
                    queries.append((meta["id"], Query(row["claim"], meta.get("claim_title") or "", section), url))
    return list(pages.values()), queries


META = "(meta data)"


def _add_page(pages, evidence: list[str], Document) -> str:
    url = "wice:" + hashlib.sha256("\n".join(evidence).encode()).hexdigest()[:20]
    if url not in pages:
        # WiCE marks page metadata lines with a "(meta data)" prefix; one holds the title.
        meta = [s.removeprefix(META).strip() for s in evidence if s.startswith(META)]
        title = next((m.split(":", 1)[1].strip() for m in meta if m.startswith("TITLE:")), "")
        body = "\n".join(s for s in evidence if not s.startswith(META))
        pages[url] = Document(url, title, body)
    return url


def anchors_file(work: Path) -> tuple[Path | None, str]:
    from verifier_core.retrieval import AnchorDictionary
    from verifier_core.wikitext import extract_links

    pages = sorted(WIKITEXT.glob("*.wiki"))
    links = [link for p in pages for link in extract_links(p.read_text(encoding="utf-8"))]
    anchors = AnchorDictionary.from_links(links)
    path = work / "anchors.json"
    anchors.save(path)
    return path, f"{len(pages)} shared wikitext articles, {len(links)} links, {len(anchors)} anchor texts"


def build_or_reuse(work: Path, docs, anchors: Path, rebuild: bool, stride: int):
    from verifier_core.retrieval import IndexConfig, MiniLMEncoder, RetrievalEngine
    from verifier_core.retrieval.builder import build_index
    from verifier_core.retrieval.corpus import CorpusReport, documents_checksum

    index = work / f"wice-index-100-{stride}"
    checksum = documents_checksum(docs)
    if not rebuild and (index / "current").exists():
        engine = RetrievalEngine.load(index, auto_refresh=False)
        if engine.manifest["corpus_checksum"] == checksum:
            return engine, None
    started = time.perf_counter()
    report = CorpusReport(lines=len(docs), documents=len(docs))
    build_index(index, docs, report, encoder=MiniLMEncoder(), config=IndexConfig(stride=stride),
                anchors_path=anchors, corpus_checksum=checksum)
    return RetrievalEngine.load(index, auto_refresh=False), time.perf_counter() - started


def run(engine, queries, **options):
    from verifier_core.retrieval.evaluation import evaluate

    started = time.perf_counter()
    results = engine.search_many([q for _, q, _ in queries], k=100, **options)
    seconds = time.perf_counter() - started
    gold = [{"id": qid, "output": [{"provenance": [{"url": url}]}]} for qid, _, url in queries]
    pred = [{"id": qid, "output": [{"provenance": [{"url": h.url} for h in hits]}]}
            for (qid, _, _), hits in zip(queries, results)]
    return evaluate(gold, pred, KS).scores, 1000 * seconds / len(queries)


def expansion_coverage(engine, queries) -> str:
    anchors = engine._snap.anchors
    resolved = expanded = 0
    for _, q, _ in queries:
        exp = anchors.expand(q.text())
        resolved += bool(exp.units)
        expanded += bool(exp.terms)
    return f"{resolved}/{len(queries)} queries had a unit resolved, {expanded} got expansion terms"


def approx_recall(engine, queries) -> list[str]:
    import numpy as np

    from verifier_core.retrieval.dense import DenseParams, build_ivf, flat_index, recall_at_k

    snap = engine._snap
    emb = np.concatenate([np.asarray(s.embeddings, dtype=np.float32) for s in snap.stores])
    qv = engine.encoder.encode([q.text() for _, q, _ in queries])
    _, exact = flat_index(emb).search(qv, 100)
    lines = []
    ivf = build_ivf(emb, DenseParams())
    for nprobe in (8, 16, 32, 64):
        ivf.nprobe = min(nprobe, ivf.nlist)
        started = time.perf_counter()
        _, approx = ivf.search(qv, 100)
        ms = 1000 * (time.perf_counter() - started) / len(qv)
        lines.append(f"| IVF{ivf.nlist},SQfp16 | {ivf.nprobe} ({ivf.nprobe / ivf.nlist:.1%} of lists) | "
                     f"{recall_at_k(approx, exact, 10):.3f} | "
                     f"{recall_at_k(approx, exact, 100):.3f} | {ms:.2f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default="/tmp/side-bench-retrieval", help="folder for the built index")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--stride", type=int, default=50)
    args = parser.parse_args()
    if not WICE.is_dir():
        sys.exit(f"WiCE data not found at {WICE}: this benchmark needs ../shared/data/wice")
    import faiss
    import torch

    torch.set_num_threads(2)
    faiss.omp_set_num_threads(2)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    docs, queries = wice_pages_and_queries(with_section=False)
    anchors, anchor_note = anchors_file(work)
    engine, build_seconds = build_or_reuse(work, docs, anchors, args.rebuild, args.stride)
    _, section_queries = wice_pages_and_queries(with_section=True)
    rows = [
        ("sparse (BM25)", queries, {"mode": "sparse", "expand": False}),
        ("sparse + anchor expansion", queries, {"mode": "sparse", "expand": True}),
        ("dense (MiniLM, exact)", queries, {"mode": "dense"}),
        ("hybrid (RRF 100+100)", queries, {"mode": "hybrid", "expand": False}),
        ("hybrid + anchor expansion", queries, {"mode": "hybrid", "expand": True}),
        ("hybrid, query + section title", section_queries, {"mode": "hybrid", "expand": False}),
    ]
    engine.encoder.encode(["warm up"])
    print(f"command: {' '.join([Path(sys.executable).name] + sys.argv)}\n")
    print(f"corpus: {len(docs)} WiCE evidence pages, {len(engine)} passages (100 words, stride {args.stride}); "
          f"{len(queries)} dev claims as queries (claim + article title); "
          + (f"index built in {build_seconds:.0f} s" if build_seconds else "index reused from the work folder"))
    print(f"anchor dictionary: {anchor_note}; {expansion_coverage(engine, queries)}\n")
    print("| retriever | P@1 | success@10 | success@100 | ms/query |\n|---|---|---|---|---|")
    for name, qs, options in rows:
        scores, ms = run(engine, qs, **options)
        print(f"| {name} | {scores['P@1']:.3f} | {scores['success@10']:.3f} | {scores['success@100']:.3f} | {ms:.1f} |")
    print("\nApproximate dense index vs exact search on the same real WiCE embeddings (recall of the exact top-k):\n")
    print("| index | nprobe | recall@10 | recall@100 | ms/query |\n|---|---|---|---|---|")
    print("\n".join(approx_recall(engine, queries)))


if __name__ == "__main__":
    main()
