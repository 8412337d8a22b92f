"""Where edits land, over every real article in ../shared/data/wikitext (issue 30), before and
after citations were placed by occurrence, in one run.

    .venv/bin/python bench/bench_edit_landing.py [--limit N] [--generated N [--seed S]]

For every claim with a citation, a tag (`{{failed verification}}`) and a replacement by a
fresh page, as `propose_edit` builds them:

- after: the claim found by its fingerprint in the page's extraction (sideapp.edits.locating),
  the change built at its own occurrence (verifier_core.wikitext.edits), cut to its section;
- before: the code at ISSUE_30_BASE (bench/baseline.py), which found the citation by its URL
  or raw text and picked, among its uses, the one whose preceding words looked most like the
  claim: run from that commit's own tree in a subprocess, on the same claims.

Each change is checked by verifier_core.wikitext.landing against the claim's own occurrence
(the extractor's): on the claim's own citation, elsewhere (another sentence, or another claim
parses differently), or refused in words. Time per proposal is the after path's, extraction
included as `propose_edit` pays it (once per page). Prints a table; `--generated N` adds one
over N articles built as the property test builds them (one page cited many times, in many
ways), where the two ways of finding a claim's citation part; `--limit 0` runs those alone.
"""
from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_30_BASE, baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "wikitext"
FRESH = "https://fresh.example/a-new-page"
TODAY = date(2026, 11, 27)
ACTIONS = ("tag", "replace")

BEFORE = """
from datetime import date
from verifier_core.wikitext import extract
from verifier_core.wikitext.edits import CitedRef, LocateError, NewSource, replace_citation, tag_failed_verification
out = []
for path, index in payload["claims"]:
    text = open(path, encoding="utf-8").read()
    extraction = extract(text, "Page")
    claim = extraction.claims[index]
    c = extraction.citations[claim.citation_indices[0]]
    cited = CitedRef(raw=c.raw, ref_name=c.ref_name, kind=c.kind)
    for action in payload["actions"]:
        try:
            if action == "tag":
                new = tag_failed_verification(text, claim_text=claim.text, cited=cited, when=date(2026, 11, 27)).new
            else:
                new = replace_citation(text, claim_text=claim.text, cited=cited,
                                       source=NewSource(url=payload["fresh"], access_date=date(2026, 11, 27))).new
        except LocateError as exc:
            out.append([path, index, action, None, str(exc)])
            continue
        p = 0
        while p < min(len(text), len(new)) and text[p] == new[p]:
            p += 1
        s = 0
        while s < min(len(text), len(new)) - p and text[-1 - s] == new[-1 - s]:
            s += 1
        out.append([path, index, action, [p, new[p:len(new) - s], len(text) - s], ""])
print(json.dumps({"changes": out}))
"""


def articles(limit: int | None) -> list[Path]:
    files = sorted(SHARED.glob("*.wiki"))
    if not files:
        sys.exit(f"no articles in {SHARED}: this benchmark reads ../shared/data/wikitext")
    return files[:limit] if limit else files


def after(paths: list[Path]) -> tuple[dict, float, int]:
    """{(path, index, action): new text or refusal} built as propose_edit builds them."""
    from verifier_core.wikitext import extract
    from verifier_core.wikitext.edits import (LocateError, NewSource, occurrence_target, replace_citation,
                                              tag_failed_verification)
    from verifier_core.wikitext.sections import section_change

    results, started, count = {}, time.perf_counter(), 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        extraction = extract(text, "Page")  # propose_edit extracts each page once
        for index, claim in enumerate(extraction.claims):
            if not claim.occurrences:
                continue
            for action in ACTIONS:
                count += 1
                try:
                    target = occurrence_target(text, claim.occurrences[0])
                    change = (tag_failed_verification(text, target=target, when=TODAY) if action == "tag" else
                              replace_citation(text, target=target, source=NewSource(url=FRESH, access_date=TODAY)))
                    section_change(change.old, change.new, claim.section_number)
                    results[(str(path), index, action)] = change.new
                except LocateError as exc:
                    results[(str(path), index, action)] = LocateError(str(exc))
    return results, time.perf_counter() - started, count


def before(paths: list[Path], keys: list[tuple[str, int]]) -> dict:
    with baseline_tree(ISSUE_30_BASE, ("verifier_core",)) as folder:
        answer = run_in(folder, BEFORE, {"claims": keys, "actions": list(ACTIONS), "fresh": FRESH})
    results = {}
    texts = {str(p): p.read_text(encoding="utf-8") for p in paths}
    for path, index, action, window, refusal in answer["changes"]:
        if window is None:
            results[(path, index, action)] = ValueError(refusal)
            continue
        start, inserted, end = window
        text = texts[path]
        results[(path, index, action)] = text[:start] + inserted + text[end:]
    return results


def judged(results: dict, paths: list[Path]) -> dict[str, dict[str, int]]:
    """Counts per action: own, elsewhere, refused."""
    from verifier_core.wikitext import extract
    from verifier_core.wikitext.landing import landing

    counts = {a: {"own": 0, "elsewhere": 0, "refused": 0} for a in ACTIONS}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        extraction = extract(text, "Page")
        for index, claim in enumerate(extraction.claims):
            for action in ACTIONS:
                new = results.get((str(path), index, action))
                if new is None:
                    continue
                if isinstance(new, Exception):
                    counts[action]["refused"] += 1
                    continue
                own = claim.occurrences[0]
                where = landing(text, new, index=index, action=action, start=own.start, end=own.end,
                                new_url=FRESH, before=extraction)
                counts[action]["own" if where.own else "elsewhere"] += 1
    return counts


def generated(count: int, seed: int, folder: Path) -> list[Path]:
    """`count` articles of the property test's kind (tests/test_edits_property.py: one page
    cited many times and in many ways), drawn with a seeded generator, written to `folder`."""
    import random

    from tests.test_edits_property import DECORATIONS, FORMS, article

    rng, paths = random.Random(seed), []
    for n in range(count):
        chosen = [(rng.choice(("para", "item", "row", "field")),
                   (rng.choice(FORMS), rng.randint(0, 1), rng.choice(DECORATIONS)))
                  for _ in range(rng.randint(3, 9))]
        path = folder / f"generated-{n:04d}.wiki"
        path.write_text(article(chosen), encoding="utf-8")
        paths.append(path)
    return paths


def compare(what: str, paths: list[Path]) -> None:
    new, seconds, count = after(paths)
    keys = sorted({(p, i) for p, i, _ in new})
    old = before(paths, [list(k) for k in keys])
    print(f"\n{what}: {len(paths)} articles, {len(keys)} claims with a citation, {count} proposals per side\n")
    print("| action | side | on the claim's own citation | elsewhere | refused in words |")
    print("|---|---|---|---|---|")
    for side, results in (("before", old), ("after", new)):
        for action, c in judged(results, paths).items():
            print(f"| {action} | {side} | {c['own']} | {c['elsewhere']} | {c['refused']} |")
    print(f"\nafter: {1000 * seconds / max(1, count):.1f} ms per proposal (extraction once per page included)")


def main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="first N articles only")
    parser.add_argument("--generated", type=int, default=0, help="also N generated articles (the property test's)")
    parser.add_argument("--seed", type=int, default=30)
    opts = parser.parse_args()
    print(load_line("before the run"))
    if opts.limit != 0:
        compare("real articles (../shared/data/wikitext)", articles(opts.limit))
    if opts.generated:
        with tempfile.TemporaryDirectory(prefix="side-landing-") as folder:
            compare(f"generated articles (seed {opts.seed})", generated(opts.generated, opts.seed, Path(folder)))
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
