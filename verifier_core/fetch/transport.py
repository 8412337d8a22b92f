"""One HTTP request to an address the guard vetted, streamed under a byte cap.

urllib3 is used directly (not requests) so that nothing re-resolves the host name and
no proxy from the environment reroutes the request: the socket goes to the vetted IP
while the Host header, TLS SNI and certificate check still use the URL's host name.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Iterator

import certifi
import urllib3
from urllib3.exceptions import (
    ConnectTimeoutError,
    HTTPError,
    LocationParseError,
    NewConnectionError,
    ReadTimeoutError,
    SSLError,
)
from urllib3.util import parse_url

from verifier_core.fetch.guard import IPAddress
from verifier_core.fetch.types import FetchFailure, FetchPolicy, FetchStatus

DEFAULT_PORTS = {"http": 80, "https": 443}
ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1"
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str  # bare: no brackets around IPv6, IDNA-encoded, lower-case
    port: int
    request_uri: str  # path and query, sent on the request line

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"


def parse_target(url: str) -> Target:
    """Split an absolute http(s) URL; anything else is BLOCKED (the guard's first rule)."""
    url = url.strip()
    if url.startswith("//"):  # protocol-relative, common in wikitext citations
        url = "https:" + url
    try:
        parts = parse_url(url)  # also percent-encodes characters not allowed in URLs
    except (LocationParseError, ValueError, UnicodeError) as exc:
        raise FetchFailure(FetchStatus.BLOCKED, f"malformed URL {url!r}: {exc}")
    scheme = (parts.scheme or "").lower()
    if scheme not in DEFAULT_PORTS:
        raise FetchFailure(
            FetchStatus.BLOCKED, f"only absolute http(s) URLs are fetched, not {url!r}"
        )
    if not parts.host:
        raise FetchFailure(FetchStatus.BLOCKED, f"URL {url!r} has no host")
    host = parts.host.strip("[]").lower().rstrip(".")
    return Target(url, scheme, host, parts.port or DEFAULT_PORTS[scheme], parts.request_uri)


def _pool(
    target: Target, address: IPAddress, policy: FetchPolicy, timeout: urllib3.Timeout
) -> urllib3.HTTPConnectionPool:
    common = dict(port=target.port, timeout=timeout, retries=False, maxsize=1)
    if target.scheme == "http":
        return urllib3.HTTPConnectionPool(str(address), **common)
    verify = policy.verify_tls
    return urllib3.HTTPSConnectionPool(
        str(address),
        server_hostname=target.host,  # SNI: the name, not the pinned IP
        assert_hostname=target.host if verify else False,
        cert_reqs="CERT_REQUIRED" if verify else "CERT_NONE",
        ca_certs=(policy.ca_bundle or certifi.where()) if verify else None,
        **common,
    )


def _failure(exc: Exception, target: Target, timeout: urllib3.Timeout) -> FetchFailure:
    # NewConnectionError subclasses ConnectTimeoutError in urllib3 2, so it goes first.
    if isinstance(exc, NewConnectionError):
        return FetchFailure(
            FetchStatus.CONNECTION_ERROR, f"cannot connect to {target.host_header}: {exc}"
        )
    if isinstance(exc, ConnectTimeoutError):
        return FetchFailure(
            FetchStatus.TIMEOUT,
            f"connecting to {target.host_header} took over {timeout.connect_timeout:g}s",
        )
    if isinstance(exc, ReadTimeoutError):
        return FetchFailure(
            FetchStatus.TIMEOUT,
            f"{target.host_header} sent nothing for {timeout.read_timeout:.3g}s",
        )
    if isinstance(exc, SSLError):
        return FetchFailure(
            FetchStatus.CONNECTION_ERROR, f"TLS failure with {target.host_header}: {exc}"
        )
    return FetchFailure(
        FetchStatus.CONNECTION_ERROR, f"broken exchange with {target.host_header}: {exc}"
    )


@contextlib.contextmanager
def open_pinned(
    target: Target, addresses: list[IPAddress], policy: FetchPolicy, deadline: float
) -> Iterator[urllib3.BaseHTTPResponse]:
    """GET `target` from the first vetted address that accepts a connection."""
    # Never wait past the total budget, not even for the first byte of a slow server.
    left = max(deadline - time.monotonic(), 0.001)
    timeout = urllib3.Timeout(
        connect=min(policy.connect_timeout, left), read=min(policy.read_timeout, left)
    )
    headers = {
        "Host": target.host_header,
        "User-Agent": policy.user_agent,
        "Accept": ACCEPT,
        "Accept-Encoding": "gzip, deflate",
    }
    for i, address in enumerate(addresses):
        pool = _pool(target, address, policy, timeout)
        try:
            response = pool.urlopen(
                "GET",
                target.request_uri,
                headers=headers,
                redirect=False,
                retries=False,
                preload_content=False,
                decode_content=True,
                assert_same_host=False,
            )
        except NewConnectionError as exc:
            pool.close()
            if i + 1 < len(addresses):
                continue  # another vetted address of the same host may answer
            raise _failure(exc, target, timeout) from exc
        except (HTTPError, OSError) as exc:
            pool.close()
            raise _failure(exc, target, timeout) from exc
        try:
            yield response
        finally:
            response.close()  # drops an unread body instead of draining it
            pool.close()
        return


def read_capped(
    response: urllib3.BaseHTTPResponse,
    target: Target,
    policy: FetchPolicy,
    deadline: float,
    limit: int,
) -> bytes:
    """The decoded body, refusing to hold more than `limit` bytes or run past `deadline`."""
    announced = response.headers.get("Content-Length", "")
    if announced.isdigit() and int(announced) > limit:
        raise FetchFailure(
            FetchStatus.TOO_LARGE, f"announced {int(announced)} bytes, the cap is {limit}"
        )
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in response.stream(_CHUNK, decode_content=True):
            size += len(chunk)
            if size > limit:  # counted after decoding, so a gzip bomb stops here too
                raise FetchFailure(FetchStatus.TOO_LARGE, f"body exceeds the cap of {limit} bytes")
            if time.monotonic() > deadline:
                raise FetchFailure(
                    FetchStatus.TIMEOUT, f"fetch took over {policy.total_timeout:g}s in total"
                )
            chunks.append(chunk)
    except (HTTPError, OSError) as exc:
        raise _failure(exc, target, urllib3.Timeout(read=policy.read_timeout)) from exc
    return b"".join(chunks)
