"""Values that did not come from an editor, made plain text where they are written.

    plain_wikitext(title, "param")   # a template parameter: |title=...
    plain_wikitext(title, "label")   # the label of an external link: [url label]
    plain_wikitext(url, "url")       # a URL (http or https only; NotPlain otherwise)

A fetched page's title, site name, author, date or quote, and a URL a page or an archive
gave, are written into articles many people read. Whatever they hold, the wiki's parser
(with its pre-save transform) must find in them no link, category, file, template,
parameter, signature, magic word or behaviour switch, HTML tag or comment, heading, list,
table, rule, nowiki break-out, entity that decodes into markup, line break or bidi control.

Text keeps its words: only the few characters that could start markup are written as HTML
character references (`[` as `&#91;`, `{` as `&#123;`, `<` as `&lt;`, ...), which the wiki
shows as the same characters. References rather than a `<nowiki>` wrap: a citation
template gets its title as text it can work with (CS1 italicises, quotes and makes
metadata of it; a nowiki strip marker inside it is opaque and CS1 flags it), and the
wikitext of an ordinary title stays exactly as it was, since only characters at risk are
touched. The references are decoded only when the page is rendered, after the parser has
found its markup, so they never become markup themselves; an `&` that would start a
reference of the page's own (`&#91;`, `&lt;`) is written `&amp;`, so it shows as written.

A URL must stay a working address: the characters that would end or break it in wikitext
(space and other blanks, `|`, `{`, `}`, `[`, `]`, `<`, `>`, `"`, runs of `'`, `~`, `_`,
controls) are percent-encoded, which a web server reads as the same address.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Literal
from urllib.parse import urlsplit

from .locate import LocateError

__all__ = ["NotPlain", "plain_wikitext"]

Where = Literal["param", "label", "url"]


class NotPlain(LocateError):
    """A value that cannot be written as plain text there (a URL that is not http or https)."""


# Bidi controls (and the byte-order mark) reorder or hide the text around them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")
_REFERENCES = {"<": "&lt;", ">": "&gt;", "[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;",
               "|": "&#124;"}
_ALWAYS = re.compile(r"[<>\[\]{}|]")
_ENTITY = re.compile(r"&(?=#?\w+;)")  # an & that starts a character reference
_RUNS = re.compile(r"~{3,}|_{2,}|'{2,}")  # signatures, magic words / behaviour switches, bold and italic
# The colon of "https:", "mailto:", "news:" ...: the wiki links a URL in text on its own (a
# "free link"). Every protocol ends in a letter, and the wiki matches them ignoring case
# (so "ſ" may stand for "s"): a colon after any letter, before a non-blank, is written "&#58;".
_SCHEME = re.compile(r"(?<=[^\W\d_]):(?=\S)")
# MediaWiki's magic links ("ISBN 0-...", "RFC 123", "PMID 1"), where a wiki has them on: written
# whatever stands before them, since what counts as a word boundary there is the wiki's to say.
_MAGIC_LINK = re.compile(r"(?:ISBN|RFC|PMID)(?=\s)")
_LINE_START = frozenset("*#:;=!-")  # list, definition, heading, table and rule syntax at a line's start


def _reference(char: str) -> str:
    return _REFERENCES.get(char) or f"&#{ord(char)};"


def _text(value: str) -> str:
    # As the wiki will read it: it stores text in NFC, which turns some characters into
    # markup ones (U+037E GREEK QUESTION MARK is ";").
    value = unicodedata.normalize("NFC", value)
    # One line (blanks and line breaks one space): no heading, list, table or rule can start
    # inside it; controls and bidi controls, never shown, go.
    value = " ".join(value.split())
    value = " ".join("".join(c for c in value if c not in _BIDI and unicodedata.category(c) != "Cc").split())
    value = _ENTITY.sub("&amp;", value)
    value = _ALWAYS.sub(lambda m: _REFERENCES[m.group(0)], value)
    value = _RUNS.sub(lambda m: "".join(_reference(c) for c in m.group(0)), value)
    value = _SCHEME.sub("&#58;", value)
    value = _MAGIC_LINK.sub(lambda m: _reference(m.group(0)[0]) + m.group(0)[1:], value)
    if value[:1] in _LINE_START or value[:1] == "'":  # a template may write it at a line's start
        value = _reference(value[0]) + value[1:]
    if value[-1:] == "'":  # beside the template's own '' (italic work names)
        value = value[:-1] + "&#39;"
    return value


_URL_ALWAYS = frozenset('|{}[]<>"\\^`')
_URL_RUNS = re.compile(r"~{3,}|_{2,}|'{2,}")
_HOST = re.compile(r"(?:[\w-]+\.)*[\w-]+\.?|\[[0-9A-Fa-f:.]+\]")


def _encoded(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))


def _url_char(char: str) -> str:
    category = unicodedata.category(char)
    if char in _URL_ALWAYS or category[0] in "CZ" or char == "\ufffd":
        return _encoded(char)  # blanks, controls, bidi and other format characters end or hide a URL
    return char


def _shown(url: str) -> str:
    """The address as a sentence may quote it (the sentence is escaped where it is shown)."""
    return "".join(c for c in " ".join(url.split()) if c not in _BIDI and unicodedata.category(c) != "Cc")[:200]


def _url(value: str) -> str:
    url = unicodedata.normalize("NFC", value).strip()  # as the wiki will store it
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not url.lower().startswith(
            (parts.scheme.lower() + "://")):
        raise NotPlain(f"the address “{_shown(url)}” is not a web address (http or https), so it is "
                       "not written into the article")
    netloc = parts.netloc
    if not url.startswith(f"{parts.scheme}://{netloc}"):  # urlsplit took blanks out of it
        netloc = ""
    host, _, port = netloc.rpartition(":") if not netloc.endswith("]") and ":" in netloc else (netloc, "", "")
    if "@" in netloc or not _HOST.fullmatch(host) or (port and not port.isdigit()):
        raise NotPlain(f"the address “{_shown(url)}” does not name a web site plainly (a user name, "
                       "a blank or markup in its site's name), so it is not written into the article")
    start = len(parts.scheme) + 3 + len(netloc)
    rest = "".join(_url_char(c) for c in url[start:])
    rest = _URL_RUNS.sub(lambda m: "".join(_encoded(c) for c in m.group(0)), rest)
    rest = _ENTITY.sub("&amp;", rest)  # decoded by the wiki back to the & the address has
    return url[:start] + rest


def plain_wikitext(value: str, where: Where = "param") -> str:
    """`value` written so that the wiki reads it as plain text where it goes: a template
    parameter's value (`param`), an external link's label (`label`), or a URL (`url`,
    which must be http or https: NotPlain, a sentence, otherwise). Text characters that
    could start markup become HTML character references, so the same words show; one
    transformation serves parameters and labels alike (it leaves neither a `|` nor a `]`)."""
    if where == "url":
        return _url(value)
    if where not in ("param", "label"):
        raise ValueError(f"where must be param, label or url, not {where!r}")
    return _text(value)
