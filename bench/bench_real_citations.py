"""Benchmark: do the verdicts hold on real citations? WiCE `dev` and the Source Verifier design
half, each claim through the public `Verifier` as the app calls it, a baseline commit beside
this checkout, in one run.

    nice .venv/bin/python bench/bench_real_citations.py [--baseline COMMIT] [--limit N] [--show]
        [--cache var/bench-scores.sqlite]

Sets: WiCE `dev` (349 real Wikipedia claims and the pages they cite, `../shared/data/wice`) and
the Source Verifier design half (82 real citations judged by people,
`../shared/data/source-verifier/dev.jsonl`: Supported / Partially supported / Not supported).
Both are design sets: the held-out halves are not here.

Per set and side (issue 42's table):

- **flag precision / recall of real failures**: flag = the app's default flagged list (a
  high-confidence `not_supported` claim, `Claim.flag_rule`); a real failure = the person's
  "not supported".
- **good citations flagged**: supported or partially supported ones flagged.
- **supported claims not called supported**.
- **not or partly supported called supported**: the citations a person judged partially or not
  supported that the code calls supported, the price of calling more claims supported (a verdict
  change that lowers the line above by raising this one shows it here).
- **"no passage mentions" terms the page holds**: each term a reason names, looked up in the
  page by this benchmark's own search (`held`, independent of the code under test): the term
  as written, case and diacritics aside; a date in any common format; a month alone in any
  date of that month; a number with or without separators, in words; a plural or singular;
  an abbreviation (a month's, dotted or undotted initials).
- **good citations flagged by a figure reason** ("the source gives ..., not ...").
- (WiCE) **supported claims whose shown sentences hold a whole gold set**: WiCE marks the
  minimal sets of page sentences that support each claim (`supporting`); the shown sentences
  (the claim's `evidence.sentences`, and each part's `evidence.sentences` where the verifier
  gives them) are mapped to page sentence indices by their offsets.

The baseline (default: the commit this branch started from) is written out of git into a
temporary folder (`bench.baseline`) and run there with the same checkpoint. `--cache` keeps the
cross-encoder's scores in a SQLite file (keyed by model version, claim and passage, so both
sides and later runs share them; the figures do not depend on it, only the time).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections import Counter
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import baseline_tree, run_in  # noqa: E402
from bench.bench_quotes_reasons import named_terms  # noqa: E402
from bench.machine import load_line  # noqa: E402
from verifier_core.verification.model.data import load_wice  # noqa: E402

LAYOUT_BASE = "4c7a06e"  # the commit this branch (issue 42) started from
SV_LABELS = {"Supported": "supported", "Partially supported": "partially_supported", "Not supported": "not_supported"}
GOOD = ("supported", "partially_supported")
BAD = ("partially_supported", "not_supported")  # what calling "supported" overstates
FIGURE = "the source gives "  # the form of a figure reason (DESIGN.md's verify_jsonl contract)

# Run in either tree: each claim through its Verifier as the app calls it (score_claim with the
# cited URL), printing what the app would store and show.
JUDGE = """
from pathlib import Path
from verifier_core.verification import ClaimInput, Verifier
ScoreCache = verification("model.cache").ScoreCache
cache = ScoreCache(path=Path(payload["cache"])) if payload.get("cache") else None
verifier = Verifier.load(Path(payload["model"]), cache=cache)
if cache is not None:
    verifier.cache = cache  # an empty cache is falsy: older trees dropped it for a fresh one

def spans(evidence, text):
    out = []
    for n, s in enumerate(evidence.get("sentences") or []):
        got = (evidence.get("sentence_spans") or [])
        if n < len(got):
            out.append(list(got[n]))
        elif text.find(s) >= 0:
            out.append([text.find(s), text.find(s) + len(s)])
    return out

