"""The suggestion rerank before and after issue 22's speed-up, on the same inputs.

    .venv/bin/python bench/bench_rerank.py [--claims 17] [--candidates 20]

Inputs: bench_pipeline's 50 pages (text extracted as a fetch extracts it) and its article's
claims; each claim gets `--candidates` pages as its retrieved candidates (the page after
its own, and on), as a suggestion search hands them to the verifier. The old code path
(`Verifier.rerank` as it was at SPEED22_BASE: one `score_source` per candidate, so a small
cross-encoder batch and a claim-level judgement per candidate) runs from that commit
itself (bench/baseline.py), the new one in this process, on the same model, one after the
other on this machine. Prints the seconds of each and checks that both rank the candidates
alike: same order, same verdicts, same evidence, scores equal to 1e-5 (the cross-encoder
reads the passages in other batches, which moves a float in its last digits). Exits 1 when
they differ.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_22_BASE as SPEED22_BASE, baseline_tree, run_in  # noqa: E402
from bench.bench_pipeline import make_sources  # noqa: E402
from bench.machine import load_line  # noqa: E402

TOLERANCE = 1e-5

RERANK = """
import time
import torch
from verifier_core.verification import ClaimInput, Verifier
torch.set_num_threads(payload["threads"])
verifier = Verifier.load(__import__("pathlib").Path(payload["model"]))
verifier.rerank(ClaimInput("warm up", title="Warm"), ["A warm-up page. It says nothing much at all."])
out, began = [], time.perf_counter()
for item in payload["items"]:
    ranked = verifier.rerank(ClaimInput(item["claim"], title=item["title"]), item["candidates"])
    out.append([[i, v.score, v.verdict, v.evidence.to_json() if v.evidence else None] for i, v in ranked])
print(json.dumps({"seconds": time.perf_counter() - began, "ranked": out}))
"""


def inputs(claims: int, candidates: int) -> list[dict]:
    from verifier_core.fetch.extract import html_extract

    with tempfile.TemporaryDirectory() as tmp:
        pages = make_sources(Path(tmp), 50)
        texts = [html_extract((Path(tmp) / "pages" / name).read_text(encoding="utf-8"), None).text
                 for name, _ in pages]
    # Every third claim is the miscited one the suggestion stage exists for.
    return [{"claim": claim, "title": "Bench article",
             "candidates": [texts[(n + 1 + k) % len(texts)] for k in range(candidates)]}
            for n, (_, claim) in enumerate(pages) if n % 3 == 0][:claims]


def differences(before: list, after: list) -> list[str]:
    found = []
    for n, (old, new) in enumerate(zip(before, after)):
        if [o[0] for o in old] != [o[0] for o in new]:
            found.append(f"claim {n}: order {[o[0] for o in old]} != {[o[0] for o in new]}")
        for (i, s0, v0, e0), (_, s1, v1, e1) in zip(old, new):
            if v0 != v1 or e0 != e1 or abs(s0 - s1) > TOLERANCE:
                found.append(f"claim {n} candidate {i}: {v0} {s0:.6f} vs {v1} {s1:.6f}"
                             f"{'' if e0 == e1 else ', evidence differs'}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--claims", type=int, default=17)
    parser.add_argument("--candidates", type=int, default=20)
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    print(load_line("before the run"))
    payload = {"items": inputs(args.claims, args.candidates), "model": args.model, "threads": args.threads}
    with baseline_tree(SPEED22_BASE) as folder:
        before = run_in(folder, RERANK, payload)
    after = run_in(str(ROOT), RERANK, payload)
    found = differences(before["ranked"], after["ranked"])
    print(f"command: .venv/bin/python bench/bench_rerank.py --claims {args.claims} --candidates {args.candidates}")
    print(f"\n| rerank of {args.candidates} candidate pages, {args.claims} claims, {args.threads} torch threads | s | s per claim |")
    print("|---|---|---|")
    for name, run in ((f"before ({SPEED22_BASE[:7]}: one score_source per candidate)", before),
                      ("after (one cross-encoder run over the distinct passages)", after)):
        print(f"| {name} | {run['seconds']:.1f} | {run['seconds'] / max(1, args.claims):.2f} |")
    print(f"\nsame ranking, verdicts and evidence, scores within {TOLERANCE}: "
          f"{'yes' if not found else 'NO'} ({len(before['ranked'])} claims)")
    for line in found[:20]:
        print("  ", line)
    print(load_line("after the run"))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
