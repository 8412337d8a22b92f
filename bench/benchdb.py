"""A benchmark's own PostgreSQL database, dropped and re-created (and migrated) per run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
