"""Politeness shared by every fetch worker: one request at a time per host, and a pause.

The in-process `HostSlots` of verifier_core only orders one process; workers run as
several processes, so the slot is a Redis lock plus the time the host was last left.
"""
from __future__ import annotations

import contextlib
import time
from functools import lru_cache
from typing import Iterator

import redis
from django.conf import settings

from verifier_core.fetch import FetchPolicy, HostSlots


class RedisHostSlots:
    def __init__(self, client: redis.Redis, min_delay: float, hold_seconds: float = 120.0,
                 prefix: str = "side:host"):
        self.client = client
        self.min_delay = min_delay
        # A lock outlives a killed worker by at most this long, then the host is free again.
        self.hold_seconds = hold_seconds
        self.prefix = prefix

    @contextlib.contextmanager
    def __call__(self, host: str) -> Iterator[None]:
        host = host.lower()
        lock = self.client.lock(f"{self.prefix}:lock:{host}", timeout=self.hold_seconds,
                                blocking_timeout=self.hold_seconds)
        if not lock.acquire():
            raise TimeoutError(f"waited {self.hold_seconds:.0f} s for a turn at {host}")
        try:
            self._wait_turn(host)
            yield
        finally:
            self.client.set(f"{self.prefix}:last:{host}", repr(time.time()), ex=3600)
            with contextlib.suppress(redis.exceptions.LockError):
                lock.release()

    def _wait_turn(self, host: str) -> None:
        last = self.client.get(f"{self.prefix}:last:{host}")
        if last is not None:
            wait = float(last) + self.min_delay - time.time()
            if wait > 0:
                time.sleep(min(wait, self.min_delay))


@lru_cache(maxsize=1)
def _host_slots():
    """Politeness across all worker processes when Redis is there, else within this one."""
    if settings.SIDE_FETCH_HOST_DELAY <= 0:
        return HostSlots(min_delay=0)
    from django_rq import get_connection

    return RedisHostSlots(get_connection("fetch"), min_delay=settings.SIDE_FETCH_HOST_DELAY)


def fetch_policy() -> FetchPolicy:
    return FetchPolicy(
        connect_timeout=settings.SIDE_FETCH_CONNECT_TIMEOUT,
        read_timeout=settings.SIDE_FETCH_READ_TIMEOUT,
        max_bytes=settings.SIDE_FETCH_MAX_BYTES,
        max_redirects=settings.SIDE_FETCH_MAX_REDIRECTS,
        user_agent=settings.SIDE_FETCH_USER_AGENT,
        allowlist=tuple(settings.SIDE_FETCH_ALLOWLIST),
        host_slot=_host_slots(),
    )
