"""A real local web archive for tests, benches and the demo: pywb on a loopback port,
holding WARC records (written with warcio) of pages at past dates.

    with LocalArchive(workdir) as archive:
        archive.add([Snapshot(url, "20190312100000", html_bytes)])
        archive.setting          # "CDX_URL REPLAY_PREFIX" for SIDE_ARCHIVES
        archive.replay_prefix    # http://127.0.0.1:PORT/demo/

pywb pins redis 2.x, which the app's RQ cannot use, so it lives in its own virtualenv
(`.venv-pywb`, from requirements-pywb.txt; bin/bootstrap makes it); the WARCs are written here
with warcio from the app's own environment. No Django imports.
"""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
PYWB_BIN = Path(os.environ.get("SIDE_PYWB_BIN", REPO / ".venv-pywb" / "bin"))
CAPTURES_PATH = REPO / "fixtures" / "sources" / "captures.json"
COLLECTION = "demo"


class ArchiveUnavailable(RuntimeError):
    pass


@dataclass(frozen=True)
class Snapshot:
    url: str
    timestamp: str  # 14 digits, UTC
    body: bytes
    status: int = 200
    content_type: str = "text/html; charset=utf-8"


def pywb_available() -> bool:
    return (PYWB_BIN / "wayback").exists() and (PYWB_BIN / "wb-manager").exists()


def demo_snapshots(sources_base_url: str, path: Path = CAPTURES_PATH) -> list[Snapshot]:
    """The demo's cited pages as they were: fixtures/sources/captures.json, each entry
    {"path": URL path on the sources server, "timestamp", "file": under fixtures/sources}."""
    base = sources_base_url.rstrip("/")
    entries = json.loads(path.read_text(encoding="utf-8"))["captures"]
    return [Snapshot(base + e["path"], e["timestamp"], (path.parent / e["file"]).read_bytes(),
                     e.get("status", 200)) for e in entries]


def demo_archive_start(archive: "LocalArchive", sources_base_url: str) -> str:
    """Start `archive` holding the demo's snapshots at this run's sources address (a new run
    may move the sources to another port: the collection is written anew each time)."""
    import shutil

    shutil.rmtree(archive.workdir / "collections" / COLLECTION, ignore_errors=True)
    archive.add(demo_snapshots(sources_base_url))
    return archive.start()


class LocalArchive:
    def __init__(self, workdir: Path, port: int | None = None, host: str = "127.0.0.1", *, record: bool = False):
        self.workdir = Path(workdir)
        self.host, self.port, self.record = host, port or 0, record
        self._process: subprocess.Popen | None = None
        self._warcs = 0

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def cdx_url(self) -> str:
        return f"{self.base_url}/{COLLECTION}/cdx"

    @property
    def replay_prefix(self) -> str:
        return f"{self.base_url}/{COLLECTION}/"

    @property
    def setting(self) -> str:
        return f"{self.cdx_url} {self.replay_prefix}"

    def add(self, snapshots: list[Snapshot]) -> None:
        """Write the snapshots as one WARC file of the collection and index it (a running
        archive reads the new index on its next request)."""
        archive = self.workdir / "collections" / COLLECTION / "archive"
        if not archive.exists():
            self._manager("init", COLLECTION)
        self._warcs += 1
        name = f"side-{os.getpid()}-{self._warcs}-{time.time_ns()}.warc.gz"
        with open(archive / name, "wb") as out:
            writer = WARCWriter(out, gzip=True)
            for snap in snapshots:
                writer.write_record(_record(writer, snap))
        self._manager("reindex", COLLECTION)

    def start(self) -> str:
        if not pywb_available():
            raise ArchiveUnavailable(f"pywb is not installed at {PYWB_BIN}: run bin/bootstrap "
                                     "(it makes .venv-pywb from requirements-pywb.txt)")
        self.workdir.mkdir(parents=True, exist_ok=True)
        if not (self.workdir / "collections" / COLLECTION).exists():
            self._manager("init", COLLECTION)
        self.port = self.port or _free_port(self.host)
        args = [str(PYWB_BIN / "wayback"), "-p", str(self.port), "-b", self.host, "-d", str(self.workdir)]
        log = open(self.workdir / "pywb.log", "ab")
        # Recording mode writes captures asked for at <collection>/record/<url>; auto-indexing
        # makes them answer lookups a second later.
        recording = ["--live", "--record", "-a", "--auto-interval", "1"] if self.record else []
        self._process = subprocess.Popen(args + recording, cwd=self.workdir,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()
        return self.base_url

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=5)
        self._process = None

    def __enter__(self) -> "LocalArchive":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise ArchiveUnavailable(f"pywb exited ({self._process.returncode}); see {self.workdir / 'pywb.log'}")
            try:
                with urllib.request.urlopen(f"{self.cdx_url}?url=http://example.invalid/&output=json", timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answers (404: no such capture)
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise ArchiveUnavailable(f"pywb did not answer on {self.base_url} within {timeout:g} s")

    def _manager(self, *args: str) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([str(PYWB_BIN / "wb-manager"), *args], cwd=self.workdir, capture_output=True, text=True)
        if done.returncode != 0 and "already exists" not in done.stderr + done.stdout:
            raise ArchiveUnavailable(f"wb-manager {' '.join(args)} failed: {done.stderr.strip()[-300:]}")


def _record(writer: WARCWriter, snap: Snapshot):
    when = datetime.strptime(snap.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    headers = StatusAndHeaders(f"{snap.status} {'OK' if snap.status == 200 else 'Status'}",
                               [("Content-Type", snap.content_type), ("Content-Length", str(len(snap.body)))],
                               protocol="HTTP/1.1")
    return writer.create_warc_record(snap.url, "response", payload=io.BytesIO(snap.body), http_headers=headers,
                                     warc_headers_dict={"WARC-Date": when.strftime("%Y-%m-%dT%H:%M:%SZ")})


def _free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]
