"""Response bytes -> (title, text): HTML through trafilatura, PDF through pypdf, plain text.

Bodies come from arbitrary servers, so every parser call is guarded and a failure
becomes a status (EMPTY), never an exception for the caller.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import charset_normalizer
import lxml.etree
import lxml.html
import trafilatura
from pypdf import PdfReader
from w3lib.encoding import html_to_unicode, http_content_type_encoding, read_bom, to_unicode

from verifier_core.fetch.metadata import page_metadata
from verifier_core.fetch.types import FetchFailure, FetchStatus

log = logging.getLogger(__name__)

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
TEXT_TYPES = frozenset({"text/plain"})
# Served for anything by misconfigured servers; the body decides (a PDF is sniffed).
GENERIC_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream"})

# Phrases of subscription walls, lower-case. Only counted together with a short text
# (or a 401/402/403 answer), since full articles also say "subscribe" in footers.
PAYWALL_MARKERS = (
    "subscribe to continue",
    "subscribe to read",
    "subscribers only",
    "subscriber-only",
    "subscription required",
    "to continue reading",
    "continue reading with a subscription",
    "already a subscriber",
    "become a subscriber",
    "this article is for subscribers",
    "sign in to continue",
    "log in to continue",
    "register to continue",
    "paywall",
)
PAYWALL_MAX_CHARS = 1500
_MAX_PDF_PAGES = 500  # bounds the time a pathological PDF can take


@dataclass(frozen=True)
class Extracted:
    title: str
    text: str
    paywalled: bool = False
    site_name: str = ""  # the site's own name ("Arle Valley Gazette"), "" when unknown
    meta: dict = field(default_factory=dict)  # PageMeta.to_json() of an HTML page


def media_type(content_type: str) -> tuple[str, str | None]:
    """("text/html", "utf-8") from "text/html; charset=UTF-8"."""
    main, _, params = content_type.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip("\"'")
    return main.strip().lower(), charset


def sniff_kind(mtype: str, body_start: bytes) -> str | None:
    """ "html", "pdf", "text" or None (unsupported), from the media type and magic bytes."""
    if mtype in HTML_TYPES:
        return "html"
    if mtype in PDF_TYPES:
        return "pdf"
    if mtype in TEXT_TYPES:
        return "text"
    if mtype in GENERIC_TYPES and body_start.lstrip()[:5] == b"%PDF-":
        return "pdf"
    return None


def _guess(body: bytes) -> str:
    """The codec of an undeclared body: UTF-8 when it decodes (undeclared but valid UTF-8
    is almost surely UTF-8), else charset_normalizer's best guess, else windows-1252."""
    try:
        body.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(body).best()
    return best.encoding if best else "cp1252"


def decode(body: bytes, header_charset: str | None, *, html: bool) -> str:
    """Bytes -> str: BOM, then the header's charset, then (HTML) <meta> or the XML
    declaration, then a guess. w3lib does the sniffing as browsers do (WHATWG labels:
    "iso-8859-1" and "ascii" mean windows-1252; unknown labels are ignored)."""
    header = f"text/plain; charset={header_charset}" if header_charset else None
    if html:
        return html_to_unicode(header, body, auto_detect_fun=_guess)[1]
    codec, bom = read_bom(body)
    if codec is not None:
        return body[len(bom):].decode(codec, errors="replace")
    codec = http_content_type_encoding(header) or _guess(body)
    return to_unicode(body, codec)


