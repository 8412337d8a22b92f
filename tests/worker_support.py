"""Running a real RQ worker process against the test database and the test Redis."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def worker_env(**extra: str) -> dict[str, str]:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = dict(os.environ, DATABASE_URL=url, REDIS_URL=settings.SIDE_TEST_REDIS_URL,
               DJANGO_SETTINGS_MODULE="sideapp.settings")
    env.update(extra)
    return env


def worker_command(*queues: str, burst: bool = True) -> list[str]:
    command = [sys.executable, str(ROOT / "manage.py"), "rqworker", *queues]
    return command + ["--burst"] if burst else command


def run_burst_worker(*queues: str, timeout: float = 300, **env: str) -> subprocess.CompletedProcess:
    """Run `manage.py rqworker QUEUES --burst` until the queues are empty."""
    return subprocess.run(worker_command(*queues), env=worker_env(**env), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
