"""A benchmark's own PostgreSQL database, dropped and re-created (and migrated) per run."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def manage(env: dict, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                          check=True, **kwargs)


def fresh_database(name: str, **extra: str) -> dict:
    """Drop and re-create database `name`, migrate it; returns the environment that
    points manage.py (and Django in this process) at it."""
    quiet = dict(os.environ, PGOPTIONS="--client-min-messages=warning")
    subprocess.run(["psql", ADMIN_URL, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True, env=quiet)
    subprocess.run(["psql", ADMIN_URL, "-qc", f"CREATE DATABASE {name}"], check=True, env=quiet)
    env = dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}", **extra)
    manage(env, "migrate", "-v0")
    return env


def own_redis() -> str:
    """This checkout's Redis (REDIS_URL from the environment or .env): other checkouts on the
    same server use other database numbers, so a benchmark touches only its own."""
    from dotenv import dotenv_values

    return os.environ.get("REDIS_URL") or dotenv_values(ROOT / ".env").get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def redis_forget(url: str, patterns: tuple[str, ...] = ("side:*", "rq:*")) -> None:
    """Delete the app's keys (API caches, queues) from `url`, and nothing else."""
    import redis

    connection = redis.Redis.from_url(url)
    for pattern in patterns:
        for key in connection.scan_iter(pattern):
            connection.delete(key)


def django_with(env: dict) -> None:
    """Point this process at `env` (a benchmark's database) and set Django up."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sideapp.settings")
    import django

    django.setup()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(env: dict, settle: float = 4.0, root: Path = ROOT) -> Iterator[str]:
    """The app served by gunicorn as configured in gunicorn.conf.py on a free loopback port,
    given `settle` seconds to start its workers; yields its base URL, stops it after. `root`:
    the tree to serve (a baseline commit's, see bench/baseline.py), this one by default."""
    import time

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "sideapp.wsgi", "-b", f"127.0.0.1:{port}",
                               "--log-level", "warning"], env=env, cwd=root)
    try:
        time.sleep(settle)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)  # its workers finish their requests first (slow on a busy machine)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def load_arguments(doc: str, more=None):
    """--claims, --clients, --seconds: the options of the load benchmarks; `more(parser)`
    adds a benchmark's own."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--claims", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    if more is not None:
        more(parser)
    return parser.parse_args()


def drop_database(name: str) -> None:
    quiet = dict(os.environ, PGOPTIONS="--client-min-messages=warning")
    subprocess.run(["psql", ADMIN_URL, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True, env=quiet)
