"""fetch_source: one cited URL -> a FetchResult with text or a status saying why not."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from urllib.parse import urljoin

from urllib3 import BaseHTTPResponse

from verifier_core.fetch.extract import (
    GENERIC_TYPES,
    decode,
    extract,
    has_paywall_markers,
    media_type,
    sniff_kind,
)
from verifier_core.fetch.guard import Allowlist, vet
from verifier_core.fetch.transport import Target, open_pinned, parse_target, read_capped
from verifier_core.fetch.types import FetchFailure, FetchPolicy, FetchResult, FetchStatus

REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
# Answers whose body may hold a subscription wall rather than a plain error page.
_WALL_CODES = frozenset({401, 402, 403})
_ERROR_BODY_LIMIT = 256 * 1024
# When the live page is gone, unreachable or empty, an archived copy may still say
# what the editor cited. Not for blocked/too_large/unsupported: those are about the
# citation itself, and an archive would not change them.
ARCHIVE_WORTHY = frozenset(
    {
        FetchStatus.HTTP_ERROR,
        FetchStatus.TIMEOUT,
        FetchStatus.DNS_ERROR,
        FetchStatus.CONNECTION_ERROR,
        FetchStatus.EMPTY,
        FetchStatus.PAYWALL_SUSPECTED,
    }
)


@dataclass(frozen=True)
class _Body:
    url: str
    http_status: int
    content_type: str
    charset: str | None
    kind: str
    data: bytes


def fetch_source(
    url: str, *, archive_url: str | None = None, policy: FetchPolicy = FetchPolicy()
) -> FetchResult:
    """Fetch `url` (then `archive_url` if the live page fails) and extract its text.

    Never raises for bad input or bad servers: every outcome is a FetchResult status.
    """
    started = time.monotonic()
    live = _attempt(url, policy)
    if archive_url and live.status in ARCHIVE_WORTHY:
        archived = _attempt(archive_url, policy)
        if archived.ok:
            reason = f"live URL failed ({live.status}: {live.reason}); used the archived copy"
            return replace(
                archived, used_archive=True, reason=reason, elapsed=time.monotonic() - started
            )
        live = replace(
            live,
            reason=f"{live.reason}; archive copy also failed ({archived.status}: {archived.reason})",
        )
    return replace(live, elapsed=time.monotonic() - started)


def _attempt(url: str, policy: FetchPolicy) -> FetchResult:
    trail = [url]  # every URL visited, so a failure can say where it happened
    try:
        body = _follow(trail, policy, deadline=time.monotonic() + policy.total_timeout)
    except FetchFailure as failure:
        return FetchResult(
            failure.status, failure.reason, trail[-1], failure.http_status, failure.content_type
        )
    return _to_result(body, policy)


def _follow(trail: list[str], policy: FetchPolicy, deadline: float) -> _Body:
    """GET trail[-1], following redirects; every hop is vetted by the guard again."""
    allowlist = Allowlist.parse(policy.allowlist)
    last_code = None
    for _hop in range(policy.max_redirects + 1):
        target = parse_target(trail[-1])
        addresses = vet(target.scheme, target.host, target.port, allowlist)
        with policy.host_slot(target.host):
            if time.monotonic() > deadline:  # the wait for the slot counts too
                raise FetchFailure(
                    FetchStatus.TIMEOUT, f"fetch took over {policy.total_timeout:g}s in total"
                )
            with open_pinned(target, addresses, policy, deadline) as response:
                last_code = response.status
                if response.status in REDIRECT_CODES:
                    trail.append(_redirect_target(target, response))
                    _stay(policy, trail[-1])
                    continue
                try:
                    return _read(target, response, policy, deadline)
                except FetchFailure as failure:
                    # Say what the server answered even when the body was refused.
                    failure.http_status = failure.http_status or response.status
                    failure.content_type = media_type(response.headers.get("Content-Type", ""))[0]
                    raise
    raise FetchFailure(
        FetchStatus.HTTP_ERROR, f"more than {policy.max_redirects} redirects", http_status=last_code
    )


def _stay(policy: FetchPolicy, url: str) -> None:
    if policy.stay_on_hosts and parse_target(url).host not in policy.stay_on_hosts:
        raise FetchFailure(FetchStatus.BLOCKED, f"redirected away from {', '.join(policy.stay_on_hosts)} "
                           f"to {url}, which is not fetched live")


def _redirect_target(target: Target, response: BaseHTTPResponse) -> str:
    location = response.headers.get("Location", "").strip()
    if not location:
        raise FetchFailure(
            FetchStatus.HTTP_ERROR,
            f"HTTP {response.status} redirect without a Location",
            response.status,
        )
    return urljoin(target.url, location)


def _read(
    target: Target, response: BaseHTTPResponse, policy: FetchPolicy, deadline: float
) -> _Body:
    mtype, charset = media_type(response.headers.get("Content-Type", ""))
    if response.status >= 400:
        _raise_http_error(target, response, policy, deadline, charset)
    # Refuse unsupported types before downloading them; generic types are sniffed.
    if mtype not in GENERIC_TYPES and sniff_kind(mtype, b"") is None:
        raise FetchFailure(
            FetchStatus.UNSUPPORTED_TYPE,
            f"content type {mtype!r} is not HTML, PDF or text",
            response.status,
        )
    data = read_capped(response, target, policy, deadline, policy.max_bytes)
    kind = sniff_kind(mtype, data[:1024])
    if kind is None:
        raise FetchFailure(
            FetchStatus.UNSUPPORTED_TYPE,
            f"content type {mtype or 'missing'!r} and the body " "is not a PDF",
            response.status,
        )
    return _Body(target.url, response.status, mtype, charset, kind, data)


def _raise_http_error(
    target: Target,
    response: BaseHTTPResponse,
    policy: FetchPolicy,
    deadline: float,
    charset: str | None,
) -> None:
    code = response.status
    reason = f"HTTP {code} {response.reason or ''}".strip()
    if code in _WALL_CODES:
        try:
            page = read_capped(
                response, target, policy, deadline, min(policy.max_bytes, _ERROR_BODY_LIMIT)
            )
        except FetchFailure:
            page = b""  # an unreadable error page is still the HTTP error it announced
        if has_paywall_markers(decode(page, charset, html=True)):
            raise FetchFailure(
                FetchStatus.PAYWALL_SUSPECTED, f"{reason} with a subscription wall", code
            )
    raise FetchFailure(FetchStatus.HTTP_ERROR, reason, code)


def _to_result(body: _Body, policy: FetchPolicy) -> FetchResult:
    site, meta = "", {}

    def result(status: FetchStatus, reason: str, title: str = "", text: str = "") -> FetchResult:
        return FetchResult(
            status,
            reason,
            body.url,
            body.http_status,
            body.content_type,
            title,
            text,
            len(body.data),
            site_name=site,
            meta=meta,
        )

    try:
        page = extract(body.kind, body.data, body.charset, body.url)
    except FetchFailure as failure:
        return result(failure.status, failure.reason)
    site = page.site_name
    meta.update(page.meta)
    if page.paywalled:
        return result(
            FetchStatus.PAYWALL_SUSPECTED,
            f"only {len(page.text)} characters of text, with subscription-wall phrases",
            page.title,
            page.text,
        )
    if len(page.text) < policy.min_text_chars:
        return result(
            FetchStatus.EMPTY,
            f"{len(page.text)} characters of text extracted from the {body.kind} "
            f"(fewer than {policy.min_text_chars})",
            page.title,
            page.text,
        )
    return result(
        FetchStatus.OK,
        f"{len(page.text)} characters of text from {len(body.data)} bytes of " f"{body.kind}",
        page.title,
        page.text,
    )
