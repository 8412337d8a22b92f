"""Benchmark: how often the verifier says "the source gives X, not Y", before and after, on
WiCE (real claims and the pages they cite), in one run.

    .venv/bin/python bench/bench_figure_reasons.py [--split held-out|dev|all] [--data ../shared/data/wice]
        [--baseline COMMIT] [--show supported]
    .venv/bin/python bench/bench_figure_reasons.py --judgements FILE.jsonl [--show supported]

A figure reason on a claim whose page fully supports it is a false one (target: at most
3% of supported claims). Before: the code of `--baseline` (default the commit before issue
31, bench/baseline.ISSUE_31_BASE; `--baseline 6ce1959...` is the code before issue 24),
run from git; after: this checkout. Planted swaps (bench/verification_trust.planted_claims):
in each supported claim one figure the page gives is replaced by another of the same kind
from the same page, once with the baseline's figures and once with this checkout's; a swap
is caught when a figure reason is given (issue 31's target: at least 60%). Precision of
figure reasons (target at least 0.9), two ways: among the reasons given to the supported
claims that have a swap and to their swaps, the share on swaps; and on the nst_* rows,
whose annotators mark the claim words the page does not support, the share of reasons on a
figure marked unsupported. No model is needed: the reason comes from the figures alone. The
CPU time per claim (the page's figures and the comparison, as the verify worker does them)
is printed for both sides.

`--judgements` reads people's labels instead of WiCE's: the file `manage.py
export_judgements --from all` writes (annotators' majority labels of the blind A/B
sources, and the claims editors verified by hand or whose flag they dismissed because the
source supports them). Those are claims no rule here was designed on, so the figures it
prints are a first look each time new judgements come in.

Halves (`data.half`, a hash of each claim's group, so that claims sharing a page never
straddle them): issue 24's part B designed its rules on the "dev" half only; "held-out"
is the result, never looked at while designing. `--split all` is both.
"""
from __future__ import annotations

import argparse
import os
import sys
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_31_BASE, baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402
from bench.verification_trust import planted_claims  # noqa: E402
from verifier_core.verification.data import HALVES, half, load_wice  # noqa: E402
from verifier_core.verification.quantities import mismatches, quantities  # noqa: E402

LABELS = ("supported", "partially_supported", "not_supported")
# Run inside the baseline tree: its own mismatches, its own planted swaps, its own time.
BEFORE = """
import time
from pathlib import Path
from types import SimpleNamespace
from bench.verification_trust import planted_claims
from verifier_core.verification.data import load_wice
from verifier_core.verification.quantities import mismatches
examples = (load_wice(Path(payload["data"])) if "data" in payload else
            [SimpleNamespace(claim=c, page=p, label=l) for c, p, l in payload["judged"]])
started = time.process_time()
found = [mismatches(e.claim, e.page) for e in examples]
ms = 1000 * (time.process_time() - started) / len(examples)
fires = [bool(f) for f in found]
spans = [[[m.claim.start, m.claim.end] for m in f] for f in found]
planted = planted_claims(examples, payload["rows"])
caught = {i: bool(mismatches(claim, examples[i].page)) for i, claim in planted.items()}
theirs = {i: bool(mismatches(claim, examples[int(i)].page)) for i, claim in payload["planted"].items()}
print(json.dumps({"fires": fires, "spans": spans, "ms": ms, "planted": planted, "caught": caught,
                  "caught_new_swaps": theirs}))
"""
# Another commit's rules on the same claims and the same two swap sets (--also).
COMPARE = """
from pathlib import Path
from verifier_core.verification.data import load_wice
from verifier_core.verification.quantities import mismatches
examples = load_wice(Path(payload["data"]))
fired = lambda claim, i: bool(mismatches(claim, examples[int(i)].page))
supported = [i for i in payload["rows"] if examples[i].label == "supported"]
print(json.dumps([sum(fired(examples[i].claim, i) for i in supported), len(supported)]
                 + [sum(fired(claim, i) for i, claim in swaps.items()) for swaps in payload["swaps"]]))
"""


@dataclass
class Judged:
    """A claim and its source as people labelled them (an `export_judgements` row)."""
    claim: str
    page: str
    label: str
    source: str  # who labelled it: annotators | editors


