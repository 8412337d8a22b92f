"""Where figure corrections land, over every real article in ../shared/data/wikitext (issue 41),
before (the claim's sentence read backwards from its citation by punctuation) and after (the
claim's words located from the extractor's span, or found again by the words themselves).

    .venv/bin/python bench/bench_figure_corrections.py   # about 10 minutes on two shared cores

First, over the same articles' cited claims: how often the extractor gives the claim's span,
how often that span reads as the claim, and how often the words are found again without it.

For every claim with a citation whose words give a year or a number once, the correction of
that figure to the next one, built on the page's own text. Each change is judged by
extracting the page again: "own" when that claim now reads as before with the new figure and
every other claim reads exactly as before; "elsewhere" when anything else changed (another
sentence's figure, or the claim left as it was); "refused" when the edit was refused in words.
The "before" code is the correct_figure of BASE, read from git and run on the same claims.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifier_core.wikitext import extract  # noqa: E402
from verifier_core.wikitext.edits import LocateError, correct_figure, occurrence_target  # noqa: E402
from verifier_core.wikitext.sentence import claim_span, reads_as  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "wikitext"
BASE = "35de97e"  # main before issue 41's corrections
_FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\w.,]\d|\w)")


def baseline():
    """BASE's correct_figure, loaded as a module beside today's (same helpers)."""
    source = subprocess.run(["git", "show", f"{BASE}:verifier_core/wikitext/edits.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("verifier_core.wikitext._edits_before_41", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "verifier_core.wikitext"
    sys.modules[spec.name] = module
    exec(compile(source, "edits_before_41.py", "exec"), module.__dict__)
    return module.correct_figure


def cases(text: str):
    """(index, claim, claimed, given) for each cited claim whose words give a figure once."""
    for index, claim in enumerate(extract(text, "Page").claims):
        occurrences = [o for o in claim.occurrences if o.start is not None]
        if not occurrences or claim.kind not in ("sentence", "clause"):
            continue
        figures = [m.group(1) for m in _FIGURE.finditer(claim.text)]
        once = [f for f in figures if figures.count(f) == 1]
        if once:
            given = str(int(once[0].replace(",", "")) + 1)
            yield index, claim, occurrences[0], once[0], given


def judged(before: list, new: str, index: int, claimed: str, given: str) -> str:
    after = extract(new, "Page").claims
    if len(before) != len(after):
        return "elsewhere"
    expected = re.sub(r"(?<![\w.,])%s(?![\w.,]\d|\w)" % re.escape(claimed), given, before[index].text, count=1)
    others_same = all(a.text == b.text for n, (a, b) in enumerate(zip(before, after)) if n != index)
    return "own" if others_same and after[index].text == expected else "elsewhere"


def spans() -> None:
    """How often the extractor gives a claim's span, how often it reads as the claim, and how
    often the claim's words are found again without it."""
    cited = given = reads = found = 0
    for path in sorted(SHARED.glob("*.wiki")):
        text = path.read_text()
        for claim in extract(text, "Page").claims:
            occurrences = [o for o in claim.occurrences if o.start is not None]
            if not occurrences or claim.kind not in ("sentence", "clause"):
                continue
            cited += 1
            if claim.span:
                given += 1
                reads += reads_as(text[claim.span[0]:occurrences[0].start], claim.text)
            try:
                claim_span(text, words=claim.text, end=occurrences[0].start)
                found += 1
            except LocateError:
                pass
    print(f"{cited} cited claims: the extractor's span given for {given}, read as the claim for {reads}; "
          f"the words found again without it for {found}")


def main() -> None:
    spans()
    before_fn = baseline()
    tally = {"before": Counter(), "after": Counter()}
    seconds = 0.0
    for path in sorted(SHARED.glob("*.wiki")):
        text = path.read_text()
        claims = extract(text, "Page").claims
        for index, claim, occurrence, claimed, given in cases(text):
            target = occurrence_target(text, occurrence)
            for name, build in (("before", lambda: before_fn(text, target=target, claimed=claimed, given=given)),
                                ("after", lambda: correct_figure(text, target=target, claimed=claimed, given=given,
                                                                 claim=claim))):
                started = time.perf_counter()
                try:
                    new = build().new
                except LocateError:
                    tally[name]["refused"] += 1
                    continue
                finally:
                    if name == "after":
                        seconds += time.perf_counter() - started
                tally[name][judged(claims, new, index, claimed, given)] += 1
    total = sum(tally["after"].values())
    print(f"{total} corrections over {len(list(SHARED.glob('*.wiki')))} articles")
    print("| code | own sentence | elsewhere | refused |")
    print("|---|---|---|---|")
    for name in ("before", "after"):
        t = tally[name]
        print(f"| {name} | {t['own']} | {t['elsewhere']} | {t['refused']} |")
    print(f"after: {1000 * seconds / max(total, 1):.1f} ms per correction (the page's extraction not counted)")


if __name__ == "__main__":
    main()
