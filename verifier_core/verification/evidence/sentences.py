"""The sentences of a source's body: what a quote may be.

A page's text holds more than its body: the title repeated as a heading ("# ..."), menu
items, captions, bylines and dates, and, in plain text and PDFs, sentences broken over
several lines. A quote shown as "the source says it" must be a sentence an editor finds on
the page and reads as a statement, so only whole sentences of the body qualify: lines
broken mid-sentence are joined first (the offsets still point into the source text, so
the quote stays verbatim), then headings, menus, captions, bylines, metadata labels, date
fragments and phrases of under four words are left out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from verifier_core.retrieval.tokenize import stop_words
from verifier_core.text import sentence_spans

MIN_WORDS = 4  # a shorter phrase is a fragment, not a statement
LONG_RUN = 12  # words: a line this long without a full stop is run-on text, not a heading
_LINE = re.compile(r"[^\r\n]+")
_ENDS_SENTENCE = re.compile(r"[.!?…][\"'”’)\]]*$")
_CARRIES_ON = re.compile(r"[,;–—-]$")  # not ":": "Update May 3rd, 2018:" is a label
_STARTS_ON = re.compile(r"[a-z(]")
_HEADING = re.compile(r"^\s*(?:#|=+\s|\|)")  # markdown and wiki headings, table rows
_LABEL = re.compile(r"^\s*[A-Z][A-Z &/-]{2,}:")  # "TITLE: ...", "PUBLISHED DATETIME: ..."
# A byline ("By Holly Penrose", "By Holly Penrose | 11 June 2016"), a dateline ("Published
# 9:42 a.m. ET Feb. 3, 2016"), a caption's credit ("Photo: ..."), a copyright line.
_BYLINE = re.compile(r"^\s*(?:(?i:(?:written |posted |words )?by)\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3}\s*"
                     r"(?:[,|•·–—-].*)?$|(?i:(?:published|posted|updated|last updated|last modified)\b.{0,40}\d"
                     r"|(?:photo|image|picture|credit|source)s?\s*(?::|by\b)|copyright\b|©))", re.S)
_LEAD = re.compile(r"(?:[…•·*>–—-]|\.\.\.)+\s*")  # used with match(): anchored at its position
_ALPHA_WORD = re.compile(r"[^\W\d_]{2,}")
_DATE_WORDS = frozenset(
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october "
    "nov november dec december mon monday tue tuesday wed wednesday thu thursday fri friday sat saturday sun sunday "
    "am pm a.m p.m et est edt gmt bst utc pt pst pdt".split())


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int


def body_sentences(text: str, title: str = "") -> list[Sentence]:
    """The body's sentences, in order, with offsets into `text` (`title`: the page's own,
    a line repeating it is a heading)."""
    out = []
    title_key = _key(title)
    for start, end in blocks(text):
        block = text[start:end]
        for span in sentence_spans(block):
            a, b = trimmed(text, start + span.start, start + span.end)
            if a < b and is_body(text[a:b]) and _key(text[a:b]) != title_key:
                out.append(Sentence(a, b))
    return out


def is_body(sentence: str) -> bool:
    """A statement of the body: four words or more, not a heading, menu item, caption,
    byline, metadata label or date fragment."""
    words = sentence.split()
    if len(words) < MIN_WORDS or _HEADING.match(sentence) or _LABEL.match(sentence) or _BYLINE.match(sentence):
        return False
    alpha = [w for w in _ALPHA_WORD.findall(sentence.lower()) if w not in _DATE_WORDS]
    if len(alpha) < 3 or not set(alpha) - stop_words():
        return False  # a date, a time or a string of small words
    if _ENDS_SENTENCE.search(sentence):
        return True
    # No full stop: a heading, menu or caption unless it runs on like prose.
    capitalised = sum(w[:1].isupper() for w in words) / len(words)
    return len(words) >= LONG_RUN and capitalised < 0.6


def blocks(text: str) -> list[tuple[int, int]]:
    """Lines, with a line broken mid-sentence joined to the next (plain text and PDFs wrap
    lines): it ends without a full stop and either the next line goes on in lower case
    or a bracket, or this one ends on a comma, dash or small word."""
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if text[m.start():m.end()].strip()]
    blocks: list[tuple[int, int]] = []
    for start, end in lines:
        if blocks and _joins(text[blocks[-1][0]:blocks[-1][1]], text[start:end]):
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((start, end))
    return blocks


def _joins(before: str, line: str) -> bool:
    before, line = before.rstrip(), line.lstrip()
    if not before or _ENDS_SENTENCE.search(before) or _HEADING.match(before) or _HEADING.match(line):
        return False
    if before.isupper() or line.isupper():
        return False  # "1. THE UPPER RIVER": a heading in capitals
    last = before.split()[-1].lower()
    return bool(_STARTS_ON.match(line) or _CARRIES_ON.search(before) or last in stop_words())


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Without a leading ellipsis or bullet ("… At Gull Point the keepers lodged ...")."""
    lead = _LEAD.match(text, start)
    if lead and lead.end() <= end:
        start = lead.end()
    return start, end


def _key(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .:|-–—")
