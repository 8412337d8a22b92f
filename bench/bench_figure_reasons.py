"""Benchmark: how often the verifier says "the source gives X, not Y", before and after, on
WiCE (real claims and the pages they cite), in one run.

    .venv/bin/python bench/bench_figure_reasons.py [--split held-out|dev|all] [--data ../shared/data/wice]
        [--baseline COMMIT] [--show supported]
    .venv/bin/python bench/bench_figure_reasons.py --judgements FILE.jsonl [--show supported]

A figure reason on a claim whose page fully supports it is a false one (target: at most
3% of supported claims). Three sides: the code of `--baseline` (default the commit before
issue 31, bench/baseline.ISSUE_31_BASE), run from git; this checkout's figure rules alone
(quantities.mismatches); and what the app says, those rules as the verifier reads them
(figure_reading.read_mismatches: the cross-encoder must read the source's sentence as
stating the claim with the source's figure). Planted swaps, two sets, each drawn by this
checkout's code and given to every side: `planted_claims` (in each supported claim one
figure the page gives replaced by another of the same kind from the same page; issue 31's
target: at least 60% caught) and `like_for_like_swaps` (only a figure the page states in
its body, swapped for one of the same kind about the same kind of thing: an error an editor
could make). Precision of figure reasons (target at least 0.9), two ways: among the
reasons given to the supported claims that have a swap and to their swaps, the share on
swaps; and on the nst_* rows, whose annotators mark the claim words the page does not
support, the share of reasons on a figure marked unsupported (nst_train is the
cross-encoder's training file, so its row is no test of the reading). CPU time per claim
is printed for each side.

`--judgements` reads people's labels instead of WiCE's: the file `manage.py
export_judgements --from all` writes (annotators' majority labels of the blind A/B
sources, and the claims editors verified by hand or whose flag they dismissed because the
source supports them). Those are claims no rule here was designed on, so the figures it
prints are a first look each time new judgements come in.

Halves (`data.half`, a hash of each claim's group, so that claims sharing a page never
straddle them): rules are designed on the "dev" half only; "held-out" is the result.
`--split all` is both.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_31_BASE, baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402
from bench.verification_trust import like_for_like_swaps, planted_claims  # noqa: E402
from verifier_core.verification.judgement.figure_reading import read_mismatches  # noqa: E402
from verifier_core.verification.language.quantities import mismatches  # noqa: E402
from verifier_core.verification.model.data import HALVES, half, load_wice  # noqa: E402
from verifier_core.verification.scoring import Verifier  # noqa: E402

LABELS = ("supported", "partially_supported", "not_supported")
# Run inside the baseline tree: its own mismatches, its own planted swaps, its own time.
BEFORE = """
import time
from pathlib import Path
from types import SimpleNamespace
from bench.verification_trust import planted_claims
load_wice = verification("model.data").load_wice
mismatches = verification("language.quantities").mismatches
examples = (load_wice(Path(payload["data"])) if "data" in payload else
            [SimpleNamespace(claim=c, page=p, label=l) for c, p, l in payload["judged"]])
started = time.process_time()
found = [mismatches(e.claim, e.page) for e in examples]
ms = 1000 * (time.process_time() - started) / len(examples)
fires = [bool(f) for f in found]
spans = [[[m.claim.start, m.claim.end] for m in f] for f in found]
planted = planted_claims(examples, payload["rows"])
caught = {i: bool(mismatches(claim, examples[i].page)) for i, claim in planted.items()}
theirs = {name: {i: bool(mismatches(claim, examples[int(i)].page)) for i, claim in swaps.items()}
          for name, swaps in payload["swaps"].items()}
print(json.dumps({"fires": fires, "spans": spans, "ms": ms, "planted": planted, "caught": caught, "theirs": theirs}))
"""
# Another commit's rules on the same claims and the same two swap sets (--also).
COMPARE = """
from pathlib import Path
load_wice = verification("model.data").load_wice
mismatches = verification("language.quantities").mismatches
examples = load_wice(Path(payload["data"]))
fired = lambda claim, i: bool(mismatches(claim, examples[int(i)].page))
supported = [i for i in payload["rows"] if examples[i].label == "supported"]
print(json.dumps([sum(fired(examples[i].claim, i) for i in supported), len(supported)]
                 + [sum(fired(claim, i) for i, claim in swaps.items()) for swaps in payload["swaps"]]))
"""
SWAP_SETS = {"this checkout's figures (the target's set)": planted_claims,
             "like for like (a figure the page states, swapped for one of the same kind and thing)":
                 like_for_like_swaps}


@dataclass
class Judged:
    """A claim and its source as people labelled them (an `export_judgements` row)."""
    claim: str
    page: str
    label: str
    source: str  # who labelled it: annotators | editors
    title: str = ""


@dataclass
class Side:
    """One side of the comparison: which claims it gives a figure reason, the claim spans of
    the figures they are about, and its swaps caught per set."""
    name: str
    fires: list[bool]
    spans: list[list[list[int]]]
    caught: dict[str, int]
    ms: str = ""


class Finder:
    """This checkout's figure reasons: the figure rules alone, or as the verifier reads them
    (figure_reading.py, what the app says)."""

    def __init__(self, verifier=None):
        self.verifier = verifier
        self.read_ms: list[float] = []

    def __call__(self, claim: str, example) -> list:
        found = mismatches(claim, example.page)
        if self.verifier is None or not found:
            return found
        started = time.process_time()
        kept = read_mismatches(claim, found, lambda q: example.page,
                               lambda pairs: self.verifier.read_pairs(getattr(example, "title", ""), pairs))
        self.read_ms.append(1000 * (time.process_time() - started))
        return kept


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


def this_side(name: str, find: Finder, examples, rows: set[int], swaps: dict[str, dict[int, str]],
              show: str | None) -> Side:
    """This checkout's reasons on every example and on every swap set."""
    fires, spans, started = [], [], time.process_time()
    for i, example in enumerate(examples):
        found = find(example.claim, example)
        fires.append(bool(found))
        spans.append([[m.claim.start, m.claim.end] for m in found])
        if show and found and i in rows and example.label == show:
            print(f"  [{name}] {'; '.join(m.reason for m in found)} | {example.claim[:120]}")
    ms = f"{1000 * (time.process_time() - started) / len(examples):.2f}"
    caught = {label: sum(bool(find(claim, examples[i])) for i, claim in swap.items()) for label, swap in swaps.items()}
    if find.read_ms:
        ms += f" (reading: {sum(find.read_ms) / len(find.read_ms):.0f} ms per claim given a reason)"
    return Side(name, fires, spans, caught, ms)


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


