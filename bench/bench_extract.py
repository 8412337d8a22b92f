"""Benchmark: the CPU a fetched HTML page costs to turn into text, title, site name and
metadata (`verifier_core.fetch.extract.html_extract`), this checkout beside a baseline
commit in one run, on the project's own HTML fixtures.

    .venv/bin/python bench/bench_extract.py [--rounds 20] [--baseline COMMIT]

Each side extracts every page `--rounds` times in its own process (the baseline's
`verifier_core` written out of git, bench/baseline.py); printed: CPU ms per page (median
of the rounds' means) and whether both sides give the same output for every page.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import baseline_tree, run_in  # noqa: E402
from bench.machine import load_line  # noqa: E402

# main before the page was parsed once for its title, metadata and visible text.
PARSE_ONCE_BASE = "f55f9d7cc151a7490881a2fa43ff8ea3baa1a025"
SNIPPET = """
import statistics, time
from dataclasses import asdict
from verifier_core.fetch.extract import html_extract
pages = payload["pages"]
outputs = [asdict(html_extract(html, url)) for url, html in pages]
means = []
for _ in range(payload["rounds"]):
    started = time.process_time()
    for url, html in pages:
        html_extract(html, url)
    means.append(1000 * (time.process_time() - started) / len(pages))
print(json.dumps({"ms": statistics.median(means), "outputs": outputs}))
"""


def fixture_pages() -> list[tuple[str, str]]:
    paths = sorted([*(ROOT / "fixtures" / "sources").rglob("*.html"), *(ROOT / "tests" / "fixtures_fetch").rglob("*.html")])
    return [(f"http://pages.example/{p.name}", p.read_text(encoding="utf-8", errors="replace")) for p in paths]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--baseline", default=PARSE_ONCE_BASE, metavar="COMMIT")
    args = parser.parse_args()
    print(load_line("before the run"))
    payload = {"pages": fixture_pages(), "rounds": args.rounds}
    with baseline_tree(args.baseline, paths=("verifier_core",)) as folder:
        before = run_in(folder, SNIPPET, payload)
    after = run_in(str(ROOT), SNIPPET, payload)
    same = sum(a == b for a, b in zip(before["outputs"], after["outputs"]))
    print(f"\n{len(payload['pages'])} HTML pages, {args.rounds} rounds, CPU ms per page (median of the rounds):\n")
    print("| code | ms per page |\n|---|---|")
    print(f"| baseline {args.baseline[:7]} | {before['ms']:.2f} |")
    print(f"| this checkout | {after['ms']:.2f} |")
    print(f"\nsame output (text, title, site name, metadata) for {same} of {len(payload['pages'])} pages")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
