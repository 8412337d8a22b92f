"""The API's small Redis keys: targets per scanned revision, the wiki's latest revision of
a page for a minute, and the scan rate limit's windows."""
from __future__ import annotations

import json

import redis
from django.conf import settings

_clients: dict[str, redis.Redis] = {}


def connection() -> redis.Redis:
    url = settings.REDIS_URL  # the test runner points it at the test database
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url)
    return _clients[url]


def cached_json(key: str):
    raw = connection().get(key)
    return json.loads(raw) if raw is not None else None


def keep_json(key: str, value, *, seconds: int) -> None:
    connection().set(key, json.dumps(value), ex=seconds)


def window_hits(key: str) -> tuple[int, int]:
    """The hits counted so far in the window of `key`, without counting one: (hits, seconds left)."""
    pipe = connection().pipeline()
    pipe.get(key)
    pipe.ttl(key)
    hits, left = pipe.execute()
    return int(hits or 0), max(int(left), 1)


def window_count(key: str, *, window: int) -> tuple[int, int]:
    """Count one more hit in the fixed window of `key`: (hits so far, seconds left)."""
    pipe = connection().pipeline()
    pipe.set(key, 0, ex=window, nx=True)
    pipe.incr(key)
    pipe.ttl(key)
    _, hits, left = pipe.execute()
    return int(hits), max(int(left), 1)
