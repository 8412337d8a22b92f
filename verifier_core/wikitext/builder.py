"""Accumulates one paragraph of plain text with citation and tag markers at offsets.

Claims are cut from the same string that goes into `Extraction.plain_text`, so the
builder is the single place where spacing is normalised: markers keep pointing at the
right character through every clean-up.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_WS = re.compile(r"\s+")
_NO_SPACE_BEFORE = ",.;:!?)]%"
# Markup that only appears when two cleaned runs meet ("[" + "[", "=" + "="), then
# leftovers of dropped templates: "()", "( ; )", "[]", and spaces before punctuation.
_JOINED_MARKUP = (re.compile(r"\{\{+|\}\}+|\[\[+|\]\]+|\|+|={2,}|<ref", re.I), " ")
_CLEANUPS = (
    _JOINED_MARKUP,
    (re.compile(r"\(\s*[,;:–-]?\s*\)"), ""),
    (re.compile(r"\[\s*\]"), ""),
    (re.compile(r"\(\s*[,;]\s*"), "("),
    (re.compile(r" +(?=[,.;:!?)\]])"), ""),
    _JOINED_MARKUP,  # again: removing "(-)" from "=(-)=" joins "=" and "="
    (re.compile(r"  +"), " "),
)


@dataclass
class Marker:
    offset: int
    kind: str  # "cite", "tag" or "cell" (where a table cell starts)
    value: int | str  # citation index, canonical tag name or the cell's column
    # Where the ref, footnote or tag stands in the wikitext, and how it is written there
    # (scan.Place); None when not known.
    place: object | None = None


@dataclass
class Shape:
    """What a paragraph is when it is not running prose: the frame its claims are checked
    in (statements.py). A list item's lead-in is filled in once its section is rendered."""

    kind: str  # "item" | "term" (a `;term` line) | "row" (a table row) | "field" (infobox)
    label: str = ""  # field: the parameter's label; item: its lead-in; row: the table's caption
    headers: dict[int, str] = field(default_factory=dict)  # row: column -> column header
    inherited: dict[int, str] = field(default_factory=dict)  # row: column -> cell spanning from above


@dataclass
class RawParagraph:
    text: str
    markers: list[Marker] = field(default_factory=list)
    shape: Shape | None = None  # None: running prose


class ParagraphBuilder:
    def __init__(self, shape: Shape | None = None) -> None:
        self.shape = shape
        self._parts: list[str] = []
        self._length = 0
        self._space = True  # the text ends with a space (or is empty)
        self._after_marker = False
        self.markers: list[Marker] = []

    @property
    def empty(self) -> bool:
        return self._length == 0 and all(m.kind == "cell" for m in self.markers)

    @property
    def has_text(self) -> bool:
        return self._length > 0

    def text(self, value: str) -> None:
        """Append text, collapsing white space runs into one space."""
        if not value:
            return
        value = _WS.sub(" ", value)
        if self._space and value.startswith(" "):
            value = value[1:]
        if value and value[0] in _NO_SPACE_BEFORE and self._space and self._length:
            self._drop_trailing_space()
        if value and self._after_marker and not self._space and value[0].isalnum():
            # "end.<ref/>Next" shows as "end.[1]Next": two sentences, not one word.
            if self._parts[-1][-1:] in (".", "!", "?"):
                value = " " + value
        self._after_marker = False
        if value:
            self._parts.append(value)
            self._length += len(value)
            self._space = value.endswith(" ")

    def space(self) -> None:
        self.text(" ")

    def separator(self, sep: str = "; ") -> None:
        """Separate table cells; never two separators in a row, none at the start."""
        if not self._length:
            return
        tail = self._parts[-1].rstrip()
        if tail and tail[-1] in ";:,":
            self.space()
            return
        self.text(sep)

    def cite(self, index: int, place: object | None = None) -> None:
        self.markers.append(Marker(self._length, "cite", index, place))
        self._after_marker = True

    def tag(self, name: str, place: object | None = None) -> None:
        self.markers.append(Marker(self._length, "tag", name, place))
        self._after_marker = True

    def cell(self, column: int) -> None:
        """A table cell of `column` starts here (after its separator)."""
        self.markers.append(Marker(self._length, "cell", column))

    def _drop_trailing_space(self) -> None:
        last = self._parts[-1]
        self._parts[-1] = last[:-1]
        self._length -= 1
        for marker in self.markers:
            marker.offset = min(marker.offset, self._length)
        self._space = not self._parts[-1] or self._parts[-1].endswith(" ")

    def finish(self) -> RawParagraph | None:
        if self.empty:
            return None
        text = "".join(self._parts)
        markers = self.markers
        for pattern, repl in _CLEANUPS:
            if pattern.search(text):
                text = _substitute(pattern, repl, text, markers)
        stripped = text.rstrip()
        for marker in markers:
            marker.offset = min(marker.offset, len(stripped))
        return RawParagraph(stripped, markers, self.shape)


def _substitute(pattern: re.Pattern, repl: str, text: str, markers: list[Marker]) -> str:
    """`pattern.sub(repl, text)` that moves marker offsets along with the text."""
    out: list[str] = []
    edits: list[tuple[int, int, int]] = []  # (old start, old end, new end)
    pos = 0
    new_len = 0
    for match in pattern.finditer(text):
        kept = text[pos : match.start()]
        out.append(kept)
        out.append(repl)
        new_len += len(kept) + len(repl)
        edits.append((match.start(), match.end(), new_len))
        pos = match.end()
    out.append(text[pos:])
    for marker in markers:
        marker.offset = _moved(marker.offset, edits)
    return "".join(out)


def _moved(offset: int, edits: list[tuple[int, int, int]]) -> int:
    shift = 0
    for start, end, new_end in edits:
        if offset <= start:
            break
        if offset < end:  # inside a replaced stretch: snap to its end
            return new_end
        shift = new_end - end
    return offset + shift
