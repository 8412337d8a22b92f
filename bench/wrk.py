"""Load from wrk (Debian's `wrk`, a C load generator): N connections, each one client
with its own session, driven by bench/wrk/pages.lua.

The benchmarks' own Python client threads share the 2 cores and the GIL with each other
and add their own time to every latency; wrk costs a few microseconds a request, so its
figures are the server's. Both are printed side by side.
"""
from __future__ import annotations

import os
import secrets
import shutil
import string
import subprocess
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "wrk" / "pages.lua"
MISSING = "wrk is not installed (apt-get install wrk): no wrk figures"


def available() -> bool:
    return shutil.which("wrk") is not None


def csrf_cookie() -> str:
    """A CSRF cookie of Django's shape: the pages the client gets carry form tokens for it."""
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


def run(base: str, cookies: list[str], *, seconds: float, paths: list[str] | None = None,
        vote: bool = False) -> dict:
    """{p50, p95, p99 (ms), requests, rps, failed} with one connection per cookie line."""
    with tempfile.TemporaryDirectory() as tmp:
        cookie_file, path_file = Path(tmp, "cookies"), Path(tmp, "paths")
        cookie_file.write_text("\n".join(cookies) + "\n")
        path_file.write_text("\n".join(paths or ["/"]) + "\n")
        env = dict(os.environ, SIDE_WRK_COOKIES=str(cookie_file), SIDE_WRK_PATHS=str(path_file),
                   SIDE_WRK_VOTE="1" if vote else "0")
        n = len(cookies)
        out = subprocess.run(["wrk", f"-t{n}", f"-c{n}", f"-d{seconds:g}s", "-s", str(SCRIPT), base],
                             env=env, capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("WRK "))
    p50, p95, p99, requests, rps, failed = line.split()[1:]
    return {"p50": float(p50), "p95": float(p95), "p99": float(p99), "requests": int(requests),
            "rps": float(rps), "failed": int(failed)}