def load_judgements(path: Path) -> list[Judged]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return [Judged(" ".join(row["claim"].split()), row["source"]["text"], row["gold_verdict"],
                   row.get("from", "annotators"))
            for row in rows if row.get("gold_verdict") in LABELS and (row.get("source") or {}).get("text")]


def in_split(example, split: str) -> bool:
    return split == "all" or half(example) == split


def rates(examples, fires: list[bool], split: str) -> dict[tuple[str, str], tuple[int, int]]:
    counts, totals = Counter(), Counter()
    for example, fired in zip(examples, fires):
        if in_split(example, split):
            totals[(example.source, example.label)] += 1
            counts[(example.source, example.label)] += fired
    return {key: (counts[key], totals[key]) for key in totals}


def share(pair: tuple[int, int]) -> str:
    hits, total = pair
    return f"{hits / total:6.1%} ({hits}/{total})" if total else "-"


def after_run(examples, rows: set[int], show: str | None) -> tuple[list[bool], float, list]:
    """This checkout's figure reasons on every example, its CPU ms per claim, and the claim
    spans of the figures each reason is about."""
    fires, spans, started = [], [], time.process_time()
    for i, example in enumerate(examples):
        found = mismatches(example.claim, example.page)
        fires.append(bool(found))
        spans.append([[m.claim.start, m.claim.end] for m in found])
        if show and found and i in rows and example.label == show:
            print(f"  {'; '.join(m.reason for m in found)} | {example.claim[:120]}")
    return fires, 1000 * (time.process_time() - started) / len(examples), spans


def marked(example, start: int, end: int) -> bool | None:
    """Whether the annotators of an nst_* row mark the claim words at [start, end) as not
    supported by the page (None: no marked token there)."""
    pos, hits = 0, []
    for token, bad in zip(example.claim_tokens, example.unsupported):
        at = example.claim.find(token, pos)
        if at < 0:
            continue
        pos = at + len(token)
        if at < end and start < pos and any(c.isalnum() for c in token):
            hits.append(bad)
    return any(hits) if hits else None


def precision_lines(examples, split: str, before: dict, after: tuple, new_swaps: dict) -> None:
    """Precision of figure reasons, before and after, both ways (module docstring)."""
    originals = [i for i in new_swaps if in_split(examples[i], split)]
    print("\n| precision of figure reasons (target ≥ 0.9) | before | after |\n|---|---|---|")
    cells = []
    for fires, caught in ((before["fires"], sum(before["caught_new_swaps"][str(i)] for i in originals)),
                          (after[0], caught_after(examples, {i: new_swaps[i] for i in originals}))):
        false = sum(fires[i] for i in originals)
        cells.append(f"{caught / (caught + false):.2f} ({caught} on swaps, {false} on their originals)"
                     if caught + false else "-")
    print(f"| supported claims with a swap and their swaps | {cells[0]} | {cells[1]} |")
    cells = []
    for spans in (before["spans"], after[2]):
        right = wrong = 0
        for i, e in enumerate(examples):
            if e.source.startswith("nst_") and in_split(e, split):
                for a, b in spans[i]:
                    mark = marked(e, a, b)
                    right += mark is True
                    wrong += mark is False
        cells.append(f"{right / (right + wrong):.2f} ({right} on figures marked unsupported, {wrong} marked supported)"
                     if right + wrong else "-")
    print(f"| nst_* rows, against the annotators' marks | {cells[0]} | {cells[1]} |")


def caught_after(examples, planted: dict[int, str]) -> int:
    return sum(bool(mismatches(claim, examples[i].page)) for i, claim in planted.items())


def same_kind_swap(original: str, swapped: str) -> bool:
    """The swap puts a figure of the original's kind in its place under typed figures
    ("1994" for "1996"), not a number into a date's day ("March three, 2017"), a name
    ("G3" for "G7") or half a range ("1969–19")."""
    head = len(os.path.commonprefix([original, swapped]))
    tail = len(os.path.commonprefix([original[head:][::-1], swapped[head:][::-1]]))

    def kind_at(text: str) -> str | None:
        end = max(head + 1, len(text) - tail)
        return next((q.kind for q in quantities(text) if q.start < end and head < q.end), None)

    return kind_at(original) is not None and kind_at(original) == kind_at(swapped)


