"""Plain data of the fetcher: the policy going in, the status and result coming out."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable, ContextManager, Sequence

from verifier_core.fetch.politeness import DEFAULT_HOST_SLOTS

DEFAULT_USER_AGENT = "SideEditor/0.1 (+contact)"

# A politeness hook: `with host_slot("example.org"): ...` holds the host's only slot.
HostSlot = Callable[[str], ContextManager[object]]


class FetchStatus(str, enum.Enum):
    """How fetching one source ended. The value is what the app stores."""

    OK = "ok"  # text extracted
    HTTP_ERROR = "http_error"  # 4xx/5xx or too many redirects; the code is in the reason
    TIMEOUT = "timeout"  # connect, read or total time budget exceeded
    TOO_LARGE = "too_large"  # body (announced or streamed) above the byte cap
    UNSUPPORTED_TYPE = "unsupported_type"  # not HTML, PDF or plain text
    BLOCKED = "blocked"  # bad URL or scheme, or the SSRF guard refused an address
    PAYWALL_SUSPECTED = "paywall_suspected"  # short text with subscribe markers
    DNS_ERROR = "dns_error"  # the host name does not resolve
    CONNECTION_ERROR = "connection_error"  # refused, reset, TLS failure, broken response
    EMPTY = "empty"  # fetched, but no usable text in it

    def __str__(self) -> str:
        return self.value


# Statuses where trying again later may succeed; everything else is a property of the
# source itself and retrying only burdens the remote host.
_TRANSIENT = {FetchStatus.TIMEOUT, FetchStatus.CONNECTION_ERROR, FetchStatus.DNS_ERROR}
_TRANSIENT_HTTP = {408, 425, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class FetchPolicy:
    connect_timeout: float = 5.0
    read_timeout: float = 15.0  # per socket read, so also "time to first byte"
    total_timeout: float = 60.0  # whole fetch incl. redirects: stops slow-drip servers
    max_bytes: int = 10 * 1024 * 1024  # decoded body bytes; also bounds gzip bombs
    max_redirects: int = 5
    user_agent: str = DEFAULT_USER_AGENT
    # Host names (exact, case-insensitive) or IP networks in CIDR form ("127.0.0.1",
    # "10.0.0.0/8", "::1") the SSRF guard lets through although they are not public.
    allowlist: Sequence[str] = ()
    host_slot: HostSlot = field(default=DEFAULT_HOST_SLOTS)
    min_text_chars: int = 25  # below this the extracted text is not worth verifying
    verify_tls: bool = True
    ca_bundle: str | None = None  # PEM file of trusted CAs; None means certifi's bundle
    # When set, a redirect to any other host is refused: a copy read from a web archive
    # must never lead the fetcher to the live site the capture came from.
    stay_on_hosts: Sequence[str] = ()


@dataclass(frozen=True)
class FetchResult:
    status: FetchStatus
    reason: str  # human-readable, always set, also for ok
    final_url: str  # after redirects; the archive URL when used_archive
    http_status: int | None = None
    content_type: str = ""  # media type without parameters, e.g. "text/html"
    title: str = ""
    text: str = ""
    fetched_bytes: int = 0  # body bytes read from the final response (decoded)
    used_archive: bool = False
    elapsed: float = 0.0  # seconds, live attempt and archive attempt together
    site_name: str = ""  # the site's own name, from the page (og:site_name or its title)
    meta: dict = field(default_factory=dict)  # PageMeta.to_json() of an HTML page, else {}

    @property
    def ok(self) -> bool:
        return self.status is FetchStatus.OK

    @property
    def retryable(self) -> bool:
        """True when the failure is likely transient (worth a retry with backoff)."""
        if self.status in _TRANSIENT:
            return True
        return self.status is FetchStatus.HTTP_ERROR and self.http_status in _TRANSIENT_HTTP


class FetchFailure(Exception):
    """Raised inside the fetcher to end an attempt; fetch_source turns it into a result."""

    def __init__(
        self,
        status: FetchStatus,
        reason: str,
        http_status: int | None = None,
        content_type: str = "",
    ):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.http_status = http_status
        self.content_type = content_type