out = []
for row in payload["rows"]:
    r = verifier.score_claim(ClaimInput(row["claim"], title=row["title"]), [row["page"]], urls=[row.get("url")])
    shown = []
    for e in r.evidence[:1]:
        shown += spans({"sentences": e.sentences, "sentence_spans": e.sentence_spans}, row["page"])
    for p in r.parts:
        ev = getattr(p, "evidence", None)
        if ev is not None:
            shown += spans({"sentences": list(getattr(ev, "sentences", []) or []),
                            "sentence_spans": list(getattr(ev, "sentence_spans", []) or [])}, row["page"])
    reasons = [x.to_json() for x in getattr(r, "reasons", []) or []]
    out.append([str(r.verdict), r.confidence, r.reason or "", shown, reasons])
print(json.dumps(out))
"""


# --- the sets -----------------------------------------------------------------------------

def wice_rows(data: Path, limit: int | None) -> list[dict]:
    examples = [e for e in load_wice(data) if e.source == "dev"][:limit]
    return [{"claim": e.claim, "title": e.title, "page": e.page, "url": None, "label": e.label,
             "spans": e.sentence_spans, "supporting": e.supporting} for e in examples]


def source_verifier_rows(path: Path, limit: int | None) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:limit]
    return [{"claim": " ".join(r["claim_text"].split()), "title": r.get("article_title") or "",
             "page": r["source_text"], "url": r.get("source_url"), "label": SV_LABELS[r["ground_truth"]]}
            for r in rows]


# --- this benchmark's own search for a term on the page (not the code under test) --------

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
ABBREVIATIONS = {m: {m[:3], m[:4]} for m in MONTHS} | {"september": {"sep", "sept"}}
NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
           "sixteen seventeen eighteen nineteen twenty").split()
TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}
QUOTES = "\"'“”‘’«»„"


def plain(text: str) -> str:
    """Case, diacritics and quote marks aside; spaces as one."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(text.translate({ord(q): " " for q in QUOTES}).split())


