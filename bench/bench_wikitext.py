"""Benchmark: verifier_core.wikitext.extract on the largest shared article.

    .venv/bin/python bench/bench_wikitext.py [--article NAME] [--repeat 20]

Parses and extracts the article `--repeat` times and prints articles/s and claims/s,
next to a baseline measured in the same run: mwparserfromhell.parse + strip_code
alone (the least any wikitext-to-text step costs). Wall time and CPU time are both
shown; CPU time is what one core spends, whatever else the machine is doing.
Target: a 150 KB article in under 1 s on one core.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "wikitext"
sys.path.insert(0, str(ROOT))

import mwparserfromhell  # noqa: E402

from verifier_core.wikitext import extract  # noqa: E402


def _pick(name: str | None) -> Path:
    if name:
        path = SHARED / f"{name}.wiki"
        if not path.is_file():
            sys.exit(f"no article {path}")
        return path
    articles = sorted(SHARED.glob("*.wiki"), key=lambda p: p.stat().st_size)
    if not articles:
        sys.exit(f"../shared/data/wikitext not present: looked in {SHARED}")
    return articles[-1]


def _time(run, repeat: int) -> tuple[list[float], list[float], object]:
    walls, cpus, result = [], [], None
    run()  # warm-up: imports, regex compilation
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, result


def _report(label: str, walls: list[float], cpus: list[float], claims: int | None) -> None:
    wall, cpu = statistics.mean(walls), statistics.mean(cpus)
    line = (
        f"{label:<34} {1 / wall:7.2f} articles/s (wall)  {1 / cpu:7.2f} articles/s (cpu)  "
        f"mean {wall * 1000:7.1f} ms  median {statistics.median(walls) * 1000:7.1f} ms  "
        f"max {max(walls) * 1000:7.1f} ms"
    )
    if claims is not None:
        line += f"  {claims / wall:8.0f} claims/s"
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--article", help="file name without .wiki (default: the largest)")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    path = _pick(args.article)
    text = path.read_text(encoding="utf-8")
    print(f"article: {path.name}  {len(text.encode('utf-8')) / 1024:.0f} KB  {len(text)} chars")
    print(f"mwparserfromhell {mwparserfromhell.__version__}, C tokenizer: {mwparserfromhell.parser.use_c}")
    print(f"runs: {args.repeat}")

    walls, cpus, _ = _time(lambda: mwparserfromhell.parse(text).strip_code(), args.repeat)
    _report("baseline parse + strip_code", walls, cpus, None)
    walls, cpus, _ = _time(lambda: mwparserfromhell.parse(text, skip_style_tags=True), args.repeat)
    _report("baseline parse (skip_style_tags)", walls, cpus, None)
    walls, cpus, result = _time(lambda: extract(text, path.stem), args.repeat)
    _report("extract", walls, cpus, len(result.claims))
    print(
        f"extract found {len(result.claims)} claims, {len(result.citations)} citations, "
        f"{result.citation_occurrences} occurrences, {len(result.links)} links"
    )
    verdict = "meets" if max(walls) < 1.0 else "MISSES"
    print(f"{verdict} the target: slowest extract {max(walls):.3f} s (< 1 s)")


if __name__ == "__main__":
    main()
