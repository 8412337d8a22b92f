"""Score cache keyed by model version + claim + passage text.

Claims are re-verified whenever an article is re-scanned and popular sources are
cited by many claims, so the same (claim, passage) pair comes back often. An
in-memory LRU serves a worker; an optional SQLite file shares results between
workers and restarts. A new model version never reads an old entry.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path


def cache_key(model_version: str, *parts: str) -> str:
    digest = hashlib.sha256()
    for part in (model_version, *parts):
        digest.update(part.encode("utf-8", errors="replace"))
        digest.update(b"\x00")  # keeps ("ab", "c") and ("a", "bc") apart
    return digest.hexdigest()


class ScoreCache:
    def __init__(self, max_items: int = 50_000, path: Path | None = None):
        self.max_items = max_items
        self._items: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self._db = None
        if path is not None:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def get(self, key: str):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            value = self._disk_get(key)
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self._remember(key, value)
            return value

    def put(self, key: str, value) -> None:
        with self._lock:
            self._remember(key, value)
            if self._db is not None:
                self._db.execute("INSERT OR REPLACE INTO scores VALUES (?, ?)", (key, json.dumps(value)))
                self._db.commit()

    def __len__(self) -> int:
        return len(self._items)

    def _remember(self, key: str, value) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.max_items:
            self._items.popitem(last=False)

    def _disk_get(self, key: str):
        if self._db is None:
            return None
        row = self._db.execute("SELECT value FROM scores WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None
