"""In-process politeness: one request at a time per host, and a pause between them.

The app can replace this with a hook shared across worker processes (e.g. a Redis
lock); anything callable as `host_slot(host)` returning a context manager fits.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Callable, Iterator


class HostSlots:
    """Per-host lock plus a minimum delay between the end of one request and the next."""

    def __init__(
        self,
        min_delay: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.min_delay = min_delay
        self._clock = clock
        self._sleep = sleep
        self._guard = threading.Lock()  # protects the two dicts, never held while waiting
        self._locks: dict[str, threading.Lock] = {}
        self._last_end: dict[str, float] = {}

    def _lock_for(self, host: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(host, threading.Lock())

    @contextlib.contextmanager
    def __call__(self, host: str) -> Iterator[None]:
        host = host.lower()
        with self._lock_for(host):
            last = self._last_end.get(host)
            if last is not None:
                wait = last + self.min_delay - self._clock()
                if wait > 0:
                    self._sleep(wait)
            try:
                yield
            finally:
                # Measured from the end so a slow response does not shorten the pause.
                self._last_end[host] = self._clock()


# Shared by every FetchPolicy that does not bring its own hook, so that all fetches in
# one process respect the same per-host schedule.
DEFAULT_HOST_SLOTS = HostSlots(min_delay=1.0)
