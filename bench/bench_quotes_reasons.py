"""Benchmark: do the quote and the reason hold against the page? WiCE `dev` claims through
the whole verifier, the previous commit beside this checkout, in one run.

    .venv/bin/python bench/bench_quotes_reasons.py [--data ../shared/data/wice] [--baseline COMMIT]
        [--limit N] [--show]

For each claim and its cited page (`Verifier.score_source`, as the app calls it):

- **Quotes that are not a body sentence sharing a content word with the claim** (target at
  most 2% of the quotes shown): the quote (`evidence.sentences[0]`, what "the source says
  it" and the API's `quote` show) lies on one of WiCE's page-metadata lines (WiCE marks
  them itself), is a heading ("# ..."), has under four words,
  has no full stop and under twelve words (a menu item, a caption, a heading), is a date
  or time with under three other words, or shares no content word with the claim (a word
  that is not a stop word, compared by its Snowball stem, or a number).
- **"No passage mentions" terms present in the source** (target 0): each term a reason
  names is looked up in the page text, metadata lines included: as a whole word, by its
  Snowball stem, or (a figure) by its value in digits or words, in any unit.
- **Figure reasons**: supported claims given one ("the source gives ..., not ..."; target
  at most 3%) and claims flagged (`not_supported`, high confidence) by label.

The baseline is the commit before issue 31 (`bench.baseline.ISSUE_31_BASE`), its
`verifier_core` written out of git into a temporary folder and run there with the same
checkpoint; the planted-swap figures are `bench/bench_figure_reasons.py`'s. Halves
(`data.half`): "dev" is the half the rules were designed on, "held-out" the result.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_31_BASE, baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402
from verifier_core.retrieval.tokenize import tokenize  # noqa: E402
from verifier_core.verification.language.figures import quantities  # noqa: E402
from verifier_core.verification.language.mentions import figure_given  # noqa: E402
from verifier_core.verification.model.data import HALVES, half, load_wice  # noqa: E402

LABELS = ("supported", "partially_supported", "not_supported")
# Run in either tree: each claim through its Verifier, as the app calls it.
JUDGE = """
from pathlib import Path
from verifier_core.verification import ClaimInput, Verifier
load_wice = verification("model.data").load_wice
examples = load_wice(Path(payload["data"]))
verifier = Verifier.load(Path(payload["model"]))
out = {}
for i in payload["rows"]:
    e = examples[i]
    r = verifier.score_source(ClaimInput(e.claim, title=e.title), e.page)
    quote = r.evidence.sentences[0] if r.evidence and r.evidence.sentences else ""
    out[i] = [str(r.verdict), r.confidence, r.reason or "", quote]
