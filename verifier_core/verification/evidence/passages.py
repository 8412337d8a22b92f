"""Source text -> sentence units -> passages, all with character offsets into the source.

Passages are windows of whole sentences (lines first, then sentences inside a line)
so that the evidence shown to editors starts and ends on sentence boundaries. Web
text has menu lines without punctuation and run-on blobs without sentence breaks;
both are handled by splitting on line breaks first and cutting over-long units.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from verifier_core.text import sentence_spans

_LINE = re.compile(r"[^\r\n]+")
_WORD = re.compile(r"\S+")
MAX_UNIT_WORDS = 48  # a "sentence" longer than this is cut; it is rarely one sentence


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    words: int


@dataclass(frozen=True)
class SourcePassage:
    index: int
    start: int
    end: int
    text: str
    units: tuple[int, int]  # first and one-past-last unit index


def sentence_units(text: str) -> list[Unit]:
    units: list[Unit] = []
    for line in _LINE.finditer(text):
        for span in sentence_spans(line.group(0)):
            _cut_unit(text, line.start() + span.start, line.start() + span.end, units)
    return units


def _cut_unit(text: str, start: int, end: int, units: list[Unit]) -> None:
    words = [(m.start() + start, m.end() + start) for m in _WORD.finditer(text[start:end])]
    for i in range(0, len(words), MAX_UNIT_WORDS):
        chunk = words[i : i + MAX_UNIT_WORDS]
        units.append(Unit(chunk[0][0], chunk[-1][1], len(chunk)))


def passages(text: str, max_words: int = 64, units: list[Unit] | None = None) -> list[SourcePassage]:
    """Windows of consecutive units of up to `max_words` words, overlapping by about half.

    Half overlap means every sentence sits well inside at least one window, so evidence
    spread over two adjacent sentences is seen together.
    """
    units = sentence_units(text) if units is None else units
    out: list[SourcePassage] = []
    first = 0
    while first < len(units):
        last, words = first, 0
        while last < len(units) and (words == 0 or words + units[last].words <= max_words):
            words += units[last].words
            last += 1
        start, end = units[first].start, units[last - 1].end
        out.append(SourcePassage(len(out), start, end, text[start:end], (first, last)))
        if last >= len(units):
            break
        first = _next_start(units, first, last, words)
    return out


def _next_start(units: list[Unit], first: int, last: int, words: int) -> int:
    # Move on by about half the window's words, and always by at least one unit.
    moved, nxt = 0, first
    while nxt < last - 1 and moved < words / 2:
        moved += units[nxt].words
        nxt += 1
    return max(nxt, first + 1)
