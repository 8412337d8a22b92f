"""Benchmark: how often the verifier says "the source gives X, not Y", before and after
issue 24, on WiCE (real claims and the pages they cite), in one run.

    .venv/bin/python bench/bench_figure_reasons.py [--split held-out|dev|all] [--data ../shared/data/wice]
        [--show supported]

A figure reason on a claim whose page fully supports it is a false one (target: at most
3% of supported claims). Before: figures compared by kind "year" or "number" only (the
code at bench/baseline.ISSUE_24_BASE, run from git); after: kinds and things (this
checkout). Planted swaps (bench/verification_trust.planted_claims, made by the baseline
code so both sides see the same claims): in each supported claim one figure the page
gives is replaced by another of the same kind from the same page; a swap is caught when
a figure reason is given. No model is needed: the reason comes from the figures alone.

Halves (`data.half`, a hash of each claim's group): issue 24's part B designed its rules
on the "dev" half only; the "held-out" half is the result, never looked at while
designing. `--split all` is both.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_24_BASE, baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402
from bench.verification_trust import planted_claims  # noqa: E402
from verifier_core.verification.data import HALVES, half, load_wice  # noqa: E402
from verifier_core.verification.quantities import mismatches  # noqa: E402

LABELS = ("supported", "partially_supported", "not_supported")
# Run inside the baseline tree: its own mismatches and its own planted swaps.
BEFORE = """
from pathlib import Path
from bench.verification_trust import planted_claims
from verifier_core.verification.data import load_wice
from verifier_core.verification.quantities import mismatches
examples = load_wice(Path(payload["data"]))
fires = [bool(mismatches(e.claim, e.page)) for e in examples]
rows = payload["rows"]
planted = planted_claims(examples, rows)
caught = {i: bool(mismatches(claim, examples[i].page)) for i, claim in planted.items()}
theirs = {i: bool(mismatches(claim, examples[int(i)].page)) for i, claim in payload["planted"].items()}
print(json.dumps({"fires": fires, "planted": planted, "caught": caught, "caught_new_swaps": theirs}))
"""


def rates(examples, fires: list[bool], split: str) -> dict[tuple[str, str], tuple[int, int]]:
    counts, totals = Counter(), Counter()
    for example, fired in zip(examples, fires):
        if not in_split(example, split):
            continue
        key = (example.source, example.label)
        totals[key] += 1
        counts[key] += fired
    return {key: (counts[key], totals[key]) for key in totals}


def in_split(example, split: str) -> bool:
    return split == "all" or half(example) == split


def share(pair: tuple[int, int]) -> str:
    hits, total = pair
    return f"{hits / total:6.1%} ({hits}/{total})" if total else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--split", choices=(*HALVES, "all"), default="held-out",
                        help="which half of the claims (data.half); held-out is the result")
    parser.add_argument("--show", choices=LABELS, help="print the reasons given to dev claims of this label")
    args = parser.parse_args()
    print(load_line("before the run"))
    examples = load_wice(Path(args.data))
    rows = [i for i, e in enumerate(examples) if e.source == "dev" and in_split(e, args.split)]
    # Today's swaps: figures of the new kinds (a count for a count of the same page...).
    new_swaps = planted_claims(examples, rows)
    with baseline_tree() as folder:
        before = run_in(folder, BEFORE, {"data": str(Path(args.data).resolve()), "planted": new_swaps, "rows": rows})
    after_fires = []
    for example in examples:
        found = mismatches(example.claim, example.page)
        after_fires.append(bool(found))
        if args.show and found and example.source == "dev" and example.label == args.show and in_split(
                example, args.split):
            print(f"  {'; '.join(m.reason for m in found)} | {example.claim[:120]}")
    old, new = rates(examples, before["fires"], args.split), rates(examples, after_fires, args.split)
    print(f"\nHalf: {args.split}. Figure reasons given (\"the source gives ..., not ...\"), "
          f"baseline {ISSUE_24_BASE[:7]} vs this checkout:\n")
    print("| data | label | before | after |\n|---|---|---|---|")
    for key in sorted(new, key=lambda k: (k[0] != "dev", k[0], LABELS.index(k[1]))):
        print(f"| {key[0]} | {key[1]} | {share(old[key])} | {share(new[key])} |")
    planted = {int(i): claim for i, claim in before["planted"].items()}
    caught_before = sum(before["caught"].values())
    caught_after = sum(bool(mismatches(claim, examples[i].page)) for i, claim in planted.items())
    print(f"\nPlanted figure swaps in supported dev claims, caught (a figure reason given):\n")
    print("| swaps made by | claims | before | after |\n|---|---|---|---|")
    print(f"| the baseline's figures (kinds year / number) | {len(planted)} | {share((caught_before, len(planted)))} "
          f"| {share((caught_after, len(planted)))} |")
    theirs_before = sum(before["caught_new_swaps"].values())
    theirs_after = sum(bool(mismatches(claim, examples[i].page)) for i, claim in new_swaps.items())
    print(f"| this checkout's figures (year, date, count, quantity...) | {len(new_swaps)} | "
          f"{share((theirs_before, len(new_swaps)))} | {share((theirs_after, len(new_swaps)))} |")
    supported = new[("dev", "supported")]
    kept = caught_after >= caught_before and theirs_after >= theirs_before
    verdict = "meets" if supported[0] <= 0.03 * supported[1] and kept else "MISSES"
    print(f"{verdict} the target: supported dev claims given a figure reason {share(supported)} (<= 3%), "
          f"planted swaps (both sets) caught at least as often as before")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
