"""Where a claim reads in the rendered article: its text as the reader sees it, and the
footnote markers right after it.

MediaWiki renders a ref as `<sup class="reference" id="cite_ref-..."><a href="#cite_note-...">`
and the note itself as `<li id="cite_note-...">` in the reference list. The page's text is
the article body's text with whitespace collapsed, without the footnote markers and the
reference lists; a *run* is a group of adjacent markers, with the text before it in its
block (paragraph, list item, cell). A claim's target is the longest tail of its extracted
text that the block's text ends with, right before a run whose notes cite the claim's
sources, so a script (or MediaWiki's Edit Check) finds it verbatim in the page.

A claim that needs a source has no footnote: it is found by its words right before the
inline `{{citation needed}}` tag the wiki renders (a `<sup>` that reads "citation needed").

Pure functions over the HTML of `action=parse`; lxml does the parsing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_SPACE = re.compile(r"\s+")
_BLOCKS = frozenset("p li dd dt td th caption h1 h2 h3 h4 h5 h6 div blockquote pre table tr ul ol dl "
                    "figure figcaption center".split())
_SKIP_CLASSES = frozenset({"references", "mw-references-wrap", "reflist", "mw-editsection", "toc",
                           "mw-cite-backlink"})
MIN_TARGET_WORDS = 3  # a shorter tail ("in 1931.") is not enough to find a claim by
_NEEDED = re.compile(r"citation\s+needed", re.I)


@dataclass(frozen=True)
class Run:
    """Adjacent footnote markers: the text before them ends at `at` in the page text."""

    at: int
    block_start: int  # where the run's block (paragraph, list item...) starts in the page text
    marker_ids: tuple[str, ...]  # ids of the <sup> markers ("cite_ref-opening_1-0"), in order
    urls: tuple[str, ...]  # each marker's source URL ("" when its note has none), in order


@dataclass(frozen=True)
class RenderedPage:
    text: str
    runs: tuple[Run, ...]
    tags: tuple[Run, ...] = ()  # each {{citation needed}} tag, as a run without markers


@dataclass(frozen=True)
class Target:
    text: str  # verbatim in RenderedPage.text, right before the run
    after: str  # id of the run's last marker, after which a script puts its own mark
    urls: tuple[str, ...]  # the run's source URLs, in the order they follow the text
    whole: bool  # the claim's whole text was found (not only its tail)


def rendered_page(html: str) -> RenderedPage:
    """The page text and the footnote runs of an `action=parse` HTML body."""
    import lxml.html

    if not html.strip():
        return RenderedPage("", ())
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    notes = _note_urls(root)
    walker = _Walker(notes)
    walker.walk(root)
    return RenderedPage("".join(walker.parts), tuple(walker.runs), tuple(walker.tags))


def claim_target(page: RenderedPage, *, text: str, urls: set[str], normalise=lambda u: u,
                 used: set[str] = frozenset()) -> Target | None:
    """The claim's target: the run whose sources are the claim's (`urls`, compared through
    `normalise`) and whose block ends with the longest tail of the claim's text; a run
    already given to an earlier claim (`used`: its last marker's id) only on a tie. None
    when no run fits."""
    want = {normalise(u) for u in urls if u}
    claim = _collapse(text)
    best: tuple[tuple[int, int], Run, str] | None = None
    for run in page.runs:
        cited = {normalise(u) for u in run.urls if u}
        if want and cited and cited != want:
            continue
        tail = _common_tail(page.text[run.block_start:run.at].rstrip(), claim)
        if not tail or (want and not cited and tail != claim):
            continue  # notes without links (a book, an unrendered template): the whole claim only
        rank = (len(tail), run.marker_ids[-1] not in used)
        if best is None or rank > best[0]:
            best = (rank, run, tail)
    if best is None:
        return None
    _, run, tail = best
    return Target(text=tail, after=run.marker_ids[-1], urls=run.urls, whole=tail == claim)


def tagged_target(page: RenderedPage, *, text: str, used: set[int] = frozenset()) -> tuple[int, Target] | None:
    """(index of the tag in page.tags, target) of a claim that needs a source: the
    `{{citation needed}}` tag whose block ends with the longest tail of the claim's text
    (a tag already given to an earlier claim, `used`, only on a tie). None when none fits."""
    claim = _collapse(text)
    best: tuple[tuple[int, bool], int, str] | None = None
    for index, tag in enumerate(page.tags):
        tail = _common_tail(page.text[tag.block_start:tag.at].rstrip(), claim)
        rank = (len(tail), index not in used)
        if tail and (best is None or rank > best[0]):
            best = (rank, index, tail)
    if best is None:
        return None
    _, index, tail = best
    return index, Target(text=tail, after="", urls=(), whole=tail == claim)


def _collapse(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _common_tail(block: str, claim: str) -> str:
    """The longest tail of `claim` that `block` ends with, starting at a word in both;
    "" when shorter than MIN_TARGET_WORDS words (unless it is the whole claim)."""
    n = 0
    limit = min(len(block), len(claim))
    while n < limit and block[-1 - n] == claim[-1 - n]:
        n += 1
    if n == 0:
        return ""
    if n < len(claim):
        tail = claim[len(claim) - n:]
        if not tail[0].isspace() and not claim[len(claim) - n - 1].isspace():
            cut = tail.find(" ")  # the match starts inside a word: from the next word on
            if cut < 0:
                return ""
            tail = tail[cut + 1:]
        tail = tail.lstrip()
        if len(tail.split()) < MIN_TARGET_WORDS:
            return ""
    else:
        tail = claim
    start = len(block) - len(tail)
    if start > 0 and not block[start - 1].isspace() and not tail[:1].isspace():
        return ""  # the block goes on inside a word: not this claim
    return tail


def _classes(element) -> set[str]:
    return set((element.get("class") or "").split())


def _is_marker(element) -> bool:
    return element.tag == "sup" and "reference" in _classes(element)


def _note_urls(root) -> dict[str, str]:
    """{note id: its source URL}: the first external link of the note, or of the full
    citation a short footnote points to (`#CITEREF...`)."""
    cites = {el.get("id"): el for el in root.iter() if (el.get("id") or "").startswith("CITEREF")}
    urls: dict[str, str] = {}
    for note in root.iter("li"):
        note_id = note.get("id") or ""
        if not note_id.startswith("cite_note"):
            continue
        urls[note_id] = _first_external(note)
        if not urls[note_id]:
            for link in note.iter("a"):
                target = cites.get((link.get("href") or "").lstrip("#"))
                if target is not None and (link.get("href") or "").startswith("#CITEREF"):
                    urls[note_id] = _first_external(target)
                    break
    return urls


def _first_external(element) -> str:
    for link in element.iter("a"):
        if "external" in _classes(link) and link.get("href"):
            return link.get("href")
    return ""


class _Walker:
    """Collects the collapsed page text and the runs of markers, in document order."""

    def __init__(self, notes: dict[str, str]):
        self.notes = notes
        self.parts: list[str] = []
        self.length = 0
        self.block_start = 0
        self.runs: list[Run] = []
        self.tags: list[Run] = []
        self._open: list[tuple[str, str]] | None = None  # markers of the run being read
        self._open_at = 0

    def add(self, text: str | None) -> None:
        if not text:
            return
        text = _SPACE.sub(" ", text)
        if text == " " or not text.strip():
            if self.parts and not self.parts[-1].endswith(" ") and self.length > self.block_start:
                self._emit(" ")
            return
        self._close_run()
        if text.startswith(" ") and (not self.parts or self.parts[-1].endswith(" ")
                                     or self.length == self.block_start):
            text = text[1:]
        self._emit(text)

    def _emit(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def boundary(self) -> None:
        """A block starts or ends: runs and tails never cross it."""
        self._close_run()
        if self.parts and not self.parts[-1].endswith(" "):
            self._emit(" ")
        self.block_start = self.length

    def marker(self, element) -> None:
        link = next(element.iter("a"), None)
        note = (link.get("href") or "").lstrip("#") if link is not None else ""
        if self._open is None:
            self._open, self._open_at = [], self.length
        self._open.append((element.get("id") or "", self.notes.get(note, "")))

    def _close_run(self) -> None:
        if self._open:
            self.runs.append(Run(at=self._open_at, block_start=self.block_start,
                                 marker_ids=tuple(i for i, _ in self._open),
                                 urls=tuple(u for _, u in self._open)))
        self._open = None

    def walk(self, element) -> None:
        for child in element:
            if not isinstance(child.tag, str):  # comments, processing instructions
                self.add(child.tail)
                continue
            if _is_marker(child):
                self.marker(child)
            elif child.tag == "sup" and _NEEDED.search(child.text_content() or ""):
                self._close_run()
                self.tags.append(Run(at=self.length, block_start=self.block_start, marker_ids=(), urls=()))
                self.add(child.text)
                self.walk(child)
            elif child.tag in ("style", "script") or _classes(child) & _SKIP_CLASSES:
                pass
            elif child.tag in _BLOCKS or child.tag == "br":
                self.boundary()
                self.add(child.text)
                self.walk(child)
                self.boundary()
            else:
                self.add(child.text)
                self.walk(child)
            self.add(child.tail)
