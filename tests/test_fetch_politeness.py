"""Politeness: one request at a time per host, with a pause between requests."""

from __future__ import annotations

import contextlib
import threading
import unittest

from harness.webserver import SourceServer
from tests.test_fetch_source import FIXTURES, loopback_policy
from verifier_core.fetch import FetchStatus, HostSlots, fetch_source


class PolitenessTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.server = SourceServer(FIXTURES)
        cls.server.start()
        cls.addClassCleanup(cls.server.stop)

    def setUp(self) -> None:
        self.server.reset_counts()

    def test_it_waits_the_minimum_delay_between_two_requests_to_one_host(self):
        policy = loopback_policy(host_slot=HostSlots(min_delay=0.5))
        for _ in range(2):
            self.assertEqual(
                fetch_source(self.server.url("/pages/notes.txt"), policy=policy).status,
                FetchStatus.OK,
            )
        first, second = (r.time for r in self.server.requests("/pages/notes.txt"))
        self.assertGreaterEqual(second - first, 0.5)

    def test_concurrent_fetches_of_one_host_take_turns(self):
        # Each response takes 0.3 s; with the slot held, the second starts after the first ends.
        policy = loopback_policy(host_slot=HostSlots(min_delay=0.2))
        url = self.server.url("/slow/notes.txt?delay=0.3")
        workers = [
            threading.Thread(target=fetch_source, args=(url,), kwargs={"policy": policy})
            for _ in range(2)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=10)
        first, second = (r.time for r in self.server.requests("/slow/notes.txt"))
        self.assertGreaterEqual(second - first, 0.3 + 0.2)

    def test_other_hosts_do_not_wait(self):
        slots = HostSlots(min_delay=5.0)
        with slots("one.example"):
            pass
        done = threading.Event()
        threading.Thread(target=lambda: (slots("two.example").__enter__(), done.set())).start()
        self.assertTrue(done.wait(timeout=1.0))

    def test_the_app_can_supply_its_own_slot_hook(self):
        seen: list[str] = []

        @contextlib.contextmanager
        def host_slot(host: str):
            seen.append(host)
            yield

        policy = loopback_policy(host_slot=host_slot)
        result = fetch_source(self.server.url("/redirect/notes.txt"), policy=policy)
        self.assertEqual(result.status, FetchStatus.OK)
        self.assertEqual(seen, ["127.0.0.1", "127.0.0.1"])  # one slot per request, redirects too
