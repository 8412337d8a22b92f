"""Progress of long work (index builds, training, imports, batch verification).

One reporter for every long command: a tqdm bar on a terminal; when the output is not a
terminal (a log file, CI, a worker), a plain line every `every` seconds with done / total,
rate and time left, so that a log shows the work moving without a line per item. A
callback (`on_update`) lets the app mirror the same counts into a database row.

    with Progress(total=len(docs), what="passages", stream=sys.stderr) as progress:
        for batch in batches:
            ...
            progress.advance(len(batch))
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Callable, TextIO


@dataclass(frozen=True)
class Snapshot:
    done: int
    total: int | None
    seconds: float

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        if not self.total or not self.rate:
            return None
        return max(0.0, (self.total - self.done) / self.rate)

    def line(self, what: str) -> str:
        share = f"/{self.total:,} ({100 * self.done / self.total:.0f}%)" if self.total else ""
        left = self.seconds_left
        eta = f", {format_seconds(left)} left" if left is not None else ""
        return f"{self.done:,}{share} {what}, {self.rate:,.1f}/s{eta}"


def format_seconds(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Progress:
    """Counts work done; reports it as a bar (terminal) or periodic lines (otherwise)."""

    def __init__(self, total: int | None = None, what: str = "items", *, stream: TextIO | None = None,
                 every: float = 10.0, on_update: Callable[[Snapshot], None] | None = None,
                 bar: bool | None = None):
        self.total, self.what, self.every = total, what, every
        self.stream = stream if stream is not None else sys.stderr
        self.on_update = on_update
        self.done = 0
        self._started = time.monotonic()
        self._last_line = self._started
        use_bar = bar if bar is not None else _is_terminal(self.stream)
        self._bar = _tqdm(total, what, self.stream) if use_bar else None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def snapshot(self) -> Snapshot:
        return Snapshot(self.done, self.total, time.monotonic() - self._started)

    def set_total(self, total: int) -> None:
        self.total = total
        if self._bar is not None:
            self._bar.total = total
            self._bar.refresh()

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif time.monotonic() - self._last_line >= self.every:
            self._write_line()
        if self.on_update is not None:
            self.on_update(self.snapshot())

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.done:
            self._write_line()

    def _write_line(self) -> None:
        self._last_line = time.monotonic()
        self.stream.write(self.snapshot().line(self.what) + "\n")
        self.stream.flush()


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _tqdm(total: int | None, what: str, stream):
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {what}", file=stream, dynamic_ncols=True, smoothing=0.1)