print(json.dumps(out))
"""
MENTIONS = re.compile(r"no passage of the source mentions (.+?)(?:;|$)")  # "; " ends it (not inside “...”)
_WORD = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*")
_MONTHS = set("january february march april may june july august september october november december jan feb mar "
              "apr jun jul aug sep sept oct nov dec am pm".split())


def meta_lines(data: Path) -> list[set[int]]:
    """For each `dev` row, which of its page's lines are WiCE's page metadata."""
    rows = [json.loads(line) for line in (data / "dev.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{n for n, s in enumerate(r["evidence"]) if s.startswith("(meta data) ")} for r in rows]


def content(text: str) -> set[str]:
    """Content words by their stems, and numbers."""
    numbers = {w for w in _WORD.findall(text) if w.replace(",", "").replace(".", "").isdigit()}
    return set(tokenize(text)) | numbers


def quote_fault(example, quote: str, meta: set[int]) -> str:
    """Why a shown quote is not a body sentence sharing a content word ("" when it is)."""
    at = example.page.find(quote)
    lines = {n for n, (a, b) in enumerate(example.sentence_spans) if at >= 0 and a < at + len(quote) and at <= b}
    words = quote.split()
    alpha = [w for w in re.findall(r"[^\W\d_]{2,}", quote.lower()) if w not in _MONTHS]
    if lines & meta:
        return "page metadata"
    if quote.lstrip().startswith("#"):
        return "heading"
    if len(words) < 4:
        return "under four words"
    if len(alpha) < 3:
        return "date or time"
    if not re.search(r"[.!?…][\"'”’)\]]*\s*$", quote) and len(words) < 12:
        return "menu, caption or heading line"
    if not content(quote) & content(example.claim):
        return "no content word shared"
    return ""


def present(term: str, page: str, page_stems: set[str], page_figures) -> bool:
    """Whether a term a reason says no passage mentions is on the page after all."""
    low = term.lower()
    if re.search(rf"(?<![\w]){re.escape(low)}(?![\w])", page.lower()):
        return True
    figures = [q for q in quantities(term) if q.kind != "score"]
    if figures:
        return all(any(figure_given(q, s) for s in page_figures) for q in figures)
    return bool(tokenize(term)) and all(t in page_stems for t in tokenize(term))


def named_terms(reason: str) -> list[str]:
    """The terms of "no passage of the source mentions A, “B, C” or D" (or "A, B, C")."""
    match = MENTIONS.search(reason)
    if not match:
        return []
    quoted = re.findall(r"“([^”]*)”", match.group(1))
    rest = re.sub(r"“[^”]*”", ",", match.group(1))  # a quoted term leaves a separator behind
    # Split on commas and the last "or" ("A, “B” or C": the "or" may follow a quoted term).
    pieces = (re.sub(r"^or\s+|\s+or$", "", t.strip()) for t in re.split(r",|\s+or\s+", rest))
    return quoted + [t for t in pieces if t and t != "or"]


def side_figures(examples, mine: list[int], metas, out: dict, name: str, show: bool) -> dict:
    """One side's counts on the claims `mine`."""
    faults, terms, wrong, figure, flagged, shown = Counter(), 0, 0, Counter(), Counter(), 0
    for i in mine:
        verdict, confidence, reason, quote = out[str(i)]
        e = examples[i]
        if quote:
            shown += 1
            fault = quote_fault(e, quote, metas[i])
            faults[fault] += bool(fault)
            if fault and show:
                print(f"  [{name}] {fault}: {quote[:90]!r} | {e.claim[:70]}")
        stems, figs = set(tokenize(e.page)), quantities(e.page)
        for term in named_terms(reason):
            terms += 1
            if present(term, e.page, stems, figs):
                wrong += 1
                if show:
                    print(f"  [{name}] mentioned after all: {term!r} | {e.claim[:80]}")
        figure[e.label] += reason.startswith("the source gives ")
        flagged[e.label] += verdict == "not_supported" and confidence == "high"
    labels = Counter(examples[i].label for i in mine)
    return {"bad": sum(faults.values()), "shown": shown, "terms": terms, "wrong": wrong, "faults": faults,
            "figure_supported": figure["supported"], "supported": labels["supported"], "flagged": flagged,
            "labels": labels}


def tables(examples, rows, metas, sides: dict[str, dict], split: str, show: bool) -> None:
    mine = [i for i in rows if split == "all" or half(examples[i]) == split]
    print(f"\n### {'Half: ' + split if split in HALVES else 'All dev claims'} ({len(mine)} claims)\n")
    print("| | " + " | ".join(sides) + " |\n|---|" + "---|" * len(sides))
    found = {name: side_figures(examples, mine, metas, out, name, show) for name, out in sides.items()}
    rows_out = [
        ("quotes shown", lambda f: f"{f['shown']}/{len(mine)}"),
        ("quotes not a body sentence sharing a content word (target ≤ 2%)", lambda f: pct(f["bad"], f["shown"])),
        ("... of which", lambda f: ", ".join(f"{k} {v}" for k, v in f["faults"].most_common() if v) or "-"),
        ("\"no passage mentions\" terms present in the source (target 0)", lambda f: f"{f['wrong']} of {f['terms']}"),
        ("supported claims given a figure reason (target ≤ 3%)", lambda f: pct(f["figure_supported"], f["supported"])),
    ] + [(f"{label} claims flagged (not supported, high confidence)",
          (lambda lab: lambda f: pct(f["flagged"][lab], f["labels"][lab]))(label)) for label in LABELS]
    for title, cell in rows_out:
        print(f"| {title} | " + " | ".join(cell(found[name]) for name in sides) + " |")


def pct(hits: int, total: int) -> str:
    return f"{hits / total:.1%} ({hits}/{total})" if total else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--baseline", default=ISSUE_31_BASE, help="the commit to compare with (default: before issue 31)")
    parser.add_argument("--limit", type=int, help="the first N dev claims only (a smoke run)")
    parser.add_argument("--show", action="store_true", help="print every bad quote and every term mentioned after all")
    args = parser.parse_args()
    print(load_line("before the run"))
    data = Path(args.data).resolve()
    examples = load_wice(data)
    rows = [i for i, e in enumerate(examples) if e.source == "dev"][: args.limit]
    metas = meta_lines(data)
    payload = {"data": str(data), "model": str(Path(args.model).resolve()), "rows": rows}
    with baseline_tree(args.baseline, ("verifier_core",)) as folder:
        before = run_in(folder, JUDGE, payload)
    after = run_in(str(ROOT), JUDGE, payload)
    sides = {f"before ({args.baseline[:7]})": before, "this checkout": after}
    for split in (*HALVES, "all"):
        tables(examples, rows, metas, sides, split, args.show and split == "dev")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
