"""What the real wiki's parser finds in a page: its links, categories, templates, external
links, properties and headings, after the pre-save transform (issue 41).

Written apart from the code under test: it asks MediaWiki (`action=parse`, `pst=1`) and
reads the rendered HTML with the standard library only, so that a value the edit functions
write is judged by the parser that will read it on the wiki."""
from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

from harness.demo import demo_templates

PROPS = "links|categories|templates|externallinks|properties|sections|images|iwlinks|langlinks|text|wikitext"
TITLE = "Side plain text check"


def with_templates(server) -> None:
    """The demo's stand-in citation templates on the wiki (those it lacks), so that the
    values of a citation are rendered where the parser can be asked about them."""
    missing = {t: text for t, text in demo_templates().items() if server.current_revid(t) is None}
    if missing:
        server.load_pages(missing, summary="Side test: templates")


def parsed(server, text: str) -> dict:
    """{kind: set} of what the wiki finds in `text` (pre-save transform on), "text": the
    words the page shows, and "psttext": `text` as the wiki would store it (signatures,
    subst: and the pipe trick expanded)."""
    answer = server.admin_site.api("parse", text=text, title=TITLE, pst=1, contentmodel="wikitext",
                                   prop=PROPS, disablelimitreport=1, formatversion=2)["parse"]
    return {
        "links": {link["title"] for link in answer["links"]},
        "categories": {c["category"] for c in answer["categories"]},
        "templates": {t["title"] for t in answer["templates"]},
        "externallinks": set(answer["externallinks"]),
        "properties": set(answer["properties"]) if isinstance(answer["properties"], dict)
        else {p["name"] for p in answer["properties"]},
        "sections": {s["line"] for s in answer["sections"]},
        "images": set(answer["images"]),
        "iwlinks": {i["title"] for i in answer["iwlinks"]},
        "langlinks": {i["title"] for i in answer["langlinks"]},
        "text": shown_words(answer["text"]),
        "psttext": answer["psttext"],
    }


class _Words(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def shown_words(page_html: str) -> str:
    """The text a reader sees, on one line, blanks as single spaces, in NFC."""
    reader = _Words()  # its character references decoded once, as a browser does
    reader.feed(page_html)
    reader.close()
    return words("".join(reader.parts))


def words(text: str) -> str:
    """`text` compared as a reader sees it: NFC (the wiki normalises what it stores), every
    blank (a tab, a line break) one space, other controls and bidi marks (never shown) left out."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if c.isspace() or unicodedata.category(c).startswith("Z") else c for c in text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cc" and not _bidi(c))
    return re.sub(r"\s+", " ", text).strip()


def _bidi(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") \
        or char in "\u200e\u200f\u061c\ufeff"


KINDS = ("links", "categories", "templates", "externallinks", "properties", "sections", "images", "iwlinks",
         "langlinks")


def added(before: dict, after: dict) -> dict:
    """{kind: what `after` has that `before` lacks}, kinds with nothing new left out."""
    return {kind: after[kind] - before[kind] for kind in KINDS if after[kind] - before[kind]}


def removed(before: dict, after: dict) -> dict:
    return {kind: before[kind] - after[kind] for kind in KINDS if before[kind] - after[kind]}
