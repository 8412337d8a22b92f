"""Sentence splitting and word-window passages with character offsets.

Shared by the wikitext extractor (claims are sentences), the retrieval corpus and the
verifier (evidence offsets point into the source text), so every part agrees on what
a sentence and a passage are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Abbreviations after which a full stop does not end a sentence. Lower-cased, no dot.
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt ft no nos vol vols pp p ed eds eg ie etc al vs
    inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec est approx ca
    gen col lt sgt capt cmdr adm gov sen rep rev hon fig figs ch sec art op cf
    u.s u.k e.g i.e a.m p.m d.c""".split()
)
_WORD = re.compile(r"\S+")
# A candidate boundary: terminal punctuation, optional closing quotes/brackets, space.
_BOUNDARY = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s+)")


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class Passage:
    """A window of words from a document; `start`/`end` index into the document text."""

    index: int
    start: int
    end: int
    text: str


_NEXT_CHAR = re.compile(r"\s*(\S?)")
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")
# Ordinal day or century before a month or "Jahrhundert" ("am 6. November 1918",
# "des 18. Jahrhunderts"): German and other languages write the ordinal with a dot.
_ORDINAL_FOLLOWERS = frozenset(
    """january february march april may june july august september october november
    december januar jänner februar märz mai juni juli oktober dezember janvier février
    mars avril juin juillet août septembre octobre novembre décembre jahrhundert
    jahrhunderts jahrhunderte jahrtausend jahrtausends""".split()
)


def _word_before(text: str, end: int) -> str:
    """The white-space delimited word ending at `end` (scans back, never copies the text)."""
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return text[start:end]


def _ends_sentence(text: str, dot_pos: int, after: int) -> bool:
    """Decide whether the punctuation ending at `dot_pos` closes a sentence."""
    nxt = _NEXT_CHAR.match(text, after).group(1)
    # A following lower-case word or digit means the sentence goes on
    # ("approx. 5", '"Really?" she asked').
    if nxt and (nxt[0].islower() or nxt[0].isdigit()):
        return False
    if text[dot_pos] != ".":
        return True
    word = _word_before(text, dot_pos).lower().strip("(\"'[")
    if word in _ABBREVIATIONS or word.rstrip(".") in _ABBREVIATIONS:
        return False
    if len(word) == 1 and word.isalpha():  # an initial: "John F. Kennedy"
        return False
    if word.isdigit() and len(word) <= 2:
        following = _NEXT_WORD.match(text, after)
        if following and following.group(1).lower() in _ORDINAL_FOLLOWERS:
            return False
    return not re.fullmatch(r"(?:[a-z]\.)+[a-z]", word)  # "U.S" before the final dot


def sentence_spans(text: str) -> list[Span]:
    """Split `text` into sentence spans (stripped of surrounding white space)."""
    spans: list[Span] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        first_dot = match.start() + len(match.group(0).rstrip("\"'\u201d\u2019)]")) - 1
        if _ends_sentence(text, first_dot, match.end()):
            _add_span(text, start, match.end(), spans)
            start = match.end()
    _add_span(text, start, len(text), spans)
    return spans


def _add_span(text: str, start: int, end: int, spans: list[Span]) -> None:
    chunk = text[start:end]
    stripped = chunk.strip()
    if stripped:
        lead = len(chunk) - len(chunk.lstrip())
        spans.append(Span(start + lead, start + lead + len(stripped)))


def split_sentences(text: str) -> list[str]:
    return [text[s.start : s.end] for s in sentence_spans(text)]


def word_passages(text: str, size: int = 100, stride: int | None = None) -> list[Passage]:
    """Windows of `size` words every `stride` words (default: half overlap).

    The last window is kept even when short, so that no word is left out.
    """
    if size <= 0:
        raise ValueError("passage size must be positive")
    stride = stride or max(1, size // 2)
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    passages: list[Passage] = []
    for first in range(0, max(1, len(words)), stride):
        window = words[first : first + size]
        if not window:
            break
        start, end = window[0][0], window[-1][1]
        passages.append(Passage(len(passages), start, end, text[start:end]))
        if first + size >= len(words):
            break
    return passages


def normalise_space(text: str) -> str:
    return " ".join(text.split())