def loose(text: str) -> str:
    """Full stops and commas aside ("Dec. 20, 1998" as "dec 20 1998"), slashes and dashes kept."""
    return " ".join(re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", plain(text)).split())


def _has(needle: str, page: str) -> bool:
    return bool(needle) and re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", page) is not None


def in_words(n: int) -> str:
    if n < len(NUMBERS):
        return NUMBERS[n]
    if n < 100:
        return TENS[n - n % 10] + ("" if n % 10 == 0 else "-" + NUMBERS[n % 10])
    return ""


def _date_parts(term: str) -> tuple[int | None, int | None, int | None] | None:
    """(year, month, day) of a date written as a term, any part missing as None."""
    low = plain(term).replace(",", " ").replace(".", " ")
    words = low.split()
    month = next((n + 1 for n, m in enumerate(MONTHS) for w in words
                  if w == m or w in ABBREVIATIONS[m]), None)
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", low.strip())
    if iso:
        return int(iso[1]), int(iso[2]), int(iso[3])
    if month is None:
        return None
    numbers = [int(re.sub(r"(st|nd|rd|th)$", "", w)) for w in words if re.fullmatch(r"\d+(st|nd|rd|th)?", w)]
    year = next((n for n in numbers if n > 31), None)
    day = next((n for n in numbers if n <= 31), None)
    if len(words) > len(numbers) + 2:
        return None  # words besides a date
    return year, month, day


def _date_forms(year: int | None, month: int, day: int | None) -> list[str]:
    """Every common way a page writes a date (or a month alone)."""
    names = [MONTHS[month - 1], *sorted(ABBREVIATIONS[MONTHS[month - 1]])]
    forms = []
    if day is None and year is None:
        return names
    days = [str(day), f"{day:02d}", f"{day}{_suffix(day)}"] if day else [""]
    for name in names:
        for d in days:
            for y in ([str(year)] if year else [""]):
                forms += [" ".join(p for p in (name, d, y) if p), " ".join(p for p in (d, name, y) if p),
                          " ".join(p for p in (d, "of", name, y) if p and d)]
    if year and day:
        forms += [f"{year}-{month:02d}-{day:02d}", f"{day}/{month}/{year}", f"{month}/{day}/{year}",
                  f"{day:02d}/{month:02d}/{year}", f"{month:02d}/{day:02d}/{year}"]
    return forms


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_in_page(month: int, page: str) -> bool:
    """A month named alone is held by any date of that month, whatever its form."""
    name = MONTHS[month - 1]
    if any(_has(w, page) for w in (name, *ABBREVIATIONS[name])):
        return True
    return re.search(rf"\b\d{{4}}-{month:02d}-\d{{2}}\b", page) is not None


def _number_forms(term: str) -> list[str]:
    digits = term.replace(",", "").replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    forms = [term]
    if re.fullmatch(r"\d+(\.\d+)?", digits):
        forms += [digits, f"{float(digits):,.0f}" if "." not in digits else digits]
        if "." not in digits and in_words(int(digits)):
            forms.append(in_words(int(digits)))
    if term in NUMBERS or term in TENS.values():
        value = NUMBERS.index(term) if term in NUMBERS else next(k for k, v in TENS.items() if v == term)
        forms.append(str(value))
    return forms


def _word_forms(word: str) -> list[str]:
    forms = [word, word + "s", word + "es"]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("y"):
        forms.append(word[:-1] + "ies")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s") and len(word) > 4:  # "news" is no plural of "new"
        forms.append(word[:-1])
    return forms


def held(term: str, page_text: str) -> bool:
    """Whether the page holds the term in a form an editor searching for it would accept."""
    page, want = plain(page_text), plain(term).strip(" .,;:")
    if not want:
        return False
    if _has(want, page):
        return True
    parts = _date_parts(term)
    if parts is not None:
        year, month, day = parts
        if year is None and day is None:
            return _month_in_page(month, page)
        return any(_has(loose(f), loose(page)) for f in _date_forms(year, month, day))
    initials = term.replace(".", "")
    if term.isupper() and len(initials) > 1 and (re.search(rf"\b{re.escape(initials)}\b", page_text)
                                                 or ".".join(initials) + "." in page_text):
        return True
    if any(c.isdigit() for c in want) or want in NUMBERS or want in TENS.values():
        return any(_has(plain(f), page) for f in _number_forms(want))
    words = want.split()
    return all(any(_has(f, page) for f in _word_forms(w)) for w in words) and (
        len(words) == 1 or _has(" ".join(words[:-1]), page))


# --- the figures ------------------------------------------------------------------------

def flagged(verdict: str, confidence: str) -> bool:
    """The app's default flagged list (Claim.flag_rule) for a claim with a citation."""
    return verdict == "not_supported" and confidence == "high"


def gold_covered(row: dict, shown: list[list[int]]) -> bool:
    """Whether the shown sentences hold a whole gold supporting set: each sentence of the set
    is shown when a shown span covers at least half of it."""
    seen = set()
    for n, (a, b) in enumerate(row["spans"]):
        for s, e in shown:
            if min(b, e) - max(a, s) >= max(1, (b - a) // 2):
                seen.add(n)
    return any(sets and set(sets) <= seen for sets in row["supporting"])


def figures(rows: list[dict], out: list, name: str, show: bool) -> dict:
    f = Counter()
    for row, (verdict, confidence, reason, shown, _reasons) in zip(rows, out):
        label, flag = row["label"], flagged(verdict, confidence)
        f["rows"] += 1
        f[label] += 1
        f["flagged"] += flag
        f["flag_right"] += flag and label == "not_supported"
        f["good_flagged"] += flag and label in GOOD
        f["figure_flagged"] += flag and label in GOOD and any(r.startswith(FIGURE) for r in reason.split("; "))
        f["supported_not"] += label == "supported" and verdict != "supported"
        f["bad_supported"] += label in BAD and verdict == "supported"
        if show and flag and label in GOOD:
            print(f"  [{name}] good citation flagged ({label}): {reason[:160]} | {row['claim'][:100]}")
        for term in named_terms(reason):
            f["terms"] += 1
            if held(term, row["page"]):
                f["terms_held"] += 1
                if show:
                    print(f"  [{name}] no passage mentions {term!r}, but the page holds it | {row['claim'][:90]}")
        if "supporting" in row and label == "supported" and any(row["supporting"]):
            f["gold_sets"] += 1
            f["gold_covered"] += gold_covered(row, shown)
    return f


def pct(hits: int, total: int) -> str:
    return f"{hits / total:.0%} ({hits}/{total})" if total else "-"


def table(title: str, rows: list[dict], sides: dict[str, list], show: bool) -> None:
    found = {name: figures(rows, out, name, show) for name, out in sides.items()}
    print(f"\n### {title} ({len(rows)} claims)\n")
    print("| | " + " | ".join(sides) + " | target |\n|---|" + "---|" * (len(sides) + 1))
    lines = [
        ("flag precision / recall of real failures", lambda f: (
            f"{f['flag_right'] / f['flagged']:.2f}" if f["flagged"] else "-") + " / " + (
            f"{f['flag_right'] / f['not_supported']:.2f}" if f["not_supported"] else "-")
            + f" ({f['flag_right']} of {f['flagged']} flags; {f['not_supported']} failures)", "≥ 0.80 / ≥ 0.38"),
        ("good citations flagged", lambda f: pct(f["good_flagged"], f["supported"] + f["partially_supported"]),
         "≤ 5%"),
        ("supported claims not called supported", lambda f: pct(f["supported_not"], f["supported"]), "≤ 40%"),
        ("not or partly supported called supported",
         lambda f: pct(f["bad_supported"], f["partially_supported"] + f["not_supported"]), "no rise"),
        ("\"no passage mentions\" terms the page holds", lambda f: pct(f["terms_held"], f["terms"]), "0"),
        ("good citations flagged by a figure reason",
         lambda f: f"{f['figure_flagged']} of {f['supported'] + f['partially_supported']}", "0"),
    ]
    if any("supporting" in r for r in rows):
        lines.append(("supported claims whose shown sentences hold a whole gold set",
                      lambda f: pct(f["gold_covered"], f["gold_sets"]), "≥ 80%"))
    for what, cell, target in lines:
        print(f"| {what} | " + " | ".join(cell(found[name]) for name in sides) + f" | {target} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wice", default=str(ROOT.parent / "shared" / "data" / "wice"))
    parser.add_argument("--source-verifier", default=str(ROOT.parent / "shared" / "data" / "source-verifier" / "dev.jsonl"))
    parser.add_argument("--model", default=str(ROOT / "models" / "verifier"))
    parser.add_argument("--baseline", default=LAYOUT_BASE, help="the commit to compare with (default: where issue 42 began)")
    parser.add_argument("--limit", type=int, help="the first N claims of each set only (a smoke run)")
    parser.add_argument("--cache", default=str(ROOT / "var" / "bench-scores.sqlite"),
                        help="SQLite file of cross-encoder scores shared by both sides and later runs ('' for none)")
    parser.add_argument("--show", action="store_true", help="print each good citation flagged and each term held")
    args = parser.parse_args()
    print(load_line("before the run"))
    sets = {"WiCE dev": wice_rows(Path(args.wice), args.limit),
            "Source Verifier design half": source_verifier_rows(Path(args.source_verifier), args.limit)}
    payload = {"model": str(Path(args.model).resolve()), "cache": str(Path(args.cache).resolve()) if args.cache else "",
               "rows": [{k: r[k] for k in ("claim", "title", "page", "url")} for rows in sets.values() for r in rows]}
    with baseline_tree(args.baseline, ("verifier_core",)) as folder:
        before = run_in(folder, JUDGE, payload)
    after = run_in(str(ROOT), JUDGE, payload)
    start = 0
    for title, rows in sets.items():
        sides = {f"before ({args.baseline[:7]})": before[start:start + len(rows)],
                 "this checkout": after[start:start + len(rows)]}
        table(title, rows, sides, args.show)
        start += len(rows)
    print(f"\n(run {date.today().isoformat()}; {load_line('after the run')})")


if __name__ == "__main__":
    main()