def print_tables(examples, split: str, before: dict, after: tuple[list[bool], float], new_swaps: dict) -> bool:
    old, new = rates(examples, before["fires"], split), rates(examples, after[0], split)
    print(f"\n{'Half: ' + split if split in HALVES else 'All claims'}. Figure reasons given (\"the source gives ..., not ...\"), "
          f"baseline {before['commit'][:7]} vs this checkout:\n")
    print("| data | label | before | after |\n|---|---|---|---|")
    for key in sorted(new, key=lambda k: (k[0] != "dev", k[0], LABELS.index(k[1]))):
        print(f"| {key[0]} | {key[1]} | {share(old[key])} | {share(new[key])} |")
    planted = {int(i): claim for i, claim in before["planted"].items()}
    typed = {i: claim for i, claim in planted.items() if same_kind_swap(examples[i].claim, claim)}
    pairs = {"the baseline's figures": (planted, sum(before["caught"].values())),
             "... of which a figure of the same kind under this checkout's figures":
                 (typed, sum(before["caught"][str(i)] for i in typed)),
             "this checkout's figures (the target's set)":
                 (new_swaps, sum(before["caught_new_swaps"].values()))}
    print("\nPlanted figure swaps in supported claims, caught (a figure reason given):\n")
    print("| swaps made by | claims | before | after |\n|---|---|---|---|")
    for label, (swaps, caught_before) in pairs.items():
        caught = caught_after(examples, swaps)  # the last set is this checkout's, the target's
        print(f"| {label} | {len(swaps)} | {share((caught_before, len(swaps)))} | {share((caught, len(swaps)))} |")
    precision_lines(examples, split, before, after, new_swaps)
    print(f"\nCPU ms per claim (the page's figures and the comparison): before {before['ms']:.2f}, "
          f"after {after[1]:.2f}")
    supported = [sum(pair[n] for key, pair in new.items() if key[1] == "supported") for n in (0, 1)]
    return supported[0] <= 0.03 * supported[1] and caught >= 0.6 * len(new_swaps)


def compare(commits: list[str], payload: dict) -> None:
    """The trade-off: supported claims given a reason and swaps caught, by commit."""
    print("\n| code | supported given a reason | baseline's swaps caught | this checkout's swaps caught |\n"
          "|---|---|---|---|")
    for commit in commits:
        with baseline_tree(commit) as folder:
            fired, total, theirs, ours = run_in(folder, COMPARE, payload)
        print(f"| {commit} | {share((fired, total))} | {theirs}/{len(payload['swaps'][0])} | "
              f"{ours}/{len(payload['swaps'][1])} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--baseline", default=ISSUE_31_BASE, metavar="COMMIT",
                        help="the code to compare with (default: the commit before issue 31)")
    parser.add_argument("--split", choices=(*HALVES, "all"), default="held-out",
                        help="which half of the claims (data.half); held-out is the result")
    parser.add_argument("--also", nargs="*", default=[], metavar="COMMIT",
                        help="the same figures for other commits' rules, on the same claims and swaps")
    parser.add_argument("--judgements", type=Path, metavar="FILE",
                        help="people's labels (export_judgements --from all) instead of WiCE; every row counts")
    parser.add_argument("--show", choices=LABELS,
                        help="print the reasons given to claims of this label (WiCE dev file, or the judgements)")
    args = parser.parse_args()
    if args.judgements and args.also:
        parser.error("--also compares commits on WiCE only")
    print(load_line("before the run"))
    if args.judgements:
        examples, args.split = load_judgements(args.judgements), "all"
        rows, payload = list(range(len(examples))), {"judged": [[e.claim, e.page, e.label] for e in examples]}
    else:
        examples = load_wice(Path(args.data))
        rows = [i for i, e in enumerate(examples) if e.source == "dev" and in_split(e, args.split)]
        payload = {"data": str(Path(args.data).resolve())}
    new_swaps = planted_claims(examples, rows)  # swaps of the new kinds (a count for a count...)
    with baseline_tree(args.baseline) as folder:
        before = run_in(folder, BEFORE, {**payload, "planted": new_swaps, "rows": rows})
    before["commit"] = args.baseline
    met = print_tables(examples, args.split, before, after_run(examples, set(rows), args.show), new_swaps)
    print(f"{'meets' if met else 'MISSES'} the target: supported claims given a figure reason <= 3%, planted swaps "
          "(this checkout's set) caught >= 60%")
    if args.also:
        compare(args.also, {"data": str(Path(args.data).resolve()), "rows": rows,
                            "swaps": [before["planted"], {str(i): claim for i, claim in new_swaps.items()}]})
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
