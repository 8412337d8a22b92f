"""The project's demo articles (fixtures/wiki) and their cited sources (fixtures/sources).

The articles cite their sources at the placeholder base URL `http://SOURCES_HOST/`;
loading replaces it with the real base URL of the fixture sources server, so the
same files work on any port. No Django imports: scripts use this too.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for the annotation; keeps import cheap and cycle-free
    from harness.mediawiki import MediaWikiServer

FIXTURES_DIR = Path(__file__).resolve().parents[1] / "fixtures"
WIKI_DIR = FIXTURES_DIR / "wiki"
TEMPLATES_DIR = WIKI_DIR / "templates"
SOURCES_DIR = FIXTURES_DIR / "sources"
MANIFEST_PATH = SOURCES_DIR / "manifest.json"
SOURCES_PLACEHOLDER = "http://SOURCES_HOST/"
DEMO_CATEGORY = "Demo articles"

# `<!-- title: Kellhaven Lighthouse -->` on the first line names the page.
_TITLE_COMMENT = re.compile(r"\A<!--\s*title:\s*(?P<title>.+?)\s*-->[ \t]*\r?\n?")


def read_wiki_file(path: Path, sources_base_url: str | None = None) -> tuple[str, str]:
    """(title, wikitext) of one .wiki file, title comment removed, placeholder replaced."""
    text = path.read_text(encoding="utf-8")
    match = _TITLE_COMMENT.match(text)
    if match:
        title, text = match.group("title"), text[match.end():]
    else:
        title = path.stem.replace("_", " ")
    if sources_base_url is not None:
        text = text.replace(SOURCES_PLACEHOLDER, normalise_base_url(sources_base_url))
    return title, text


def normalise_base_url(base_url: str) -> str:
    """`http://127.0.0.1:8000` and `http://127.0.0.1:8000/` both become the latter."""
    return base_url.rstrip("/") + "/"


def demo_pages(sources_base_url: str | None = None, directory: Path = WIKI_DIR) -> dict[str, str]:
    """{title: wikitext} of the demo articles, in file-name order.

    With sources_base_url None the placeholder URLs are left as they are."""
    return dict(read_wiki_file(path, sources_base_url) for path in sorted(directory.glob("*.wiki")))


def demo_templates(directory: Path = TEMPLATES_DIR) -> dict[str, str]:
    """{title: wikitext} of the small stand-in templates the articles use."""
    return dict(read_wiki_file(path) for path in sorted(directory.glob("*.wiki")))


def load_demo_pages(server: "MediaWikiServer", sources_base_url: str, *,
                    with_templates: bool = True,
                    summary: str = "Side demo: load demo article") -> dict[str, int]:
    """Load the demo articles into `server`; returns {article title: revision id}.

    The stand-in templates (Template:Cite web, Template:Sfn, ...) are saved first
    so the articles render on the wiki; they are not part of the returned mapping.
    """
    if with_templates:
        server.load_pages(demo_templates(), summary="Side demo: load template")
    return server.load_pages(demo_pages(sources_base_url), summary=summary)


def sync_demo_pages(server: "MediaWikiServer", sources_base_url: str, *,
                    previous_base_url: str | None = None, restore: bool = False) -> dict[str, int]:
    """The demo on a wiki that may already hold it (a later run of the demo): articles and
    templates the wiki lacks are loaded; those it has are left as they are, with every edit
    made on the wiki since (never a reload over a wiki user's work). When the cited pages
    moved (`previous_base_url`), only their addresses are rewritten in the articles' current
    text. `restore` (asked for by name: `bin/demo --restore-articles`) writes each article as
    the demo ships it over whatever was edited since, as a new revision (the history keeps
    every edit). Returns {article title: revision id} of the articles written."""
    missing = {t: text for t, text in demo_templates().items() if server.current_revid(t) is None}
    server.load_pages(missing, summary="Side demo: load template")
    written = {}
    for title, text in demo_pages(sources_base_url).items():
        if server.current_revid(title) is None:
            written[title] = server.edit(title, text, summary="Side demo: load demo article")
            continue
        if restore:
            if server.admin_site.pages[title].text(cache=False).strip() != text.strip():
                written[title] = server.edit(title, text, bot=True, summary="Side demo: the article as the demo ships it")
            continue
        old, new = normalise_base_url(previous_base_url or sources_base_url), normalise_base_url(sources_base_url)
        if old != new:
            current = server.admin_site.pages[title].text(cache=False)
            if old in current:
                # Upkeep of the demo, not a wiki user's edit: marked a bot's, so patrol leaves
                # its rewritten citations out of its rows.
                written[title] = server.edit(title, current.replace(old, new), bot=True,
                                             summary=f"Side demo: the cited pages moved to {new}")
    return written


def load_manifest(path: Path = MANIFEST_PATH) -> dict[str, dict]:
    """fixtures/sources/manifest.json: {path under fixtures/sources: facts about it}."""
    return json.loads(path.read_text(encoding="utf-8"))
