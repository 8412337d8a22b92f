"""First pass over the parse tree: what the body rendering needs to know in advance.

- every named ref definition (a re-use may come before its definition, and
  list-defined refs live in `<references>` / `{{reflist|refs=}}` after the body);
- every cite template, the candidates for short-footnote resolution;
- the count of citation occurrences in the body (each `<ref>` tag and each
  short-footnote template ({{sfn}}: not the in-text {{harvtxt}} kind), outside the reference lists), kept apart from rendering
  so that no rendering decision can lose one;
- which nodes hold a citation or a maintenance tag somewhere inside, so the renderer
  looks into an infobox parameter only when it has something to find there;
- where each ref, short footnote and maintenance tag of the body stands in the text
  (`Place`, by node), so that an edit acts on the claim's own citation, not on another
  use of the same source. Offsets come from the lengths of the nodes' wikitext (the parse
  tree gives none) and each one is checked against the text before it is kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from mwparserfromhell.nodes import (
    Argument,
    ExternalLink,
    Heading,
    Tag,
    Template,
    Text,
    Wikilink,
)
from mwparserfromhell.wikicode import Wikicode

from .clean import LEFTOVER_REF_OPEN
from .names import (
    IN_TEXT_AUTHOR_DATE,
    REF_SHORTCUTS,
    REFLIST_TEMPLATES,
    SHORT_FOOTNOTES,
    is_cite_template,
    maintenance_tag,
    template_key,
)

RefKey = tuple[str, str]  # (group, name)


@dataclass(frozen=True)
class Place:
    """Where one ref, footnote or tag stands: offsets into the parsed text, and its kind:
    "ref" (with a body), "reuse" (`<ref name=x />`), "sfn", "r" (`{{r|x}}`) or "tag"."""

    start: int
    end: int
    kind: str
    name: str | None = None
    group: str = ""


@dataclass
class Prepass:
    definitions: dict[RefKey, Wikicode] = field(default_factory=dict)
    list_defined: list[RefKey] = field(default_factory=list)
    cite_templates: list[Template] = field(default_factory=list)
    occurrences: int = 0
    malformed_refs: int = 0
    citing: set[int] = field(default_factory=set)  # id() of nodes / values holding citations
    places: dict[int, Place] = field(default_factory=dict)  # id() of a body ref/footnote/tag node


def ref_key(tag: Tag) -> tuple[str, str | None]:
    """(group, name) of a ref tag; name None when absent or empty (`<ref name=>`)."""
    return _attr(tag, "group") or "", _attr(tag, "name") or None


def ref_body(tag: Tag) -> Wikicode | None:
    if tag.self_closing or tag.contents is None or not str(tag.contents).strip():
        return None
    return tag.contents


def _attr(tag: Tag, name: str) -> str | None:
    for attr in tag.attributes:
        if str(attr.name).strip().lower() == name:
            value = str(attr.value).strip().strip("\"'").strip() if attr.value is not None else ""
            return " ".join(value.split())
    return None


def prepass(code: Wikicode, text: str | None = None) -> Prepass:
    """`text`, the parsed wikitext itself, lets places be checked (and kept)."""
    result = Prepass()
    _Walker(result, text).nodes(code, None, 0 if text is not None else None)
    return result


Pos = int | None  # where a node starts in the text; None once it cannot be known


class _Walker:
    def __init__(self, result: Prepass, text: str | None) -> None:
        self.r = result
        self.text_ = text

    # `group` is None in the body; inside a reference list it is the list's group,
    # which the refs defined there inherit (<references group="note">).
    def nodes(self, code: Wikicode | None, group: str | None, pos: Pos = None) -> bool:
        if code is None:
            return False
        found = False
        for node in code.nodes:
            if self.node(node, group, pos):
                found = True
            if pos is not None:
                pos += len(str(node))
        if found:
            self.r.citing.add(id(code))
        return found

    def node(self, node, group: str | None, pos: Pos = None) -> bool:
        if isinstance(node, Text):
            return self.text(node.value, group)
        if isinstance(node, Template):
            found = self.template(node, group, pos)
        elif isinstance(node, Tag):
            found = self.tag(node, group, pos)
        elif isinstance(node, Wikilink):
            found = self.nodes(node.text, group, _after(pos, "[[", node.title, "|"))
        elif isinstance(node, ExternalLink):
            space = "" if getattr(node, "suppress_space", False) else " "
            found = self.nodes(node.title, group, _after(pos, "[", node.url, space))
        elif isinstance(node, Heading):
            found = self.nodes(node.title, group, None if pos is None else pos + node.level)
        elif isinstance(node, Argument):
            found = self.nodes(node.default, group, _after(pos, "{{{", node.name, "|"))
        else:
            return False
        if found:
            self.r.citing.add(id(node))
        return found

    def place(self, node, pos: Pos, kind: str, name: str | None = None, group: str = "") -> None:
        """Keep where `node` stands, once its text is found there exactly."""
        if pos is None or self.text_ is None:
            return
        written = str(node)
        if self.text_.startswith(written, pos):
            self.r.places[id(node)] = Place(pos, pos + len(written), kind, name, group)

    def text(self, value: str, group: str | None) -> bool:
        if group is not None or "<" not in value:
            return False
        count = len(LEFTOVER_REF_OPEN.findall(value))
        self.r.occurrences += count
        self.r.malformed_refs += count
        return False

    def tag(self, tag: Tag, group: str | None, pos: Pos = None) -> bool:
        name = str(tag.tag).strip().lower()
        inside = _contents_at(tag, pos)
        if name == "references":
            self.nodes(tag.contents, _attr(tag, "group") or "", inside)
            return False
        if name != "ref":
            return self.nodes(tag.contents, group, inside)
        in_list = group is not None
        own_group, ref_name = ref_key(tag)
        body = ref_body(tag)
        if not in_list:
            self.r.occurrences += 1
            self.place(tag, pos, "ref" if body is not None else "reuse", ref_name, own_group)
        if ref_name is not None and body is not None:
            key = (own_group or group or "", ref_name)
            self.r.definitions.setdefault(key, body)
            if in_list:
                self.r.list_defined.append(key)
        self.nodes(tag.contents, group, inside)
        return not in_list

    def template(self, template: Template, group: str | None, pos: Pos = None) -> bool:
        key = template_key(str(template.name))
        if key in REFLIST_TEMPLATES:
            self.reflist(template, group, pos)
            return False
        found = False
        if key in IN_TEXT_AUTHOR_DATE:
            pass  # words of the sentence; inside a ref, the ref is the occurrence
        elif key in SHORT_FOOTNOTES:
            found = group is None
            if found:
                self.r.occurrences += 1
                self.place(template, pos, "sfn")
        elif maintenance_tag(key) is not None:
            found = True
            self.place(template, pos, "tag")
        elif is_cite_template(key):
            self.r.cite_templates.append(template)
        elif key in REF_SHORTCUTS and group is None:
            self.place(template, pos, "r")
        for param, at in _params_at(template, pos):
            if self.nodes(param.value, group, at):
                found = True
        return found

    def reflist(self, template: Template, group: str | None, pos: Pos = None) -> None:
        """{{reflist|group=note|refs=<ref name=a>...</ref>}}: `refs` is a reference list."""
        list_group = next(
            (str(p.value).strip() for p in template.params if str(p.name).strip() == "group"), ""
        )
        for param, at in _params_at(template, pos):
            is_list = str(param.name).strip().lower() == "refs"
            self.nodes(param.value, list_group if is_list else group, at)


def _after(pos: Pos, opening: str, part, separator: str) -> Pos:
    """Where the piece after `opening`, `part` and `separator` starts ("[[Title|text]]")."""
    return None if pos is None else pos + len(opening) + len(str(part)) + len(separator)


def _contents_at(tag: Tag, pos: Pos) -> Pos:
    """Where a tag's contents start: its text less the closing markup and the contents."""
    if pos is None or tag.contents is None or tag.self_closing:
        return None
    if tag.wiki_markup:
        close = tag.closing_wiki_markup or ""
    else:
        close = "</" + str(tag.closing_tag) + ">"
    return pos + len(str(tag)) - len(close) - len(str(tag.contents))


def _params_at(template: Template, pos: Pos):
    """Each parameter with where its value starts: "{{name|a|key=b}}"."""
    at = None if pos is None else pos + 2 + len(str(template.name))
    for param in template.params:
        if at is None:
            yield param, None
            continue
        at += 1  # the "|"
        yield param, at + (len(str(param.name)) + 1 if param.showkey else 0)
        at += len(str(param))
