"""Where a claim's citation sits in the raw wikitext, as character offsets.

The extractor works on a parse tree and hands out claims and citations, not offsets;
an edit needs the exact span of one ref tag in the text the wiki holds. This module
scans the raw text for ref tags and short-footnote templates (comments and `<nowiki>`
masked, offsets kept), then picks, among the occurrences of the claim's citation, the
one whose preceding prose best matches the claim's words: a named ref re-used by
several claims, or one unnamed ref body repeated, has several occurrences.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .clean import strip_comments
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
_WORD = re.compile(r"\w+", re.U)
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


def normalised(raw: str) -> str:
    return " ".join(strip_comments(raw).split())


def citation_occurrences(
    wikitext: str, *, ref_name: str | None, raw: str, kind: str = "ref"
) -> list[Occurrence]:
    """Body occurrences (outside reference lists) of one citation of the extractor."""
    if kind == "sfn":
        return _template_occurrences(wikitext, raw)
    refs = [o for o in ref_occurrences(wikitext) if not o.in_list]
    if ref_name:
        return [o for o in refs if o.name == ref_name]
    wanted = normalised(raw)
    return [o for o in refs if o.body is not None and normalised(o.body) == wanted]


def _template_occurrences(wikitext: str, raw: str) -> list[Occurrence]:
    text, wanted = masked(wikitext), raw.strip()
    found, start = [], text.find(wanted)
    while wanted and start >= 0:
        found.append(Occurrence(start, start + len(wanted), None, "", wanted, False))
        start = text.find(wanted, start + 1)
    return found


def tag_occurrences(wikitext: str, tag: str) -> list[Occurrence]:
    """Occurrences of a maintenance template ("citation needed") by any of its names."""
    return [
        Occurrence(m.start(), m.end(), None, "", m.group(0), False)
        for m in _TEMPLATE.finditer(masked(wikitext))
        if maintenance_tag(template_key(m.group(1))) == tag
    ]


def best_for_claim(wikitext: str, occurrences: list[Occurrence], claim_text: str) -> Occurrence:
    """The occurrence whose preceding prose ends like the claim; the first one on a tie."""
    if not occurrences:
        raise LocateError("the claim's citation is not in the current wikitext")
    if len(occurrences) == 1:
        return occurrences[0]
    claim_words = [w.lower() for w in _WORD.findall(claim_text)]
    return max(occurrences, key=lambda o: (_overlap(wikitext, o, claim_words), -o.start))


def _overlap(wikitext: str, occurrence: Occurrence, claim_words: list[str]) -> float:
    """How many of the claim's words, from its end backwards, the text before `occurrence`
    repeats in order: the claim is the sentence right before its citation."""
    window = wikitext[max(0, occurrence.start - 40 * max(len(claim_words), 5)) : occurrence.start]
    window = _REF.sub(" ", masked(window))
    before = [w.lower() for w in _WORD.findall(window)]
    matched, i = 0.0, len(before) - 1
    for rank, word in enumerate(reversed(claim_words)):
        j = i
        while j >= 0 and i - j < 12 and before[j] != word:
            j -= 1
        if j < 0 or i - j >= 12:
            continue
        matched += 1.0 / (1 + 0.01 * rank)
        i = j - 1
    return matched


def attached_tags_end(wikitext: str, end: int) -> int:
    """The end of the maintenance tags written right after a citation ({{dead link}}),
    which belong to it: a new citation goes after them."""
    text = masked(wikitext)
    while True:
        match = _TEMPLATE.match(text, end)
        if match is None or maintenance_tag(template_key(match.group(1))) is None:
            return end
        end = match.end()


def has_attached_tag(wikitext: str, end: int, tag: str) -> bool:
    text, position = masked(wikitext), end
    while (match := _TEMPLATE.match(text, position)) is not None:
        if maintenance_tag(template_key(match.group(1))) == tag:
            return True
        position = match.end()
    return False
