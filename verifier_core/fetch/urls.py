"""The uniqueness key of a source: one row per page however a wiki spells its URL.

Hand-written on purpose, after trying the libraries (issue 10): courlan's normalize_url
re-encodes query values through text (`?x=%E9` becomes `?x=%EF%BF%BD`, merging distinct
pages) and keeps fragments; w3lib's canonicalize_url keeps default ports and tracking
parameters and re-encodes paths, so adopting it would change the key, and with it the
citation and claim fingerprints, of every existing database.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
# Query keys that identify a click or campaign, never the document. Lower-case.
_TRACKING_KEYS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "oly_anon_id",
        "oly_enc_id",
        "vero_id",
        "wickedid",
        "ref_src",
        "ref_url",
        "cmpid",
        "s_cid",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hsa_")


def _is_tracking(key: str) -> bool:
    key = key.lower()
    return key in _TRACKING_KEYS or key.startswith(_TRACKING_PREFIXES)


def _host(hostname: str) -> str:
    try:
        # IDNA so that a Unicode host and its punycode spelling give one key.
        return hostname.encode("idna").decode("ascii")
    except UnicodeError:
        return hostname


def normalise_url(url: str) -> str:
    """Lower-case scheme and host, drop default port, fragment and tracking parameters,
    sort the query; the path keeps its case. Never raises: unparsable input comes back
    stripped, so it still works as a (less merged) key."""
    url = (url or "").strip()
    if url.startswith("//"):
        url = "https:" + url  # protocol-relative: wikis serve over https
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    if not parts.hostname or scheme not in _DEFAULT_PORTS:
        return url
    host = _host(parts.hostname.rstrip("."))  # .hostname is already lower-case
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    if "@" in parts.netloc:
        netloc = parts.netloc.rsplit("@", 1)[0] + "@" + netloc
    # Pairs stay exactly as written: decoding and re-encoding would merge distinct
    # byte strings (e.g. %E9 and %C3%A9) into one key.
    pairs = [
        p
        for p in parts.query.split("&")
        if p and not _is_tracking(unquote_plus(p.split("=", 1)[0]))
    ]
    query = "&".join(sorted(pairs))
    return urlunsplit((scheme, netloc, parts.path or "/", query, ""))


# --- "the same page": looser than the key above, for telling whether a suggested page is
# one the claim already cites. Never stored, so it may change without touching any
# fingerprint. It merges what a reader would call one page: http and https, `www.` and
# mobile hosts (`en.m.`, `m.`, `mobile.`), a trailing slash or `index.html`, and an
# archived copy with its original (Wayback-style `/web/<timestamp>/<url>` and the
# archive.today family); the fragment and tracking parameters go as in normalise_url.

_ARCHIVE_HOSTS = frozenset({
    "web.archive.org", "wayback.archive.org", "archive.org", "wayback.archive-it.org",
    "webarchive.org.uk", "webarchive.nationalarchives.gov.uk", "webarchive.loc.gov", "arquivo.pt",
    "archive.today", "archive.ph", "archive.is", "archive.li", "archive.vn", "archive.fo", "archive.md",
    "webcitation.org", "ghostarchive.org",
})
# The timestamp segment (or archive.today's newest/oldest) that the original URL follows:
# `/web/20200101000000id_/https://...`, `/2020/https://...`, `/newest/https://...`.
_ARCHIVED = re.compile(
    r"/(?:\d{4,14}|\d{4}\.\d\d\.\d\d-\d{6}|newest|oldest|\*)(?:[a-z]{2}_|\*)?/(?P<url>\S+)$", re.I)
_INDEX_PAGES = frozenset({"index.html", "index.htm", "index.php", "index.shtml", "default.aspx"})
_MOBILE_LABELS = frozenset({"m", "mobile"})
_WWW = re.compile(r"^www\d*$")


def unwrap_archive(url: str) -> str:
    """The original URL inside an archive service's URL, or `url` itself."""
    for _depth in range(3):  # an archive of an archive is rare; a loop is not
        try:
            parts = urlsplit((url or "").strip())
        except ValueError:
            return url
        host = (parts.hostname or "").removeprefix("www.")
        if host not in _ARCHIVE_HOSTS:
            return url
        inner = _archived_original(parts, url)
        if not inner:
            return url
        url = inner
    return url


def _archived_original(parts, url: str) -> str:
    if (parts.hostname or "").endswith("webcitation.org"):
        found = [v for k, _, v in (p.partition("=") for p in parts.query.split("&")) if k == "url"]
        return unquote_plus(found[0]) if found else ""
    rest = url.split(parts.netloc, 1)[1].split("#", 1)[0]  # path and query, as written
    match = _ARCHIVED.search(rest)
    if match is None:
        return ""
    # Wayback collapses "//" after the scheme on some links: http:/example.org/...
    inner = re.sub(r"^(https?):/+", r"\1://", match.group("url"), flags=re.I)
    return inner if "://" in inner else "http://" + inner


def _page_host(host: str) -> str:
    labels = host.split(".")
    if labels[-1].split(":")[0].isdigit():  # an IPv4 address has no www or mobile label
        return host
    if len(labels) > 2 and _WWW.match(labels[0]):
        labels = labels[1:]
    for at in (0, 1):  # m.example.org, en.m.wikipedia.org
        if len(labels) > at + 2 and labels[at] in _MOBILE_LABELS:
            labels = labels[:at] + labels[at + 1:]
            break
    return ".".join(labels)


def page_key(url: str) -> str:
    """One key per page as a reader sees it (see above); "" for no URL."""
    key = normalise_url(unwrap_archive(url or ""))
    try:
        parts = urlsplit(key)
    except ValueError:
        return key
    if not parts.hostname or parts.scheme not in _DEFAULT_PORTS:
        return key
    host = parts.netloc.rsplit("@", 1)[-1]
    host = _page_host(host) if not host.startswith("[") else host
    path = parts.path.rstrip("/")
    head, _, last = path.rpartition("/")
    if last.lower() in _INDEX_PAGES:
        path = head
    return host + path + (f"?{parts.query}" if parts.query else "")


def same_page(first: str, second: str) -> bool:
    """Whether two URLs are one page for a reader (page_key); two empty URLs are not."""
    key = page_key(first)
    return bool(key) and key == page_key(second)
