"""What each kind of template contributes to the rendering.

- short footnotes ({{sfn}}, {{sfnp}}): a citation marker;
- in-text author-date templates ({{harvtxt}}, {{harvnb}}, {{harv}}...): the words they
  print ("Smith (2001)"), part of the sentence, no citation;
- maintenance templates: a tag marker ({{citation needed span}} also prints its text);
- notes ({{efn}}, {{refn}}, {{#tag:ref}}): their text as a paragraph of its own;
- quotes: their text as a paragraph of its own;
- known inline templates ({{convert}}, {{lang}}, dates...): their words;
- anything else (infoboxes, navboxes, hatnotes, cite templates in a bibliography,
  reference lists): nothing, except that a parameter holding a ref or a maintenance
  tag becomes a "Label: value" paragraph so that its citation has a claim.
"""
from __future__ import annotations

from mwparserfromhell.nodes import Template
from mwparserfromhell.wikicode import Wikicode

from .builder import Shape
from .clean import clean_run
from .context import Ctx
from .inline import render_inline
from .names import (
    IN_TEXT_AUTHOR_DATE,
    NOTE_TEMPLATES,
    REF_SHORTCUTS,
    SHORT_FOOTNOTES,
    SPAN_TAGS,
    maintenance_tag,
    template_key,
)
from .params import named, param_name, positional
from .sfn import in_text_words

QUOTE_TEMPLATES = frozenset(
    "quote blockquote cquote quotation quote box rquote zitat quote frame bquote".split()
) | {"quote box", "quote frame"}


def render_template(ctx: Ctx, template: Template) -> None:
    key = template_key(str(template.name))
    if key in IN_TEXT_AUTHOR_DATE:
        ctx.emit(in_text_words(template))
    elif key in SHORT_FOOTNOTES:
        _short_footnote(ctx, template)
    elif (tag := maintenance_tag(key)) is not None:
        _maintenance(ctx, template, key, tag)
    elif key in NOTE_TEMPLATES or key == "#tag:ref":
        _note(ctx, template)
    elif key in REF_SHORTCUTS:
        _ref_shortcut(ctx, template)
    elif key in QUOTE_TEMPLATES:
        _quote(ctx, template)
    else:
        _other(ctx, template, key)


def _short_footnote(ctx: Ctx, template: Template) -> None:
    if ctx.registry is not None:
        ctx.builder.cite(ctx.registry.short(template), ctx.registry.places.get(id(template)))


def _maintenance(ctx: Ctx, template: Template, key: str, tag: str) -> None:
    if key in SPAN_TAGS:
        values = positional(template)
        text = named(template, "text") or (values[0] if values else None)
        ctx.render(text)
    ctx.builder.tag(tag, ctx.registry.places.get(id(template)) if ctx.registry is not None else None)


def _note(ctx: Ctx, template: Template) -> None:
    """An explanatory note is prose of its own; refs inside it back its sentences."""
    if ctx.registry is None:
        return
    values = positional(template)
    text = values[0] if values else named(template, "text", "content")
    if text is None:
        return
    with ctx.aside():
        ctx.render(text)


def _ref_shortcut(ctx: Ctx, template: Template) -> None:
    # {{r|name1|name2}} re-uses named refs (not counted: it is no <ref> tag).
    if ctx.registry is None:
        return
    group = str(named(template, "group") or "").strip()
    for value in positional(template):
        name = " ".join(str(value).split())
        index = ctx.registry.named(group, name) if name else None
        if index is not None:
            ctx.builder.cite(index, ctx.registry.places.get(id(template)))


def _quote(ctx: Ctx, template: Template) -> None:
    values = positional(template)
    text = named(template, "text", "quote", "zitat") or (values[0] if values else None)
    ctx.break_paragraph()
    ctx.render(text)
    ctx.break_paragraph()
    _collect_rest(ctx, template, printed={id(text)})


def _other(ctx: Ctx, template: Template, key: str) -> None:
    pieces = render_inline(key, template)
    if pieces is None:
        _opaque(ctx, template)
        return
    printed = set()
    for piece in pieces:
        if isinstance(piece, Wikicode):
            printed.add(id(piece))
            ctx.render(piece)
        elif piece:
            ctx.emit(piece)
    _collect_rest(ctx, template, printed)


def _opaque(ctx: Ctx, template: Template) -> None:
    """Infobox, navbox, unknown: only parameters holding citations are rendered."""
    if ctx.registry is None or id(template) not in ctx.citing:
        return
    for param in template.params:
        if id(param.value) not in ctx.citing:
            continue
        label = _label(param_name(param)) if param.showkey else ""
        with ctx.aside(label, Shape("field", label=label.rstrip(": ")) if label else None):
            ctx.render(param.value)


def _collect_rest(ctx: Ctx, template: Template, printed: set[int]) -> None:
    """Citations in parameters that were not printed still belong to the article."""
    if ctx.registry is None or id(template) not in ctx.citing:
        return
    for param in template.params:
        if id(param.value) in ctx.citing and id(param.value) not in printed:
            with ctx.aside(_label(param_name(param)) if param.showkey else ""):
                ctx.render(param.value)


def _label(name: str) -> str:
    """"population_total" -> "Population total: "."""
    words = " ".join(clean_run(name.replace("_", " ").replace("-", " ")).split())
    if not words or not any(c.isalpha() for c in words):
        return ""
    return words[0].upper() + words[1:] + ": "
