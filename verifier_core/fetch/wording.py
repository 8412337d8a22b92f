"""Why a source could not be read, as a sentence a reader understands.

The fetcher's reasons are for whoever runs the app ("dns_error: cannot resolve host
'x': [Errno -2] ..."); editors get "the site's address could not be found", and the
technical reason stays behind a toggle. Pure: the app's pages and its data migration
both call it.
"""
from __future__ import annotations

import re

_BY_STATUS = {
    "pending": "it has not been fetched yet",
    "timeout": "the site did not answer in time",
    "unsupported_type": "the page is not a web page, PDF or text file",
    "blocked": "its address is not one the app may fetch (not a public web address)",
    "paywall_suspected": "the page is behind a paywall",
    "dns_error": "the site's address could not be found",
    "connection_error": "the site could not be reached",
    "empty": "the page has no readable text",
    "no_url": "the citation has no online copy (no URL)",
}
_HTTP = {
    401: "the page needs a login",
    402: "the page is behind a paywall",
    403: "the site refused the request",
    404: "the page is no longer on the site",
    410: "the page has been removed from the site",
    429: "the site asked for fewer requests",
}
_CAP = re.compile(r"cap (?:of |is )(\d+)")
_TYPE = re.compile(r"content type '([^']+)'")
_ARCHIVE_FAILED = "archive copy also failed"


def failure_sentence(status: str, reason: str = "", http_status: int | None = None) -> str:
    """The fetch outcome `status` (a FetchStatus value) in words, from its reason."""
    reason = reason or ""
    sentence = _sentence(status, reason, http_status)
    if _ARCHIVE_FAILED in reason:
        sentence += "; its archived copy could not be read either"
    return sentence


def _sentence(status: str, reason: str, http_status: int | None) -> str:
    if status == "http_error":
        return _http_sentence(reason, http_status)
    if status == "too_large":
        cap = _CAP.search(reason)
        return f"the page is larger than {_megabytes(int(cap.group(1)))}" if cap else "the page is too large to check"
    if status == "unsupported_type" and (kind := _TYPE.search(reason)):
        return f"{_BY_STATUS[status]} (it is {kind.group(1)})"
    if status == "connection_error" and "TLS" in reason:
        return "the site's secure connection could not be checked (TLS)"
    return _BY_STATUS.get(status, "the page could not be read")


def _http_sentence(reason: str, code: int | None) -> str:
    if reason.startswith("more than") and "redirects" in reason:
        return "the page sends readers round in a loop of redirects"
    if code is None:
        return "the site answered with an error"
    words = _HTTP.get(code) or ("the site had an error" if code >= 500 else "the site answered with an error")
    return f"{words} (HTTP {code})"


def _megabytes(size: int) -> str:
    megabytes = size / (1024 * 1024)
    return f"{megabytes:.0f} MB" if megabytes >= 1 else f"{size // 1024} KB"
