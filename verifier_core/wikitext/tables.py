"""Tables (wiki `{| |}` and HTML `<table>`, which the parser gives the same shape).

Each row is one paragraph whose cells are joined by "; ", so a ref in a cell backs
the row up to that cell ("1663-02-05; 17:30; Charlevoix; 7.0") and no table syntax
ever reaches the text.
"""
from __future__ import annotations

from mwparserfromhell.nodes import Tag

from .context import Ctx


def render_table(ctx: Ctx, table: Tag) -> None:
    ctx.break_paragraph()
    ctx.in_table += 1
    try:
        _contents(ctx, table)
    finally:
        ctx.in_table -= 1
    ctx.break_paragraph()


def render_part(ctx: Ctx, tag: Tag, name: str) -> None:
    """A row, a cell or a caption (also outside a table, for broken markup)."""
    if name == "tr" or name == "caption":
        ctx.break_paragraph()
        _contents(ctx, tag)
        ctx.break_paragraph()
        return
    ctx.builder.separator()
    _contents(ctx, tag)


def _contents(ctx: Ctx, tag: Tag) -> None:
    if tag.contents is not None:
        ctx.render(tag.contents)
