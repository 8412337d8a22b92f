"""A real HTTP server on loopback that plays the web cited by the demo and test wikis.

Plain Python (no Django), so tests, benchmarks and the demo command share it:

    with SourceServer(Path("fixtures/sources")) as server:
        url = server.url("/pages/eiffel.html")

Routes (NAME is a file under ROOT/pages/):
  /pages/NAME          the file, content type by extension (?type=T replaces it,
                       ?charset=X adds a charset parameter, ?gzip=1 compresses it)
  /archive/NAME        the same file: the "archived copy" for archive-url fallbacks
  /redirect/NAME       302 -> /pages/NAME
  /redirect-loop/N     302 -> /redirect-loop/N+1, for ever
  /redirect-to?url=X   302 -> X (any URL: used to test the SSRF guard behind redirects)
  /missing/NAME        404
  /slow/NAME           waits `slow_seconds` (or ?delay=S) then serves /pages/NAME
  /huge/NAME           streams `huge_bytes` of HTML without a Content-Length
  /stall/NAME          sends its headers and the page's first bytes, then nothing (10 minutes)
  /endless/NAME        streams HTML without a Content-Length and without end (until the client leaves)
  /binary/NAME         application/octet-stream junk
  /paywall/NAME        a short teaser with subscription-wall phrases (?status=402 or 403)
  /                    the site's home page (pages/index.html)
  /moved-home/NAME     301 -> / (a page dropped in a redesign)
  /soft404/NAME        200 with pages/not-found.html ("page not found", a soft 404)
  /parked/NAME         200 with pages/parked-domain.html (a lapsed domain, parked for sale)
Every request is counted per path (query excluded) and logged with its arrival time,
Host header and User-Agent. `take_down(NAME)` makes every route that serves NAME answer
404 from then on (a page that dies after it was fetched); `bring_back(NAME)` undoes it. With `tls=(certfile, keyfile)` the server speaks HTTPS and
records the SNI names clients sent.
"""

from __future__ import annotations

