"""The uniqueness key of a source: one row per page however a wiki spells its URL.

Hand-written on purpose, after trying the libraries (issue 10): courlan's normalize_url
re-encodes query values through text (`?x=%E9` becomes `?x=%EF%BF%BD`, merging distinct
pages) and keeps fragments; w3lib's canonicalize_url keeps default ports and tracking
parameters and re-encodes paths, so adopting it would change the key, and with it the
citation and claim fingerprints, of every existing database.
"""

from __future__ import annotations

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
