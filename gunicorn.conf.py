"""gunicorn's settings for Side editor (read from the working directory: `gunicorn sideapp.wsgi`).

Workers: gunicorn's own rule of thumb, (2 x cores) + 1. A request spends part of its time
waiting for PostgreSQL; with one worker per core that time would leave a core idle.

Timeout: set here, not left to gunicorn's default, because a save's page lock is sized from
it (sideapp/edits/lock_timing.py): the save waits for the lock and holds it within this
many seconds, so a worker is never killed holding a page. SIDE_WEB_TIMEOUT (in .env too)
sets both; a value a save cannot fit in stops the start in words.
"""
import multiprocessing
import os
from pathlib import Path

from dotenv import load_dotenv

from sideapp.edits.lock_timing import WEB_TIMEOUT, lock_timing
from sideapp.env import env_float, env_int

load_dotenv(Path(__file__).resolve().parent / ".env", override=False)

bind = os.environ.get("SIDE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SIDE_WEB_WORKERS", multiprocessing.cpu_count() * 2 + 1))
timeout = env_int("SIDE_WEB_TIMEOUT", WEB_TIMEOUT)
lock_timing(timeout, env_float("SIDE_WIKI_TIMEOUT", 20.0))  # ValueError in words when a save cannot fit
