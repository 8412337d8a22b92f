"""A reverse proxy on loopback in front of a wiki (or any HTTP server) that misbehaves on
demand: it holds matching requests until released, answers 503, or answers as a lagged
MediaWiki does (`maxlag`). For tests and the fault suite (bench/fault_suite.py): a watcher
killed in the middle of its read, two watchers at once, a wiki down for a minute.

    with FaultyProxy(wiki.base_url) as proxy:
        proxy.hold("list=recentchanges")     # such requests wait...
        proxy.wait_held(1)                   # ...until one is in flight
        proxy.release()                      # then go through
        proxy.fail(503)                      # every request answers 503 until proxy.heal()
        proxy.drop_answer("action=edit")     # such requests reach the wiki, their answers never come back
        proxy.delay("action=edit", 3)        # such requests reach the wiki 3 s late (past a client's timeout)

Plain Python (no Django), so scripts can use it.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote_plus, urlsplit

import requests

from harness.mw_support import LOOPBACK, free_port

_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"}


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a held request must not keep stop() waiting

    def handle_error(self, request, client_address) -> None:
        pass  # a client killed while its request was held (the point of holding it)


class FaultyProxy:
    def __init__(self, upstream: str, *, port: int | None = None):
        self.upstream = upstream.rstrip("/")
        self.port = port
        self._server: ThreadingHTTPServer | None = None
        self._lock = threading.Condition()
        self._hold: str | None = None  # a request whose URL or body holds this text waits
        self._released = threading.Event()
        self.held = 0  # requests waiting now
        self.failure: int | str | None = None  # 503, or "maxlag"
        self._drop: str | None = None  # a request holding this text is relayed, its answer dropped
        self._delay: tuple[str, float] | None = None  # a request holding this text is relayed this late
        self.relayed_late = threading.Event()  # a delayed request has reached the upstream and been answered
        self.answered: list[tuple[float, str, int]] = []  # (time, what, status)

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}{urlsplit(self.upstream).path}/api.php"

    # -- faults ---------------------------------------------------------------------
    def hold(self, text: str) -> None:
        """Requests whose URL or form body contain `text` wait until release()."""
        self._released.clear()
        self._hold = text

    def release(self) -> None:
        self._hold = None
        self._released.set()

    def wait_held(self, count: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while self.held < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no request held within {timeout:g} s")
                self._lock.wait(left)

    def fail(self, how: int | str) -> None:
        """Every request answers `how`: an HTTP status (503) or "maxlag"."""
        self.failure = how

    def heal(self) -> None:
        self.failure = None
        self._drop = self._delay = None

    def drop_answer(self, text: str) -> None:
        """Requests whose URL or form body contain `text` go through to the upstream, which
        acts on them; the connection is then closed with no answer (a connection lost after
        sending: the client cannot know whether the wiki saved)."""
        self._drop = text

    def delay(self, text: str, seconds: float) -> None:
        """Requests whose URL or form body contain `text` reach the upstream `seconds` late
        (a wiki slower than its client's timeout); `relayed_late` is set once one has been
        answered there."""
        self.relayed_late.clear()
        self._delay = (text, seconds)

    # -- process --------------------------------------------------------------------
    def start(self) -> str:
        proxy = self

        class Handler(_Handler):
            owner = proxy

        self.port = self.port or free_port()
        self._server = _Server((LOOPBACK, self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self.base_url

    def stop(self) -> None:
        self.release()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FaultyProxy":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _wait_if_held(self, what: str) -> None:
        if not self._hold or self._hold not in what:
            return
        with self._lock:
            self.held += 1
            self._lock.notify_all()
        try:
            self._released.wait(600)
        finally:
            with self._lock:
                self.held -= 1


class _Handler(BaseHTTPRequestHandler):
    owner: FaultyProxy
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self._relay(b"")

    def do_POST(self) -> None:
        self._relay(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

    def _relay(self, body: bytes) -> None:
        owner = self.owner
        what = unquote_plus(self.path + "?" + body.decode("latin-1"))
        failure = owner.failure
        if failure is not None:
            self._failed(failure, what)
            return
        owner._wait_if_held(what)
        late = owner._delay is not None and owner._delay[0] in what
        if late:
            time.sleep(owner._delay[1])
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
        try:
            upstream = requests.request(self.command, owner.upstream + self.path, data=body or None, headers=headers,
                                        timeout=120, allow_redirects=False)
        except requests.RequestException:
            self._send(502, b"upstream did not answer", [("Content-Type", "text/plain")], what)
            return
        finally:
            if late:
                owner.relayed_late.set()
        if owner._drop is not None and owner._drop in what:
            owner.answered.append((time.time(), what[:200], 0))
            self.close_connection = True  # nothing written: the client reads a closed connection
            return
        # Each header as sent (several Set-Cookie lines stay several), the body decoded.
        kept = [(k, v) for k, v in upstream.raw.headers.items() if k.lower() not in _HOP]
        self._send(upstream.status_code, upstream.content, kept, what)

    def _failed(self, failure: int | str, what: str) -> None:
        if failure == "maxlag":
            error = {"error": {"code": "maxlag", "info": "Waiting for 10.0.0.1: 12 seconds lagged.",
                               "host": "10.0.0.1", "lag": 12}}
            self._send(200, json.dumps(error).encode(), [("Content-Type", "application/json"), ("Retry-After", "5"),
                                                         ("X-Database-Lag", "12")], what)
        else:
            self._send(int(failure), b"<html><body>Service Unavailable</body></html>",
                       [("Content-Type", "text/html"), ("Retry-After", "5")], what)

    def _send(self, status: int, body: bytes, headers: list[tuple[str, str]], what: str) -> None:
        self.owner.answered.append((time.time(), what[:200], status))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
