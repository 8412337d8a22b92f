"""A real nginx (Debian's package) as a reverse proxy on loopback, run as this process's own
child with a throwaway configuration: it never touches /etc/nginx or the system service.

    with Nginx(upstream="127.0.0.1:8300") as proxy:
        requests.get(proxy.base_url + "/api/v1/findings?...")

It passes requests on as a TLS-terminating proxy in production does: `X-Forwarded-For`
gains the address nginx saw ($proxy_add_x_forwarded_for), `X-Forwarded-Proto` and `Host` are
set. Plain Python (no Django).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from harness.mw_support import LOOPBACK, free_port

CONFIG = """
worker_processes 1;
error_log {root}/error.log warn;
pid {root}/nginx.pid;
daemon off;
events {{ worker_connections 256; }}
http {{
    access_log {root}/access.log;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    client_max_body_size 50m;
    server {{
        listen {host}:{port};
        location / {{
            proxy_pass http://{upstream};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


class Nginx:
    def __init__(self, *, upstream: str, port: int | None = None):
        self.upstream = upstream  # host:port of the server behind it
        self.port = port
        self._dir: tempfile.TemporaryDirectory | None = None
        self._proc: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self, timeout: float = 15) -> str:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed: apt-get install nginx (bin/bootstrap does)")
        self.port = self.port or free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="side-nginx-")
        root = Path(self._dir.name)
        root.chmod(0o755)  # its worker may run as another user (nobody) when started by root
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (root / name).mkdir(mode=0o777)
        config = CONFIG.format(root=root, host=LOOPBACK, port=self.port, upstream=self.upstream)
        (root / "nginx.conf").write_text(config)
        command = [binary, "-p", str(root), "-e", str(root / "error.log"), "-c", str(root / "nginx.conf")]
        self._proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      start_new_session=True)  # its own group: stopped with its worker
        self._wait(timeout)
        return self.base_url

    def _wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self._proc.stderr.read().decode(errors='replace')[-2000:]}")
            try:
                requests.get(self.base_url + "/", timeout=2)  # any answer: nginx listens
                return
            except requests.ReadTimeout:  # connected, the server behind it slow to answer: nginx listens
                return
            except requests.ConnectionError:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not listen on {self.base_url} within {timeout:g} s")

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGQUIT)  # graceful; the group takes its worker along
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                self._proc.wait()
        self._proc = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __enter__(self) -> "Nginx":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
