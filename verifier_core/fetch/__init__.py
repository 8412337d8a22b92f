"""Fetch one cited URL and turn it into text, safely.

    from verifier_core.fetch import FetchPolicy, fetch_source, normalise_url
    result = fetch_source(url, archive_url=archive, policy=FetchPolicy(allowlist=["127.0.0.1"]))
    if result.ok: ... result.title, result.text

Statuses (FetchStatus, a str enum; every result also carries a human-readable reason):
ok, http_error (code in reason and http_status; also too many redirects), timeout,
too_large, unsupported_type, blocked (bad URL/scheme or SSRF guard), paywall_suspected,
dns_error, connection_error (refused, reset, TLS), empty (no usable text).
`FetchResult.retryable` says which failures are worth a retry with backoff.
"""

from verifier_core.fetch.client import ARCHIVE_WORTHY, fetch_source
from verifier_core.fetch.guard import Allowlist, refusal
from verifier_core.fetch.politeness import DEFAULT_HOST_SLOTS, HostSlots
from verifier_core.fetch.types import (
    DEFAULT_USER_AGENT,
    FetchPolicy,
    FetchResult,
    FetchStatus,
    HostSlot,
)
from verifier_core.fetch.urls import normalise_url, page_key, same_page, unwrap_archive
from verifier_core.fetch.wording import failure_sentence

__all__ = [
    "ARCHIVE_WORTHY",
    "Allowlist",
    "DEFAULT_HOST_SLOTS",
    "DEFAULT_USER_AGENT",
    "FetchPolicy",
    "FetchResult",
    "FetchStatus",
    "HostSlot",
    "HostSlots",
    "fetch_source",
    "failure_sentence",
    "normalise_url",
    "page_key",
    "refusal",
    "same_page",
    "unwrap_archive",
]
