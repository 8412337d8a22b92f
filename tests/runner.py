"""Test runner: checks the real services first and isolates the queues.

Tests talk to real PostgreSQL, Redis and MediaWiki; when one is missing the run stops
at once with the command that starts it, instead of failing in a hundred places.
"""
from __future__ import annotations

import logging
import os
import time
import unittest
from collections import Counter

import redis
from django.conf import settings
from django.test.runner import DiscoverRunner


class ServiceMissing(RuntimeError):
    pass


class ClassTimesResult(unittest.TextTestResult):
    """Wall time per test class, its class fixtures included (what ran since the previous
    test ended), the slowest printed at the end: `SIDE_TEST_TIMES=1 manage.py test`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.times, self._last = Counter(), time.perf_counter()

    def stopTest(self, test):
        super().stopTest(test)
        now = time.perf_counter()
        self.times[f"{type(test).__module__}.{type(test).__qualname__}"] += now - self._last
        self._last = now

    def printErrors(self):
        super().printErrors()
        self.stream.writeln("\nSlowest test classes (wall seconds, class fixtures included):")
        for name, seconds in self.times.most_common(25):
            self.stream.writeln(f"{seconds:8.1f}  {name}")


class SideTestRunner(DiscoverRunner):
    def get_resultclass(self):
        if os.environ.get("SIDE_TEST_TIMES") == "1" and not (self.debug_sql or self.pdb):
            return ClassTimesResult
        return super().get_resultclass()

    def setup_test_environment(self, **kwargs):
        super().setup_test_environment(**kwargs)
        # No web archive unless a test starts its own (tests.archive_support): the default is
        # the Internet Archive, out of reach here. Workers started by tests read the environment.
        os.environ["SIDE_ARCHIVES"] = settings.SIDE_ARCHIVES = "none"
        # Tests create many users; the production hasher is slow on purpose.
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # Refused requests and retried wiki calls are expected in tests; keep output readable.
        for name in ("django.request", "django.security.csrf", "sideapp.scans.wikiapi", "sideapp.scans.services",
                     "sideapp.corpus.imports", "sideapp.pipeline.stages"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        url = settings.SIDE_TEST_REDIS_URL
        settings.REDIS_URL = url
        for queue in settings.RQ_QUEUES.values():
            queue["URL"] = url
        try:
            redis.Redis.from_url(url).flushdb()
        except redis.RedisError as exc:
            raise ServiceMissing(
                f"Redis is not answering at {url} ({exc}); start it with bin/bootstrap"
            ) from exc
