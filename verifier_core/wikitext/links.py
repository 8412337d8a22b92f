"""Article wikilinks (target + anchor text) and redirect targets.

The retrieval engine builds its anchor-text dictionary from these, so only links to
articles count: files, categories, interwiki and other namespaces are skipped.
"""
from __future__ import annotations

import html
import re

from mwparserfromhell.nodes import ExternalLink, Heading, Tag, Template, Text, Wikilink
from mwparserfromhell.wikicode import Wikicode

from .clean import clean_run
from .names import namespace_of
from .render import plain
from .types import WikiLink

# "#REDIRECT [[Target]]", also localised ("#WEITERLEITUNG") and with a colon.
_REDIRECT = re.compile(
    r"\A\s*#\s*(?:redirect|weiterleitung|redirection|redirección|rinvia|перенаправление)"
    r"\s*:?\s*\[\[([^\]|\n]+)(?:\|[^\]]*)?\]\]",
    re.I,
)
_TRAIL = re.compile(r"[a-zäöüß]+")  # "[[bunker]]s" shows "bunkers"
_SKIP_TAGS = frozenset({"nowiki", "pre", "math", "syntaxhighlight", "source"})


def normalise_title(raw: str) -> str | None:
    """Page title as MediaWiki stores it: spaces, first letter upper, no fragment."""
    title = html.unescape(raw).replace("_", " ")
    title = " ".join(title.split("#", 1)[0].split()).lstrip(":").strip()
    if not title or any(c in title for c in "{}[]<>|"):
        return None
    return title[0].upper() + title[1:]


def redirect_target(wikitext: str) -> str | None:
    match = _REDIRECT.match(wikitext or "")
    return normalise_title(match.group(1)) if match else None


def links_in(code: Wikicode) -> list[WikiLink]:
    links: list[WikiLink] = []
    _collect(code, links, depth=0)
    return links


def _collect(code: Wikicode | None, links: list[WikiLink], depth: int) -> None:
    if code is None or depth > 60:
        return
    nodes = code.nodes
    for i, node in enumerate(nodes):
        if isinstance(node, Wikilink):
            _link(node, nodes[i + 1] if i + 1 < len(nodes) else None, links)
            _collect(node.text, links, depth + 1)  # links inside file captions
        elif isinstance(node, Template):
            for param in node.params:
                _collect(param.value, links, depth + 1)
        elif isinstance(node, Tag):
            if str(node.tag).strip().lower() not in _SKIP_TAGS:
                _collect(node.contents, links, depth + 1)
        elif isinstance(node, ExternalLink):
            _collect(node.title, links, depth + 1)
        elif isinstance(node, Heading):
            _collect(node.title, links, depth + 1)


def _link(node: Wikilink, following, links: list[WikiLink]) -> None:
    raw_title = str(node.title)
    if namespace_of(raw_title) is not None or raw_title.lstrip().startswith(":"):
        return
    target = normalise_title(raw_title)
    if target is None:
        return
    anchor = _anchor(node, raw_title)
    if isinstance(following, Text):
        trail = _TRAIL.match(following.value)
        if trail:
            anchor += trail.group(0)
    if anchor:
        links.append(WikiLink(target=target, anchor=anchor))


def _anchor(node: Wikilink, raw_title: str) -> str:
    if node.text is None:
        text = raw_title.strip()
    elif not str(node.text).strip():  # pipe trick
        text = re.sub(r"\s*\([^)]*\)\s*$", "", raw_title.strip())
    else:
        return plain(node.text)  # anchors may hold templates or formatting
    return " ".join(clean_run(html.unescape(text)).split())