def precision_lines(examples, split: str, sides: list[Side], target: dict[int, str]) -> None:
    """Precision of figure reasons, each side, both ways (module docstring)."""
    originals = [i for i in target if in_split(examples[i], split)]
    label = next(iter(SWAP_SETS))
    print("\n| precision of figure reasons (target ≥ 0.9) | " + " | ".join(s.name for s in sides) + " |\n|---"
          + "|---" * len(sides) + "|")
    cells = []
    for side in sides:
        caught, false = side.caught[label], sum(side.fires[i] for i in originals)
        cells.append(f"{caught / (caught + false):.2f} ({caught} on swaps, {false} on their originals)"
                     if caught + false else "-")
    print("| supported claims with a swap (the target's set) and their swaps | " + " | ".join(cells) + " |")
    for files in (("nst_dev",), ("nst_train",)):
        cells = []
        for side in sides:
            right = wrong = 0
            for i, e in enumerate(examples):
                if e.source in files and in_split(e, split):
                    for a, b in side.spans[i]:
                        mark = marked(e, a, b)
                        right += mark is True
                        wrong += mark is False
            cells.append(f"{right / (right + wrong):.2f} ({right} right, {wrong} wrong)" if right + wrong else "-")
        print(f"| {files[0]} rows, against the annotators' marks | " + " | ".join(cells) + " |")
    print("\n(nst_train is the cross-encoder's training file: the reading's figures on it are not a test.)")


def print_tables(examples, split: str, sides: list[Side], swaps: dict[str, dict[int, str]]) -> bool:
    per_side = [rates(examples, side.fires, split) for side in sides]
    print(f"\n{'Half: ' + split if split in HALVES else 'All claims'}. Figure reasons given (\"the source gives ..., "
          "not ...\"):\n")
    print("| data | label | " + " | ".join(s.name for s in sides) + " |\n|---|---" + "|---" * len(sides) + "|")
    for key in sorted(per_side[-1], key=lambda k: (k[0] != "dev", k[0], LABELS.index(k[1]))):
        print(f"| {key[0]} | {key[1]} | " + " | ".join(share(r.get(key, (0, 0))) for r in per_side) + " |")
    print("\nPlanted figure swaps in supported claims, caught (a figure reason given):\n")
    print("| swaps | claims | " + " | ".join(s.name for s in sides) + " |\n|---|---" + "|---" * len(sides) + "|")
    for label, swap in swaps.items():
        print(f"| {label} | {len(swap)} | " + " | ".join(share((s.caught[label], len(swap))) for s in sides) + " |")
    precision_lines(examples, split, sides, next(iter(swaps.values())))
    print("\nCPU ms per claim (the page's figures and the comparison): "
          + "; ".join(f"{s.name} {s.ms}" for s in sides))
    final, target = sides[-1], next(iter(swaps))
    supported = [sum(pair[n] for key, pair in per_side[-1].items() if key[1] == "supported") for n in (0, 1)]
    return supported[0] <= 0.03 * supported[1] and final.caught[target] >= 0.6 * len(swaps[target])


def before_side(examples, before: dict, swaps: dict[str, dict[int, str]]) -> Side:
    return Side(f"before ({before['commit'][:7]})", before["fires"], before["spans"],
                {label: sum(before["theirs"][label].values()) for label in swaps}, f"{before['ms']:.2f}")


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
    swaps = {label: make(examples, rows) for label, make in SWAP_SETS.items()}
    with baseline_tree(args.baseline) as folder:
        before = run_in(folder, BEFORE, {**payload, "rows": rows,
                                         "swaps": {label: {str(i): c for i, c in swap.items()}
                                                   for label, swap in swaps.items()}})
    before["commit"] = args.baseline
    verifier = Verifier.load()
    sides = [before_side(examples, before, swaps),
             this_side("rules alone", Finder(), examples, set(rows), swaps, args.show),
             this_side("read by the verifier (the app)", Finder(verifier), examples, set(rows), swaps, args.show)]
    met = print_tables(examples, args.split, sides, swaps)
    print(f"{'meets' if met else 'MISSES'} the target: supported claims given a figure reason <= 3%, planted swaps "
          "(this checkout's set) caught >= 60%")
    if args.also:
        compare(args.also, {"data": str(Path(args.data).resolve()), "rows": rows,
                            "swaps": [before["planted"], {str(i): claim for i, claim in swaps[next(iter(swaps))].items()}]})
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
