"""First pass over the parse tree: what the body rendering needs to know in advance.

- every named ref definition (a re-use may come before its definition, and
  list-defined refs live in `<references>` / `{{reflist|refs=}}` after the body);
- every cite template, the candidates for short-footnote resolution;
- the count of citation occurrences in the body (each `<ref>` tag and each
  short-footnote template, outside the reference lists), kept apart from rendering
  so that no rendering decision can lose one;
- which nodes hold a citation or a maintenance tag somewhere inside, so the renderer
  looks into an infobox parameter only when it has something to find there.
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
    REFLIST_TEMPLATES,
    SHORT_FOOTNOTES,
    is_cite_template,
    maintenance_tag,
    template_key,
)

RefKey = tuple[str, str]  # (group, name)


@dataclass
class Prepass:
    definitions: dict[RefKey, Wikicode] = field(default_factory=dict)
    list_defined: list[RefKey] = field(default_factory=list)
    cite_templates: list[Template] = field(default_factory=list)
    occurrences: int = 0
    malformed_refs: int = 0
    citing: set[int] = field(default_factory=set)  # id() of nodes / values holding citations


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


def prepass(code: Wikicode) -> Prepass:
    result = Prepass()
    _Walker(result).nodes(code, None)
    return result


class _Walker:
    def __init__(self, result: Prepass) -> None:
        self.r = result

    # `group` is None in the body; inside a reference list it is the list's group,
    # which the refs defined there inherit (<references group="note">).
    def nodes(self, code: Wikicode | None, group: str | None) -> bool:
        if code is None:
            return False
        found = False
        for node in code.nodes:
            if self.node(node, group):
                found = True
        if found:
            self.r.citing.add(id(code))
        return found

    def node(self, node, group: str | None) -> bool:
        if isinstance(node, Text):
            return self.text(node.value, group)
        if isinstance(node, Template):
            found = self.template(node, group)
        elif isinstance(node, Tag):
            found = self.tag(node, group)
        elif isinstance(node, Wikilink):
            found = self.nodes(node.text, group)
        elif isinstance(node, ExternalLink):
            found = self.nodes(node.title, group)
        elif isinstance(node, Heading):
            found = self.nodes(node.title, group)
        elif isinstance(node, Argument):
            found = self.nodes(node.default, group)
        else:
            return False
        if found:
            self.r.citing.add(id(node))
        return found

    def text(self, value: str, group: str | None) -> bool:
        if group is not None or "<" not in value:
            return False
        count = len(LEFTOVER_REF_OPEN.findall(value))
        self.r.occurrences += count
        self.r.malformed_refs += count
        return False

    def tag(self, tag: Tag, group: str | None) -> bool:
        name = str(tag.tag).strip().lower()
        if name == "references":
            self.nodes(tag.contents, _attr(tag, "group") or "")
            return False
        if name != "ref":
            return self.nodes(tag.contents, group)
        in_list = group is not None
        if not in_list:
            self.r.occurrences += 1
        own_group, ref_name = ref_key(tag)
        body = ref_body(tag)
        if ref_name is not None and body is not None:
            key = (own_group or group or "", ref_name)
            self.r.definitions.setdefault(key, body)
            if in_list:
                self.r.list_defined.append(key)
        self.nodes(tag.contents, group)
        return not in_list

    def template(self, template: Template, group: str | None) -> bool:
        key = template_key(str(template.name))
        if key in REFLIST_TEMPLATES:
            self.reflist(template, group)
            return False
        found = False
        if key in SHORT_FOOTNOTES:
            found = group is None
            if found:
                self.r.occurrences += 1
        elif maintenance_tag(key) is not None:
            found = True
        elif is_cite_template(key):
            self.r.cite_templates.append(template)
        for param in template.params:
            if self.nodes(param.value, group):
                found = True
        return found

    def reflist(self, template: Template, group: str | None) -> None:
        """{{reflist|group=note|refs=<ref name=a>...</ref>}}: `refs` is a reference list."""
        list_group = next(
            (str(p.value).strip() for p in template.params if str(p.name).strip() == "group"), ""
        )
        for param in template.params:
            is_list = str(param.name).strip().lower() == "refs"
            self.nodes(param.value, list_group if is_list else group)
