"""Tables (wiki `{| |}` and HTML `<table>`, which the parser gives the same shape).

Each row is one paragraph whose cells are joined by "; ", so a ref in a cell backs
the row up to that cell ("1663-02-05; 17:30; Charlevoix; 7.0") and no table syntax
ever reaches the text. A row is no statement on its own: each paragraph carries its
shape (the table's caption, the column header of each cell, cells that span down from
rows above) and a marker where each cell starts, from which statements.py builds the
statement a claim in the row is checked as ("Date: 1663-02-05; Magnitude: 7.0").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from mwparserfromhell.nodes import Node, Tag, Text
from mwparserfromhell.wikicode import Wikicode

from .builder import Shape
from .clean import clean_run
from .context import Ctx

_CELLS = frozenset({"td", "th"})


@dataclass
class TableState:
    caption: str
    headers: dict[int, str]  # column -> header text, from the first row when all its cells are headers
    spans: dict[int, tuple[int, str]] = field(default_factory=dict)  # column -> (rows left, text)
    column: int = 0  # the next cell's column in the row being rendered

    def row_shape(self) -> Shape:
        """A new row: columns still held by cells spanning from above are skipped."""
        self.column = 0
        inherited = {col: text for col, (_, text) in self.spans.items()}
        self.spans = {col: (left - 1, text) for col, (left, text) in self.spans.items() if left > 1}
        return Shape("row", label=self.caption, headers=self.headers, inherited=inherited)

    def place(self, tag: Tag, inherited: dict[int, str]) -> int:
        """The column of the next cell; remembers it when it spans rows below."""
        while self.column in inherited:
            self.column += 1
        column = self.column
        self.column += _span(tag, "colspan")
        rows = _span(tag, "rowspan")
        if rows > 1:
            self.spans[column] = (rows - 1, cell_text(tag.contents))
        return column


def render_table(ctx: Ctx, table: Tag) -> None:
    ctx.break_paragraph()
    state = TableState(caption=_caption(table), headers=_headers(table))
    ctx.in_table += 1
    ctx.tables.append(state)
    try:
        ctx.shape_paragraph(state.row_shape())  # header cells before the first `|-`
        _contents(ctx, table)
    finally:
        ctx.in_table -= 1
        ctx.tables.pop()
    ctx.break_paragraph()


def render_part(ctx: Ctx, tag: Tag, name: str) -> None:
    """A row, a cell or a caption (also outside a table, for broken markup)."""
    if name == "caption" or _is_caption(tag):
        ctx.break_paragraph()
        _render_nodes(ctx, _caption_nodes(tag))
        ctx.break_paragraph()
        return
    state = ctx.tables[-1] if ctx.in_table and ctx.tables else None
    if name == "tr":
        ctx.break_paragraph()
        if state is not None:
            ctx.shape_paragraph(state.row_shape())
        _contents(ctx, tag)
        ctx.break_paragraph()
        return
    ctx.builder.separator()
    shape = ctx.builder.shape
    if state is not None and shape is not None and shape.kind == "row":
        ctx.builder.cell(state.place(tag, shape.inherited))
    _contents(ctx, tag)


def cell_text(code: Wikicode | None) -> str:
    """A cell or header as one line of plain text (no refs, no markup)."""
    if code is None:
        return ""
    shown = Wikicode([n for n in code.nodes if not (isinstance(n, Tag) and str(n.tag).strip().lower() == "ref")])
    text = " ".join(clean_run(shown.strip_code(keep_template_params=False)).split())
    return text.lstrip("+").strip()


def _contents(ctx: Ctx, tag: Tag) -> None:
    if tag.contents is not None:
        ctx.render(tag.contents)


def _render_nodes(ctx: Ctx, nodes: list[Node]) -> None:
    for node in nodes:
        if isinstance(node, Text):
            ctx.emit(node.value)
        else:
            ctx.render(Wikicode([node]))


def _is_caption(tag: Tag) -> bool:
    # The parser reads a wiki caption (`|+ text`) as a cell whose text starts with "+".
    return str(tag).lstrip().startswith("|+")


def _caption_nodes(tag: Tag) -> list[Node]:
    nodes = list(tag.contents.nodes) if tag.contents is not None else []
    if nodes and isinstance(nodes[0], Text) and _is_caption(tag):
        nodes[0] = Text(nodes[0].value.lstrip().removeprefix("+"))
    return nodes


def _caption(table: Tag) -> str:
    for node in _children(table):
        if isinstance(node, Tag) and (str(node.tag).lower() == "caption" or _is_caption(node)):
            return cell_text(node.contents)
    return ""


def _headers(table: Tag) -> dict[int, str]:
    """Column headers: the first row's cells when every one of them is a header cell."""
    children = [n for n in _children(table) if isinstance(n, Tag) and not _is_caption(n)]
    first = [n for n in children if str(n.tag).lower() in _CELLS]  # cells before any `|-`
    if not first:
        row = next((n for n in children if str(n.tag).lower() == "tr"), None)
        first = [n for n in _children(row) if isinstance(n, Tag) and str(n.tag).lower() in _CELLS] if row else []
    if not first or any(str(n.tag).lower() != "th" for n in first):
        return {}
    headers, column = {}, 0
    for cell in first:
        headers[column] = cell_text(cell.contents)
        column += _span(cell, "colspan")
    return headers


def _children(tag: Tag | None) -> list[Node]:
    return list(tag.contents.nodes) if tag is not None and tag.contents is not None else []


def _span(tag: Tag, name: str) -> int:
    if not tag.has(name):
        return 1
    digits = "".join(c for c in str(tag.get(name).value) if c.isdigit())[:3]
    return max(1, int(digits)) if digits else 1
