"""The suggestion rerank of an older commit and of this tree, on the same inputs, side by side.

    .venv/bin/python bench/bench_rerank.py [--claims 17] [--candidates 20] [--before COMMIT]
        [--group 17] [--quant] [--wice N]

Inputs: bench_pipeline's 50 pages (text extracted as a fetch extracts it) and its article's
claims; each claim gets `--candidates` pages as its retrieved candidates (the page after
its own, and on), as a suggestion search hands them to the verifier. With `--wice N`: the
first N claims of WiCE dev (/work/shared/data/wice, read at run time), each with its own
cited page first, then the next claims' pages. Runs, each in its own process, one after the
other on this machine, on the same model:

* before: `Verifier.rerank` of `--before` (default SPEED22_BASE, main before issue 22: one
  `score_source` per candidate), one claim at a time, from that commit itself
  (bench/baseline.py);
* after, one claim at a time: this tree's `rerank`;
* after, batched: this tree's `rerank_many`, `--group` claims a call (as the suggestion stage
  hands them over: one article's claims together);
* with `--quant`: the batched run again with int8 dynamic quantisation of the cross-encoder's
  Linear layers (SIDE_VERIFIER_QUANT=int8), and its agreement with this tree's fp32: same
  candidate verdicts, same top suggestion, same ranking, mean and largest |score difference|
  (on WiCE, the verdict of each claim's own cited page too).

Prints the seconds of each and checks that before and after (both fp32 runs) rank the
candidates alike: same order, same verdicts, same evidence, scores equal to 1e-5 (the
cross-encoder reads the passages in other batches, which moves a float in its last digits).
Exits 1 when they differ; int8's differences are reported, never a failure.
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
WICE = Path("/work/shared/data/wice")

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

# This tree only: `rerank_many` over `group` claims a call, fp32 or int8.
RERANK_MANY = """
import time
import torch
from verifier_core.verification import ClaimInput, Verifier
torch.set_num_threads(payload["threads"])
verifier = Verifier.load(__import__("pathlib").Path(payload["model"]), quantize=payload["quantize"])
verifier.rerank(ClaimInput("warm up", title="Warm"), ["A warm-up page. It says nothing much at all."])
items, group, out, began = payload["items"], payload["group"], [], time.perf_counter()
for at in range(0, len(items), group):
    chunk = [(ClaimInput(i["claim"], title=i["title"]), i["candidates"]) for i in items[at:at + group]]
    for ranked in verifier.rerank_many(chunk):
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


def wice_inputs(claims: int, candidates: int, folder: Path = WICE) -> list[dict]:
    """WiCE dev's first `claims` claims, each with its cited page first, then the pages of
    the claims after it (distinct pages), as a claim's retrieved candidates."""
    from verifier_core.verification.model.data import load_wice

    examples = [e for e in load_wice(folder) if e.source == "dev"]
    pages = list(dict.fromkeys(e.page for e in examples))
    out = []
    for e in examples[:claims]:
        at = pages.index(e.page)
        out.append({"claim": e.claim, "title": e.title,
                    "candidates": [pages[(at + k) % len(pages)] for k in range(min(candidates, len(pages)))]})
    return out


def agreement(fp32: list, int8: list) -> dict:
    """How the int8 rankings agree with fp32's on the same claims and candidates."""
    same_verdict = total = same_top = same_order = own_same = 0
    diffs = []
    for old, new in zip(fp32, int8):
        by_old, by_new = {o[0]: o for o in old}, {o[0]: o for o in new}
        same_top += bool(old and new and old[0][0] == new[0][0])
        same_order += [o[0] for o in old] == [o[0] for o in new]
        own_same += bool(old and by_old[0][2] == by_new[0][2])
        for i, o in by_old.items():
            total += 1
            same_verdict += o[2] == by_new[i][2]
            diffs.append(abs(o[1] - by_new[i][1]))
    return {"claims": len(fp32), "candidates": total, "same_verdict": same_verdict, "same_top": same_top,
            "same_order": same_order, "own_page_same_verdict": own_same,
            "mean_diff": sum(diffs) / max(1, len(diffs)), "max_diff": max(diffs, default=0.0)}


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
    parser.add_argument("--before", default=SPEED22_BASE, help="commit whose rerank runs first, one claim at a time")
    parser.add_argument("--group", type=int, default=17, help="claims a rerank_many call in the batched run")
    parser.add_argument("--quant", action="store_true", help="also int8, with its agreement with fp32")
    parser.add_argument("--wice", type=int, default=0, help="WiCE dev's first N claims instead of the bench pages")
    args = parser.parse_args()
    print(load_line("before the run"))
    items = wice_inputs(args.wice, args.candidates) if args.wice else inputs(args.claims, args.candidates)
    payload = {"items": items, "model": args.model, "threads": args.threads, "quantize": False}
    with baseline_tree(args.before) as folder:
        before = run_in(folder, RERANK, payload)
    runs = {f"before ({args.before[:7]}), one claim at a time": before,
            "after, one claim at a time (rerank)": run_in(str(ROOT), RERANK, payload),
            f"after, batched (rerank_many, {args.group} claims a call)": run_in(
                str(ROOT), RERANK_MANY, {**payload, "group": args.group})}
    if args.quant:
        runs["after, batched, int8 (SIDE_VERIFIER_QUANT=int8)"] = run_in(
            str(ROOT), RERANK_MANY, {**payload, "group": args.group, "quantize": True})
    report(args, items, runs)


def report(args, items: list, runs: dict) -> None:
    names = list(runs)
    found = [f"{name}: {line}" for name in names[1:3] for line in differences(runs[names[0]]["ranked"], runs[name]["ranked"])]
    print(f"command: .venv/bin/python bench/bench_rerank.py --claims {args.claims} --candidates {args.candidates} "
          f"--before {args.before[:7]} --group {args.group}" + (" --quant" if args.quant else "")
          + (f" --wice {args.wice}" if args.wice else ""))
    what = f"WiCE dev, {len(items)} claims" if args.wice else f"bench pages, {len(items)} claims"
    print(f"\n| rerank of {args.candidates} candidate pages, {what}, {args.threads} torch threads | s | s per claim | claims/s |")
    print("|---|---|---|---|")
    for name, run in runs.items():
        print(f"| {name} | {run['seconds']:.1f} | {run['seconds'] / max(1, len(items)):.2f} | "
              f"{len(items) / max(run['seconds'], 1e-9):.2f} |")
    print(f"\nfp32 runs of this tree against before: same ranking, verdicts and evidence, scores within {TOLERANCE}: "
          f"{'yes' if not found else 'NO'} ({len(items)} claims)")
    for line in found[:20]:
        print("  ", line)
    if args.quant:
        a = agreement(runs[names[2]]["ranked"], runs[names[3]]["ranked"])
        print(f"\nint8 against fp32 (this tree, batched): candidate verdicts the same {a['same_verdict']}/{a['candidates']}, "
              f"top suggestion the same {a['same_top']}/{a['claims']}, whole ranking the same {a['same_order']}/{a['claims']}, "
              f"|score difference| mean {a['mean_diff']:.4f}, largest {a['max_diff']:.4f}"
              + (f"; verdict of the claim's own cited page the same {a['own_page_same_verdict']}/{a['claims']}"
                 if args.wice else ""))
    print(load_line("after the run"))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
