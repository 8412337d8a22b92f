"""Rendering state: where text goes while the parse tree is walked.

A frame owns the paragraph being built and where finished paragraphs go. Text that
is article prose but does not sit in the running sentence (an explanatory note, an
infobox parameter that carries a ref, a file caption with a ref) is rendered in a
pushed frame, and its paragraphs are queued ("deferred") to follow the paragraph
being built, so they never split a sentence in two.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from mwparserfromhell.wikicode import Wikicode

from .builder import ParagraphBuilder, RawParagraph, Shape
from .citations import Registry

MAX_DEPTH = 60  # deeper nesting is rendered as nothing (adversarial input)


class NodeRenderer(Protocol):
    """How a fragment is rendered: render.py's walk. Tables and templates render their
    contents through the context (`ctx.render`, `ctx.emit`), never by importing render.py,
    so the walk's mutual recursion has one entry point and no import cycle."""

    def code(self, ctx: "Ctx", code: Wikicode | None) -> None: ...

    def text(self, ctx: "Ctx", value: str) -> None: ...


@dataclass
class Frame:
    sink: list[RawParagraph]
    builder: ParagraphBuilder = field(default_factory=ParagraphBuilder)
    deferred: list[RawParagraph] = field(default_factory=list)
    line_item: bool = False  # inside "* item": the next newline ends the paragraph
    newlines: int = 0  # newlines since the last printed word
    shape: Shape | None = None  # every paragraph of an infobox value is that field's


class Ctx:
    def __init__(self, registry: Registry | None, citing: set[int], title: str = "", *,
                 renderer: NodeRenderer) -> None:
        self.renderer = renderer
        self.registry = registry  # None: plain-text mode, no citations collected
        self.citing = citing
        self.title = title
        self.frame = Frame(sink=[])
        self.in_table = 0
        self.tables: list = []  # tables.TableState of the open tables, innermost last
        self.depth = 0

    def render(self, code: Wikicode | None) -> None:
        """Render a fragment (a cell, a template parameter) in the current frame."""
        self.renderer.code(self, code)

    def emit(self, value: str) -> None:
        """Print a raw text run, cleaned of markup leftovers."""
        self.renderer.text(self, value)

    @property
    def builder(self) -> ParagraphBuilder:
        return self.frame.builder

    def break_paragraph(self) -> None:
        frame = self.frame
        paragraph = frame.builder.finish()
        if paragraph is not None:
            frame.sink.append(paragraph)
        frame.sink.extend(frame.deferred)
        frame.deferred.clear()
        frame.builder = ParagraphBuilder(frame.shape)
        frame.line_item = False

    def shape_paragraph(self, shape: Shape) -> None:
        """The paragraph being built is a list item or a table row (an infobox value's
        paragraphs stay the field's)."""
        if self.frame.shape is None:
            self.frame.builder.shape = shape

    def newline(self) -> None:
        frame = self.frame
        frame.newlines += 1
        if self.in_table:
            frame.builder.space()
        elif frame.line_item or frame.newlines >= 2:
            self.break_paragraph()
        else:
            frame.builder.space()

    def printed(self) -> None:
        """Words were printed: the blank-line count starts again."""
        self.frame.newlines = 0

    def start_section(self, sink: list[RawParagraph]) -> None:
        self.frame = Frame(sink=sink)
        self.in_table = 0

    @contextmanager
    def aside(self, label: str = "", shape: Shape | None = None):
        """Render into paragraphs that follow the current one (notes, infobox values)."""
        outer, in_table = self.frame, self.in_table
        self.frame, self.in_table = Frame(sink=[], builder=ParagraphBuilder(shape), shape=shape), 0
        if label:
            self.frame.builder.text(label)
        try:
            yield
            self.break_paragraph()
        finally:
            paragraphs, self.frame, self.in_table = self.frame.sink, outer, in_table
        if label and paragraphs and paragraphs[0].text.strip() == label.strip():
            paragraphs.pop(0)  # the label alone ("Population:") is no claim
        if outer.builder.empty and not outer.deferred:
            outer.sink.extend(paragraphs)  # nothing to wait for: keep reading order
        else:
            outer.deferred.extend(paragraphs)

    @contextmanager
    def detached(self):
        """Render for side effects only (citations inside headings, image options)."""
        outer, in_table = self.frame, self.in_table
        self.frame, self.in_table = Frame(sink=[]), 0
        try:
            yield self.frame
        finally:
            self.frame, self.in_table = outer, in_table
