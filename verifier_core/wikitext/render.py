"""Parse tree -> paragraphs of plain text with citation and tag markers.

One walk renders what a reader sees, in reading order: text, link anchors, the words
of inline templates; refs and short footnotes become citation markers, maintenance
templates become tag markers. Files, categories, comments, math, galleries and
reference lists print nothing. Templates go through `templates.render_template`,
tables through `tables.render_table`; both render their contents back through the context
(`ctx.render`), so they never import this module.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from mwparserfromhell.nodes import (
    Argument,
    Comment,
    ExternalLink,
    Heading,
    HTMLEntity,
    Node,
    Tag,
    Template,
    Text,
    Wikilink,
)
from mwparserfromhell.wikicode import Wikicode

from . import tables, templates
from .builder import Shape
from .citations import Registry
from .clean import clean_run
from .context import MAX_DEPTH, Ctx
from .names import namespace_of

# Tags whose content is not prose (or not text at all).
_SKIP_TAGS = frozenset(
    """math chem ce gallery imagemap timeline graph score hiero templatedata inputbox
    categorytree mapframe maplink section includeonly syntaxhighlight source pre
    references indicator charinsert rss dynamicpagelist""".split()
)
_BLOCK_TAGS = frozenset(
    "p div blockquote center poem ul ol dl h1 h2 h3 h4 h5 h6 hr figure".split()
)
_LIST_ITEM_TAGS = frozenset({"li", "dt", "dd"})
_TABLE_PART_TAGS = frozenset({"tr", "td", "th", "caption"})
# File options that are not the caption ("thumb", "220px", "upright=1.2", "alt=...").
_FILE_OPTION = re.compile(
    r"^\s*(thumb|thumbnail|frame|frameless|framed|border|left|right|center|centre|none|"
    r"upright|mini|miniatur|hochkant|links|rechts|zentriert|ohne|baseline|middle|sub|super|"
    r"top|text-top|bottom|text-bottom|\d*x?\d+\s*px|(alt|link|page|class|lang|upright|"
    r"hochkant|alternativtext)\s*=.*)\s*$",
    re.I | re.S,
)


class _TreeRenderer:
    """The one entry point of the walk for tables and templates (through `ctx.render`
    and `ctx.emit`); the dispatch table below sends nodes to them."""

    def code(self, ctx: Ctx, code: Wikicode | None) -> None:
        render_code(ctx, code)

    def text(self, ctx: Ctx, value: str) -> None:
        emit_text(ctx, value)


RENDERER = _TreeRenderer()


def new_ctx(registry: Registry | None, citing: set[int], title: str = "") -> Ctx:
    """A rendering context wired to this module's walk."""
    return Ctx(registry, citing, title, renderer=RENDERER)


def render_nodes(ctx: Ctx, nodes: Iterable[Node]) -> None:
    if ctx.depth >= MAX_DEPTH:
        return
    ctx.depth += 1
    try:
        for node in nodes:
            _DISPATCH.get(type(node), _ignore)(ctx, node)
    finally:
        ctx.depth -= 1


def render_code(ctx: Ctx, code: Wikicode | None) -> None:
    if code is not None:
        render_nodes(ctx, code.nodes)


def plain(code: Wikicode | None) -> str:
    """Plain text of a fragment (a template value, a link anchor): one line, and no
    side effects (refs inside are ignored)."""
    if code is None:
        return ""
    nodes = code.nodes
    if len(nodes) == 1 and isinstance(nodes[0], Text):  # most values: one text run
        return " ".join(clean_run(nodes[0].value).split())
    ctx = new_ctx(registry=None, citing=set())
    render_code(ctx, code)
    ctx.break_paragraph()
    return " ".join(p.text for p in ctx.frame.sink)


def emit_text(ctx: Ctx, value: str) -> None:
    """Print a raw text run (cleaned of markup leftovers)."""
    cleaned = clean_run(value)
    if cleaned.strip():
        ctx.printed()
    ctx.builder.text(cleaned)


def _text(ctx: Ctx, node: Text) -> None:
    value = node.value
    if "\n" not in value:
        emit_text(ctx, value)
        return
    for i, line in enumerate(value.split("\n")):
        if i:
            ctx.newline()
        if line.strip():
            emit_text(ctx, line)


def _entity(ctx: Ctx, node: HTMLEntity) -> None:
    try:
        ctx.builder.text(node.normalize())
    except (ValueError, OverflowError):  # an invalid numeric entity
        return


def _ignore(ctx: Ctx, node: Node) -> None:
    return


