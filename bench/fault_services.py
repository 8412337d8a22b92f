"""The fault suite's own services (bench/fault_suite.py): a PostgreSQL cluster and a Redis of
its own on ports of its own, so that restarting them touches no one else's, and the workers
kept running as a service manager keeps them (an exited worker is started again).

Plain Python; the cluster is made with Debian's initdb/pg_ctl (as the postgres user when run
as root) in a temporary folder and removed at the end.
"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL_WORKER = "sideapp.pipeline.worker.SideModelWorker"


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise SystemExit(f"{name} not found under /usr/lib/postgresql/*/bin (Debian's postgresql package)")
    return found[-1]


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the postgres user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class OwnPostgres:
    """A throwaway cluster on `port` (trust authentication, loopback only)."""

    def __init__(self, port: int):
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="side-faults-pg-"))
        self.data = self.dir / "data"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/side_faults"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options,
                                     "-l", str(self.dir / "log"), "-w", *args]), check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        if not self.data.exists():
            subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres"]),
                           check=True, stdout=subprocess.DEVNULL)
        self._ctl("start")
        subprocess.run(["psql", f"postgres://postgres@127.0.0.1:{self.port}/postgres", "-qc",
                        "CREATE DATABASE side_faults"], check=False, stderr=subprocess.DEVNULL)

    def restart(self) -> None:
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        try:
            self._ctl("-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class OwnRedis:
    """A redis-server on `port` without persistence: restarted, it comes back empty (every
    queue lost), the hardest case for the pipeline's recovery."""

    def __init__(self, port: int):
        self.port = port
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL)
        for _ in range(50):
            if subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).returncode == 0:
                return
            time.sleep(0.1)
        raise SystemExit(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc = None


class Workers:
    """One worker of each kind (as in the demo), started again whenever one exits."""

    KINDS = {"cheap": ["scan", "fetch", "default", "--with-scheduler"],
             "model": ["verify", "--worker-class", MODEL_WORKER]}

    def __init__(self, env: dict, log_dir: Path):
        self.env, self.log_dir = env, log_dir
        self.procs: dict[str, subprocess.Popen] = {}
        self.restarts = {kind: 0 for kind in self.KINDS}

    def start(self, kind: str) -> None:
        log = open(self.log_dir / f"{kind}.log", "ab")
        self.procs[kind] = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "rqworker", *self.KINDS[kind]],
                                            env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def start_all(self) -> None:
        for kind in self.KINDS:
            self.start(kind)

    def keep(self) -> None:
        """Start again any worker that exited (a service manager's Restart=always)."""
        for kind, proc in list(self.procs.items()):
            if proc.poll() is not None:
                self.restarts[kind] += 1
                self.start(kind)

    def kill(self, kind: str) -> None:
        """SIGKILL: the worker dies where it stands, in the middle of its job."""
        proc = self.procs[kind]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
