"""Time fetch_source on loopback: N sources of mixed kinds, fetched one after another.

    .venv/bin/python bench/bench_fetch.py [--n 50] [--delay 0]

Serves tests/fixtures_fetch with the harness server (the same one the tests use) and
prints the time per fetch by kind and in total. `--delay` is the politeness pause per
host; every source here lives on one host, so any delay multiplies by N.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.webserver import SourceServer  # noqa: E402
from verifier_core.fetch import FetchPolicy, HostSlots, fetch_source  # noqa: E402

# (kind, path, archive path): the mix an article's citations might have.
KINDS = [
    ("html", "/pages/article.html", None),
    ("html-latin1", "/pages/latin1.html", None),
    ("pdf", "/pages/report.pdf", None),
    ("text", "/pages/notes.txt", None),
    ("redirect", "/redirect/article.html", None),
    ("404+archive", "/missing/article.html", "/archive/article.html"),
    ("paywall", "/paywall/story.html", None),
    ("binary", "/binary/blob.bin", None),
    ("huge", "/huge/page.html", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    policy = FetchPolicy(allowlist=["127.0.0.1"], host_slot=HostSlots(min_delay=args.delay))
    times: dict[str, list[float]] = collections.defaultdict(list)
    statuses: collections.Counter[str] = collections.Counter()
    with SourceServer(ROOT / "tests" / "fixtures_fetch") as server:
        started = time.perf_counter()
        for i in range(args.n):
            kind, path, archive = KINDS[i % len(KINDS)]
            archive_url = server.url(archive) if archive else None
            result = fetch_source(server.url(path), archive_url=archive_url, policy=policy)
            times[kind].append(result.elapsed)
            statuses[result.status.value] += 1
        total = time.perf_counter() - started
    for kind, values in times.items():
        print(
            f"{kind:12s} n={len(values):3d} mean={statistics.mean(values) * 1000:7.1f} ms "
            f"max={max(values) * 1000:7.1f} ms"
        )
    print(f"statuses: {dict(statuses)}")
    print(f"total: {total:.2f} s for {args.n} sources ({args.n / total:.1f} sources/s)")


if __name__ == "__main__":
    main()
