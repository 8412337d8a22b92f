"""gunicorn's settings for Side editor (read from the working directory: `gunicorn sideapp.wsgi`).

Workers: gunicorn's own rule of thumb, (2 x cores) + 1. A request spends part of its time
waiting for PostgreSQL; with one worker per core that time would leave a core idle.
"""
import multiprocessing
import os

bind = os.environ.get("SIDE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SIDE_WEB_WORKERS", multiprocessing.cpu_count() * 2 + 1))
