"""The article's citations: one `Citation` per cited work, in order of first use.

A named ref used several times (`<ref name=x/>`, also `{{r|x}}`) is one citation;
its definition may sit anywhere in the body or in a list-defined reference list.
Short footnotes with the same arguments are one citation too (MediaWiki merges them
into one footnote). Field extraction picks, in this order: a cite template, a short
footnote (resolved to its bibliography entry), a URL (kind "bare_url").
"""
from __future__ import annotations

import re
from collections.abc import Callable

from mwparserfromhell.nodes import Tag, Template
from mwparserfromhell.wikicode import Wikicode

from .cite_fields import (
    apply_cite_template,
    apply_webarchive,
    copy_resolved,
    field_text,
)
from .names import SHORT_FOOTNOTES, is_cite_template, maintenance_tag, template_key
from .scan import Prepass, RefKey, ref_body, ref_key
from .sfn import Bibliography, parse_short
from .types import Citation

Plain = Callable[[Wikicode], str]
_BARE_URL = re.compile(r"(?:https?|ftp)://[^\s<>\[\]{}|\"']+", re.I)
_MAX_WARNINGS = 200


class Registry:
    def __init__(self, pre: Prepass, plain: Plain) -> None:
        self.citations: list[Citation] = []
        self.warnings: list[str] = []
        self._plain = plain
        self._definitions = pre.definitions
        self._list_defined = pre.list_defined
        self._bibliography = Bibliography(pre.cite_templates)
        self._by_name: dict[RefKey, int] = {}
        self._by_short: dict[str, int] = {}
        self._seen_unresolved: set[str] = set()
        self.places = pre.places  # where each body ref, footnote and tag stands (scan.Place)

    def warn(self, message: str) -> None:
        if len(self.warnings) < _MAX_WARNINGS:
            self.warnings.append(message)
        elif len(self.warnings) == _MAX_WARNINGS:
            self.warnings.append("more warnings left out")

    # --- occurrences in the body ---------------------------------------------------

    def ref(self, tag: Tag) -> int | None:
        """The citation behind one `<ref>` tag of the body (definition or re-use)."""
        group, name = ref_key(tag)
        body = ref_body(tag)
        if name is None:
            if body is None:
                self.warn("empty ref tag")
                return None
            return self._new_ref(body, None)
        return self.named(group, name, body)

    def named(self, group: str, name: str, body: Wikicode | None = None) -> int | None:
        key = (group, name)
        if key in self._by_name:
            return self._by_name[key]
        body = self._definitions.get(key, body)
        if body is None:
            if name not in self._seen_unresolved:
                self._seen_unresolved.add(name)
                self.warn(f"unresolved ref name {name!r}")
            return None
        index = self._new_ref(body, name)
        self._by_name[key] = index
        return index

    def short(self, template: Template) -> int:
        """The citation behind a short-footnote template written in the body."""
        raw = str(template).strip()
        dedupe = " ".join(raw.split()).lower()
        if dedupe in self._by_short:
            return self._by_short[dedupe]
        citation = self._add(Citation(index=0, kind="sfn", raw=raw))
        self._fill_short(citation, template)
        self._by_short[dedupe] = citation.index
        return citation.index

    def finish(self) -> None:
        """Warn about list-defined refs the body never uses."""
        for key in self._list_defined:
            if key not in self._by_name:
                self.warn(f"list-defined ref {key[1]!r} is never used")

    # --- building citations -----------------------------------------------------------

    def _add(self, citation: Citation) -> Citation:
        citation.index = len(self.citations)
        self.citations.append(citation)
        return citation

    def _new_ref(self, body: Wikicode, name: str | None) -> int:
        citation = self._add(Citation(index=0, kind="ref", raw=str(body).strip(), ref_name=name))
        self._fill_from_body(citation, body)
        return citation.index

    def _fill_from_body(self, citation: Citation, body: Wikicode) -> None:
        templates = body.filter_templates(recursive=True)
        keys = [template_key(str(t.name)) for t in templates]
        cite = next((t for t, k in zip(templates, keys, strict=True) if is_cite_template(k)), None)
        short = next((t for t, k in zip(templates, keys, strict=True) if k in SHORT_FOOTNOTES), None)
        if cite is not None:
            apply_cite_template(citation, cite, self._plain)
        elif short is not None:
            self._fill_short(citation, short)
        else:
            self._fill_url(citation, body)
        for template, key in zip(templates, keys, strict=True):
            tag = maintenance_tag(key)
            if tag is not None and tag not in citation.flags:
                citation.flags.append(tag)
            if key == "webarchive":
                apply_webarchive(citation, template)

    def _fill_short(self, citation: Citation, template: Template) -> None:
        short = parse_short(template)
        citation.template = template_key(str(template.name))
        citation.location = short.location
        for param in template.params:
            citation.fields.setdefault(str(param.name).strip(), field_text(param.value, self._plain))
        entry = self._bibliography.resolve(short)
        if entry is None:
            if short.label not in self._seen_unresolved:
                self._seen_unresolved.add(short.label)
                self.warn(f"unresolved short footnote {short.label!r}")
            return
        resolved = Citation(index=-1, kind="ref", raw=str(entry).strip())
        apply_cite_template(resolved, entry, self._plain)
        copy_resolved(citation, resolved)

    def _fill_url(self, citation: Citation, body: Wikicode) -> None:
        links = body.filter_external_links(recursive=True)
        if links:
            link = links[0]
            citation.url = str(link.url).strip()
            if link.title is not None:
                citation.title = self._plain(link.title) or None
        else:
            match = _BARE_URL.search(str(body))
            if match is None:
                return
            citation.url = match.group(0).rstrip(".,;:)")
        citation.kind = "bare_url"
        if citation.url.startswith("//"):  # protocol-relative [//example.org title]
            citation.url = "https:" + citation.url