import collections
import gzip
import mimetypes
import random
import socket
import ssl
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".pdf": "application/pdf",
    ".txt": "text/plain",
}
_PARAGRAPH = (
    "<p>This filler paragraph exists only to make the page very large, so that a fetcher "
    "must stop reading at its byte cap instead of holding the whole body in memory.</p>\n"
).encode()
_PAYWALL_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{name}</title></head>
<body><article><h1>{name}</h1><p>The first lines of this story are free to read.</p>
<div class="paywall"><p>Subscribe to continue reading. Already a subscriber? Log in.</p></div>
</article></body></html>"""


class Request(NamedTuple):
    time: float  # time.monotonic() at arrival
    path: str  # without the query
    host: str  # the Host header as sent
    user_agent: str


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler stuck in /slow must not block stop()
    source: "SourceServer"

    def handle_error(self, request, client_address) -> None:
        # Clients that stop reading (size caps, timeouts) are expected: stay quiet.
        pass


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "SideFixtureServer/1.0"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        pass  # test output stays readable; counts are kept by SourceServer instead

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        self.server.source._record(
            Request(
                time.monotonic(),
                parts.path,
                self.headers.get("Host", ""),
                self.headers.get("User-Agent", ""),
            )
        )
        route, _, name = parts.path.lstrip("/").partition("/")
        handler = _ROUTES.get(route)
        try:
            if handler is None:
                self._error(HTTPStatus.NOT_FOUND)
            else:
                handler(self, name, query)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up, as fetchers at their cap or timeout do

    # --- responses -----------------------------------------------------------------
    def _send(
        self, code: int, ctype: str, body: bytes, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, code: int) -> None:
        body = f"<html><body><h1>{int(code)} {HTTPStatus(code).phrase}</h1></body></html>".encode()
        self._send(code, "text/html; charset=utf-8", body)

    def _redirect(self, location: str, code: int = 302) -> None:
        self._send(code, "text/html; charset=utf-8", b"", {"Location": location})

    # --- routes --------------------------------------------------------------------
    def page(self, name: str, query: dict[str, str]) -> None:
        path = self.server.source.page_path(name)
        if path is None:
            return self._error(HTTPStatus.NOT_FOUND)
        ctype = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
        ctype = query.get("type") or ctype or "application/octet-stream"
        if "charset" in query:
            ctype += f"; charset={query['charset']}"
        body, headers = path.read_bytes(), {}
        if query.get("gzip") == "1":
            body, headers = gzip.compress(body, mtime=0), {"Content-Encoding": "gzip"}
        self._send(200, ctype, body, headers)

    def redirect(self, name: str, query: dict[str, str]) -> None:
        self._redirect(f"/pages/{name}")

    def redirect_loop(self, name: str, query: dict[str, str]) -> None:
        step = int(name) if name.isdigit() else 0
        self._redirect(f"/redirect-loop/{step + 1}")

    def redirect_to(self, name: str, query: dict[str, str]) -> None:
        if "url" not in query:
            return self._error(HTTPStatus.BAD_REQUEST)
        self._redirect(query["url"])

    def missing(self, name: str, query: dict[str, str]) -> None:
        self._error(HTTPStatus.NOT_FOUND)

    def slow(self, name: str, query: dict[str, str]) -> None:
        time.sleep(float(query.get("delay", self.server.source.slow_seconds)))
        self.page(name, query)

    def huge(self, name: str, query: dict[str, str]) -> None:
        # No Content-Length: the client cannot refuse up front and must cap the stream.
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"<!doctype html><html><head><title>Huge page</title></head><body>\n")
        block = _PARAGRAPH * 256
        for _ in range(self.server.source.huge_bytes // len(block) + 1):
            self.wfile.write(block)
        self.wfile.write(b"</body></html>")

    def stall(self, name: str, query: dict[str, str]) -> None:
        # A server that answers, then stops sending in the middle of the body.
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(b"<!doctype html><html><head><title>Stalled page</title></head><body><p>The first")
        self.wfile.flush()
        time.sleep(float(query.get("seconds", 600)))

    def endless(self, name: str, query: dict[str, str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"<!doctype html><html><head><title>Endless page</title></head><body>\n")
        block = _PARAGRAPH * 64
        while True:  # the client's cap or timeout ends it (BrokenPipe, handled by do_GET)
            self.wfile.write(block)

    def binary(self, name: str, query: dict[str, str]) -> None:
        junk = random.Random(name).randbytes(64 * 1024)  # seeded: the same junk every run
        self._send(200, "application/octet-stream", b"\x00JUNK" + junk)

    def home(self, name: str, query: dict[str, str]) -> None:
        if name:
            return self._error(HTTPStatus.NOT_FOUND)
        self.page("index.html", query)  # the site's home page

    def moved_home(self, name: str, query: dict[str, str]) -> None:
        self._redirect("/", 301)  # a page removed in a redesign: the site sends readers home

    def soft404(self, name: str, query: dict[str, str]) -> None:
        self.page("not-found.html", query)  # "page not found", answered 200

    def parked(self, name: str, query: dict[str, str]) -> None:
        self.page("parked-domain.html", query)  # the domain lapsed and was parked for sale

    def paywall(self, name: str, query: dict[str, str]) -> None:
        code = int(query.get("status", "200"))
        body = _PAYWALL_PAGE.format(name=Path(name).stem or "Story").encode()
        self._send(code, "text/html; charset=utf-8", body)


_ROUTES = {
    "pages": _Handler.page,
    "archive": _Handler.page,
    "redirect": _Handler.redirect,
    "redirect-loop": _Handler.redirect_loop,
    "redirect-to": _Handler.redirect_to,
    "missing": _Handler.missing,
    "slow": _Handler.slow,
    "huge": _Handler.huge,
    "stall": _Handler.stall,
    "endless": _Handler.endless,
    "binary": _Handler.binary,
    "paywall": _Handler.paywall,
    "": _Handler.home,
    "moved-home": _Handler.moved_home,
    "soft404": _Handler.soft404,
    "parked": _Handler.parked,
}


class SourceServer:
    """Serves ROOT/pages on a free loopback port from a background thread."""

    def __init__(
        self,
        root: Path,
        port: int | None = None,
        *,
        host: str = "127.0.0.1",
        slow_seconds: float = 3.0,
        huge_bytes: int = 12 * 1024 * 1024,  # above the fetcher's default 10 MiB cap
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        self.root = Path(root)
        self.host = host
        self.port = port or 0
        self.slow_seconds = slow_seconds
        self.huge_bytes = huge_bytes
        self.tls = tls
        self.sni_names: list[str | None] = []
        self._lock = threading.Lock()
        self._counts: collections.Counter[str] = collections.Counter()
        self._log: list[Request] = []
        self._gone: set[str] = set()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------------------
    def start(self) -> str:
        server_class = _Server6 if ":" in self.host else _Server
        self._httpd = server_class((self.host, self.port), _Handler)
        self._httpd.source = self
        if self.tls:
            self._httpd.socket = self._tls_context().wrap_socket(
                # The handshake then runs in the handler thread, not in the accept loop.
                self._httpd.socket,
                server_side=True,
                do_handshake_on_connect=False,
            )
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"SourceServer:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def _tls_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*self.tls)
        context.sni_callback = lambda _sock, name, _ctx: self.sni_names.append(name)
        return context

    def __enter__(self) -> "SourceServer":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # --- helpers for callers ---------------------------------------------------------
    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + "/" + path.lstrip("/")

    def take_down(self, name: str) -> None:
        """From now on NAME answers 404, as a page taken off its site does."""
        with self._lock:
            self._gone.add(name)

    def bring_back(self, name: str) -> None:
        with self._lock:
            self._gone.discard(name)

    def page_path(self, name: str) -> Path | None:
        """ROOT/pages/NAME if it is a file inside ROOT/pages (no `..` escapes) that has
        not been taken down."""
        with self._lock:
            if name in self._gone:
                return None
        pages = (self.root / "pages").resolve()
        path = (pages / name).resolve()
        return path if path.is_file() and pages in path.parents else None

    def hits(self, path: str) -> int:
        """How many requests asked for `path` (query ignored), e.g. "/pages/a.html"."""
        with self._lock:
            return self._counts[urlsplit(path).path]

    def requests(self, path: str | None = None) -> list[Request]:
        """Requests in arrival order, optionally only those for one path."""
        with self._lock:
            return [r for r in self._log if path is None or r.path == path]

    def reset_counts(self) -> None:
        with self._lock:
            self._counts.clear()
            self._log.clear()

    def _record(self, request: Request) -> None:
        with self._lock:
            self._counts[request.path] += 1
            self._log.append(request)
