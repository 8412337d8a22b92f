"""Politeness shared through Redis: one request at a time per host, a pause between."""
from __future__ import annotations

import threading
import time

import redis
from django.conf import settings
from django.test import SimpleTestCase

from sideapp.sources.politeness import RedisHostSlots


class RedisHostSlotsTests(SimpleTestCase):
    def setUp(self):
        self.client = redis.Redis.from_url(settings.SIDE_TEST_REDIS_URL)
        self.prefix = f"side:test-host:{time.monotonic_ns()}"

    def slots(self, delay: float) -> RedisHostSlots:
        # A separate instance per "worker": they share nothing but Redis.
        return RedisHostSlots(self.client, min_delay=delay, prefix=self.prefix)

    def test_two_workers_never_hit_the_same_host_at_once_and_keep_the_pause(self):
        spans: list[tuple[float, float]] = []

        def fetch(slots: RedisHostSlots) -> None:
            with slots("Example.ORG"):
                start = time.monotonic()
                time.sleep(0.2)
                spans.append((start, time.monotonic()))

        workers = [threading.Thread(target=fetch, args=(self.slots(0.3),)) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        first, second = sorted(spans)
        self.assertGreaterEqual(second[0] - first[1], 0.28)  # no overlap, and the pause

    def test_different_hosts_do_not_wait_for_each_other(self):
        slots = self.slots(5.0)
        with slots("a.example"):
            pass
        started = time.monotonic()
        with slots("b.example"):
            pass
        self.assertLess(time.monotonic() - started, 1.0)