def tidy(text: str) -> str:
    """Trim lines and collapse runs of blank lines; the text is what evidence offsets index."""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    lines = [re.sub(r"[ \t\f\v\u00a0]+", " ", line).strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _lxml_tree(html: str):
    # Re-encoding sidesteps lxml's refusal of str input that carries an XML declaration.
    parser = lxml.html.HTMLParser(encoding="utf-8")
    return lxml.html.document_fromstring(html.encode("utf-8", errors="replace"), parser=parser)


def _parsed(html: str):
    """The page as an lxml tree, parsed once for its title, metadata and visible text; None
    where lxml cannot read it."""
    try:
        return _lxml_tree(html)
    except (lxml.etree.ParserError, ValueError):
        return None


def _title_of(tree) -> str:
    node = tree.find(".//title") if tree is not None else None
    return node.text_content() if node is not None else ""


def _visible_text(tree) -> str:
    """All visible text: the fallback when trafilatura finds no main text. Drops the
    scripts, styles and head from `tree`: read it last."""
    if tree is None:
        return ""
    for node in tree.xpath("//script|//style|//noscript|//template|//head"):
        node.drop_tree()
    return " ".join(" ".join(tree.itertext()).split())


def _trafilatura(html: str, url: str | None) -> tuple[str, str, str]:
    """(title, text, site name as trafilatura read it from the page's metadata)."""
    try:
        doc = trafilatura.bare_extraction(
            html, url=url, with_metadata=True, include_comments=False, favor_recall=True
        )
    except Exception:  # third-party parser on hostile input: fall back, do not crash
        log.warning("trafilatura failed on %s", url, exc_info=True)
        return "", "", ""
    if doc is None:
        return "", "", ""
    return (doc.title or "").strip(), tidy(doc.text or ""), (doc.sitename or "").strip()


# "Headline | Site", "Headline - Site", "Headline — Site": the site's name ends the title.
_TITLE_SEPARATORS = re.compile(r"\s+[|\u2013\u2014\u00b7:-]{1,2}\s+")
_MAX_SITE_NAME = 80


def site_name(sitename: str, raw_title: str, url: str | None) -> str:
    """The site's own name for a citation's `website=`: its og:site_name (which
    trafilatura reads, falling back to the host name, which is no name at all), else
    the last part of a title like "Headline | Site"; "" when the page does not say."""
    name = " ".join(sitename.split())
    if name and not _is_host(name, url):
        return name[:_MAX_SITE_NAME]
    parts = _TITLE_SEPARATORS.split(" ".join(raw_title.split()))
    last = parts[-1].strip() if len(parts) > 1 else ""
    return last if 0 < len(last) <= _MAX_SITE_NAME and not _is_host(last, url) else ""


def _is_host(name: str, url: str | None) -> bool:
    """Whether `name` is just the URL's host (with or without www. or a port)."""
    host = (urlsplit(url or "").netloc or "").lower()
    bare = name.lower().removeprefix("www.")
    return bool(host) and bare in {host.removeprefix("www."), host.split(":")[0].removeprefix("www.")}


def has_paywall_markers(text: str) -> bool:
    lowered = text.lower()
    return any(marker in lowered for marker in PAYWALL_MARKERS)


def html_extract(html: str, url: str | None) -> Extracted:
    title, text, sitename = _trafilatura(html, url)
    tree = _parsed(html)  # once, for the metadata, the <title> and the visible text (last: it drops nodes)
    meta = page_metadata(html, url, tree=tree).to_json()
    plain_title = " ".join(_title_of(tree).split())
    plain_text = _visible_text(tree) if not text or not title or len(text) < PAYWALL_MAX_CHARS else ""
    text = text or plain_text
    # The wall itself is often an overlay that trafilatura drops: look at all the text.
    paywalled = len(text) < PAYWALL_MAX_CHARS and has_paywall_markers(plain_text or text)
    named = site_name(sitename, "", url) or site_name("", plain_title, url)
    return Extracted(title or plain_title, text, paywalled, named, meta)


def pdf_extract(body: bytes) -> Extracted:
    try:
        reader = PdfReader(io.BytesIO(body))
        if reader.is_encrypted and not reader.decrypt(""):
            raise FetchFailure(FetchStatus.EMPTY, "the PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages[:_MAX_PDF_PAGES]]
        title = (reader.metadata.title if reader.metadata else None) or ""
    except FetchFailure:
        raise
    except Exception as exc:  # pypdf raises many types on malformed files
        raise FetchFailure(FetchStatus.EMPTY, f"unreadable PDF: {exc}") from exc
    return Extracted(str(title).strip(), tidy("\n\n".join(pages)))


def extract(kind: str, body: bytes, charset: str | None, url: str | None) -> Extracted:
    if kind == "pdf":
        return pdf_extract(body)
    if kind == "html":
        return html_extract(decode(body, charset, html=True), url)
    text = tidy(decode(body, charset, html=False))
    return Extracted("", text, len(text) < PAYWALL_MAX_CHARS and has_paywall_markers(text))
