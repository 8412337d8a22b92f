"""What a benchmark's figures depend on besides the code: how busy the machine was.

On 2 shared cores, other work (another session's tests, a build) slows every page and
every encoder several-fold; figures measured then are not comparable with quiet ones.
Each benchmark prints this line before and after its run so a reader can tell. The load
average lags by minutes (it still holds the previous run's tail), so the line also gives
the share of the CPUs that was busy in the two seconds just before it was printed, and the
time of a fixed Python loop (a slower host shows there).
"""
from __future__ import annotations

import os
import time


def _cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies over all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def busy_share(seconds: float = 2.0) -> float | None:
    try:
        busy0, total0 = _cpu_times()
        time.sleep(seconds)
        busy1, total1 = _cpu_times()
    except OSError:  # not Linux
        return None
    return (busy1 - busy0) / max(1, total1 - total0)


def reference_ms() -> float:
    """Time of a fixed piece of pure Python (best of 5): the same code on the same machine
    takes longer when the host gives this machine's cores less time, which nothing inside
    the machine shows otherwise."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        sum(i * i for i in range(1_000_000))
        best = min(best, time.perf_counter() - started)
    return best * 1000


def load_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    busy = busy_share()
    share = "" if busy is None else f"; CPUs {busy:.0%} busy in the last 2 s"
    return (f"machine {when}: load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min) "
            f"on {os.cpu_count()} cores{share}; reference Python loop {reference_ms():.0f} ms")