def _heading(ctx: Ctx, node: Heading) -> None:
    # A heading nested in a tag or template: a paragraph boundary; its refs still count.
    ctx.break_paragraph()
    with ctx.detached():
        render_code(ctx, node.title)


def _external(ctx: Ctx, node: ExternalLink) -> None:
    # [http://x title] prints "title"; a bare or untitled URL prints nothing useful.
    if node.brackets and node.title is not None:
        render_code(ctx, node.title)


def _wikilink(ctx: Ctx, node: Wikilink) -> None:
    title = str(node.title)
    namespace = namespace_of(title)
    if namespace == "file":
        _file(ctx, node)
        return
    if namespace is not None and not title.lstrip().startswith(":"):
        if id(node) in ctx.citing:  # print nothing, but keep the citations inside
            with ctx.detached():
                render_code(ctx, node.text)
        return  # category, interwiki and other namespaces print nothing
    if node.text is None:
        ctx.printed()
        ctx.builder.text(clean_run(title.strip().lstrip(":")))
    elif str(node.text).strip():
        render_code(ctx, node.text)
    else:  # pipe trick: [[Foo (bar)|]] prints "Foo"
        ctx.builder.text(clean_run(re.sub(r"\s*\([^)]*\)\s*$", "", title.split(":")[-1])))


def _file(ctx: Ctx, node: Wikilink) -> None:
    """Images print nothing, but a caption that carries a ref becomes a paragraph."""
    if ctx.registry is None or node.text is None or id(node) not in ctx.citing:
        return
    options, caption = _split_file_text(node.text)
    with ctx.detached():
        render_nodes(ctx, options)
    with ctx.aside():
        render_nodes(ctx, caption)


def _split_file_text(text: Wikicode) -> tuple[list[Node], list[Node]]:
    """Split `thumb|220px|Caption [[x]].` at its last top-level "|"."""
    nodes = list(text.nodes)
    for i in range(len(nodes) - 1, -1, -1):
        node = nodes[i]
        if isinstance(node, Text) and "|" in node.value:
            before, after = node.value.rsplit("|", 1)
            caption = [Text(after), *nodes[i + 1 :]]
            options = [*nodes[:i], Text(before)]
            if _FILE_OPTION.match("".join(str(n) for n in caption)):
                return nodes, []
            return options, caption
    if _FILE_OPTION.match(str(text)):
        return nodes, []
    return [], nodes


def _tag(ctx: Ctx, node: Tag) -> None:
    name = str(node.tag).strip().lower()
    if name == "ref":
        _ref(ctx, node)
    elif name in _SKIP_TAGS:
        _skipped(ctx, node, name)
    elif name in _LIST_ITEM_TAGS:
        _list_item(ctx, node)
    elif name == "table":
        tables.render_table(ctx, node)
    elif name in _TABLE_PART_TAGS:
        tables.render_part(ctx, node, name)
    elif name == "br" or name == "wbr":
        ctx.builder.space()
    elif name in _BLOCK_TAGS:
        ctx.break_paragraph()
        render_code(ctx, node.contents)
        ctx.break_paragraph()
    elif name == "nowiki":
        emit_text(ctx, str(node.contents or ""))
    else:  # inline formatting: <small>, <span>, <sup>, <abbr>...
        render_code(ctx, node.contents)


def _ref(ctx: Ctx, node: Tag) -> None:
    if ctx.registry is None:
        return
    index = ctx.registry.ref(node)
    if index is not None:
        ctx.builder.cite(index, ctx.registry.places.get(id(node)))


def _skipped(ctx: Ctx, node: Tag, name: str) -> None:
    # A gallery's captions may hold refs; the parser leaves its content as raw text.
    if name == "gallery" and ctx.registry is not None and "<ref" in str(node.contents).lower():
        import mwparserfromhell

        with ctx.detached():
            render_code(ctx, mwparserfromhell.parse(str(node.contents), skip_style_tags=True))


def _list_item(ctx: Ctx, node: Tag) -> None:
    if ctx.in_table:
        ctx.builder.separator()
    else:
        ctx.break_paragraph()
        ctx.frame.line_item = True
        ctx.shape_paragraph(Shape("term" if str(node.tag).strip().lower() == "dt" else "item"))
    if node.contents is not None and not node.self_closing:
        render_code(ctx, node.contents)  # an HTML <li>...</li>
        if not ctx.in_table:
            ctx.break_paragraph()


_DISPATCH = {
    Text: _text,
    Template: templates.render_template,
    Wikilink: _wikilink,
    Tag: _tag,
    ExternalLink: _external,
    HTMLEntity: _entity,
    Heading: _heading,
    Comment: _ignore,
    Argument: _ignore,
}
