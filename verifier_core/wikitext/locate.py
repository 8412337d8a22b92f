"""Ref tags and maintenance tags in the raw wikitext, as character offsets.

The extractor says where each claim's citations stand (`RefOccurrence`); an edit also
needs the page's other uses of a named ref (to keep them resolving) and the tags written
right after a citation. This module scans the raw text for them, with comments,
`<nowiki>` and `<pre>` masked and offsets kept. It never guesses which occurrence a claim
means: that is the extractor's answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .names import maintenance_tag, template_key

_MASKED = re.compile(r"<!--.*?(?:-->|\Z)|<nowiki\s*>.*?</nowiki\s*>|<pre\b.*?</pre\s*>", re.S | re.I)
_REF = re.compile(
    r"<ref(?P<attrs>\s[^<>]*?)?\s*/>|<ref(?P<attrs2>\s[^<>]*)?>(?P<body>.*?)</ref\s*>",
    re.S | re.I,
)
_ATTR = re.compile(r"""(\w+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'/>]+)""")
_REF_LIST = re.compile(
    r"<references\b[^<>]*?(?:/>|>.*?</references\s*>)|\{\{\s*(?:reflist|references|notelist)\b",
    re.S | re.I,
)
# A simple (non-nested) template: maintenance tags and short footnotes are written so.
_TEMPLATE = re.compile(r"\{\{([^{}|]+)(?:\|[^{}]*)?\}\}")
_ATTACHED = re.compile(r"[ \t]*" + _TEMPLATE.pattern)
_BRACES = re.compile(r"\{\{|\}\}")


class LocateError(ValueError):
    """The claim or its citation could not be found in the wikitext; the message says why."""


@dataclass(frozen=True)
class Occurrence:
    start: int
    end: int
    name: str | None  # the ref's name, None when unnamed
    group: str
    body: str | None  # None for a self-closing re-use
    in_list: bool  # inside <references>...</references> or {{reflist|refs=}}


def masked(wikitext: str) -> str:
    """`wikitext` with comments, nowiki and pre blocks blanked out, offsets unchanged."""
    return _MASKED.sub(lambda m: " " * len(m.group(0)), wikitext)


def ref_occurrences(wikitext: str) -> list[Occurrence]:
    """Every `<ref>` tag (definition or re-use) in the text, in order."""
    text = masked(wikitext)
    lists = _list_spans(text)
    found = []
    for match in _REF.finditer(text):
        attrs = dict(
            (k.lower(), " ".join(v.strip("\"'").split()))
            for k, v in _ATTR.findall(match.group("attrs") or match.group("attrs2") or "")
        )
        body = match.group("body")
        found.append(Occurrence(
            start=match.start(), end=match.end(), name=attrs.get("name") or None,
            group=attrs.get("group", ""),
            body=body if body is not None and body.strip() else None,
            in_list=any(a <= match.start() < b for a, b in lists),
        ))
    return found


def _list_spans(text: str) -> list[tuple[int, int]]:
    """Spans of reference lists, whose refs are definitions and never follow a claim."""
    spans = []
    for match in _REF_LIST.finditer(text):
        if match.group(0).startswith("{{"):
            spans.append((match.start(), _template_end(text, match.start())))
        else:
            spans.append(match.span())
    return spans


def _template_end(text: str, start: int) -> int:
    depth = 0
    for brace in _BRACES.finditer(text, start):
        depth += 1 if brace.group() == "{{" else -1
        if depth == 0:
            return brace.end()
    return len(text)


def attached_tags(wikitext: str, end: int) -> list[tuple[int, int, str]]:
    """The maintenance tags written right after a citation ending at `end` (`{{dead
    link}}`, `{{failed verification|date=...}}`), which belong to it: (start, end,
    canonical name) each, in order."""
    text, found = masked(wikitext), []
    while (match := _ATTACHED.match(text, end)) is not None:
        tag = maintenance_tag(template_key(match.group(1)))
        if tag is None or tag == "citation needed":
            break
        found.append((match.start(), match.end(), tag))
        end = match.end()
    return found
