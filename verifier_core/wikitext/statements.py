"""The statement a claim is checked as, when the words before its citation are not one.

A list item, a table row, an infobox value or a clause cut short by its citation
("The earliest", "and Italy", "In 1998,") says nothing a source can support on its
own. The claim keeps those words (they find it in the page); the statement checked is
the one its structure makes:

- infobox value: the article's subject, the field's label and the whole value
  ("Port Ellery, Population total: 12,480");
- table row: the table's caption (or the subject and section) and each cell up to the
  cited one under its column header ("Station: Angle; Lifeboat type(s): Tamar");
- list item: its lead-in (the sentence before the list, the `;term` above it, or the
  subject and section) and the item;
- a clause too short to stand alone: its whole sentence, and when even that is short,
  the subject before it.

A statement needs MIN_CONTENT_WORDS content words (words that are not stop words, not
figures), and the claim's own part a word and at least MIN_OWN words or figures; where no such
statement can be built the claim is "not checkable on its own".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from verifier_core.retrieval.tokenize import stop_words, words

from ..text import sentence_spans
from .builder import Marker, RawParagraph, Shape

MIN_CONTENT_WORDS = 3
MIN_OWN = 2
_FIGURE = re.compile(r"\d+(?:[.,:]\d+)*")
_LETTER = re.compile(r"[^\W\d_]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_DISAMBIGUATION = re.compile(r"\s*\([^)]*\)\s*$")
_LEAD_END = " :;,–—-"
_WORDS = re.compile(r"\W+")


@dataclass(frozen=True)
class Statement:
    text: str  # what is verified; equal to the claim's own words when they stand alone
    checkable: bool
    kind: str  # "sentence" | "clause" | "item" | "row" | "field"


@dataclass(frozen=True)
class Place:
    """Where a claim sits: its paragraph, sentence and the span of its own words."""

    paragraph: str
    sentence: str
    end: int  # where the claim's words end in `paragraph` (its citation)
    cells: list[Marker]  # the row's cell markers, in order (rows only)
    subject: str  # the article's subject: its title without a disambiguation
    heading: str  # the innermost section title; "" in the lead


def content_words(text: str) -> int:
    """Words that say what a statement is about: not stop words, not bare figures."""
    stop = stop_words()
    return sum(1 for w in words(text) if w not in stop and _LETTER.search(w) and (len(w) > 1 or _CJK.match(w)))


def stands_alone(text: str) -> bool:
    return content_words(text) >= MIN_CONTENT_WORDS


def subject_of(title: str) -> str:
    """"Mercury (planet)" -> "Mercury"; "Port_Ellery" -> "Port Ellery"."""
    return _DISAMBIGUATION.sub("", " ".join(title.replace("_", " ").split()))


def statement(claim: str, shape: Shape | None, place: Place) -> Statement:
    if shape is None:
        return _prose(claim, place)
    if shape.kind == "field":
        return _field(shape, place)
    if shape.kind == "row":
        return _row(shape, place)
    return _item(claim, shape, place)


def _prose(claim: str, place: Place) -> Statement:
    if stands_alone(claim):
        return Statement(claim, True, "sentence")
    sentence = place.sentence
    if not stands_alone(sentence) and place.subject:
        sentence = _joined(place.subject, sentence)
    return _built(sentence, place.sentence, "clause")


def _item(claim: str, shape: Shape, place: Place) -> Statement:
    """An item that is a statement of its own ("* In 1995 the station got...", an indented
    quote) stays one unless its lead-in announces the list ("... include:")."""
    lead = shape.label or _where(place)
    if stands_alone(claim) and not lead.rstrip().endswith(":"):
        return Statement(claim, True, "item")
    body = claim if stands_alone(claim) else place.sentence
    return _built(_joined(lead, body), body, "item")


def _field(shape: Shape, place: Place) -> Statement:
    value = place.paragraph
    if value.startswith(shape.label + ":"):
        value = value[len(shape.label) + 1 :].strip()
    lead = f"{place.subject}, {shape.label}" if place.subject else shape.label
    return _built(_joined(lead, value), _joined(shape.label, value), "field")


def _row(shape: Shape, place: Place) -> Statement:
    """Cells up to and including the cited one (the whole cell), under their headers."""
    cells = dict(shape.inherited)
    starts = [m.offset for m in place.cells] + [len(place.paragraph)]
    cited = None
    for marker, end in zip(place.cells, starts[1:]):
        if marker.offset > place.end:
            break
        cells[int(marker.value)] = place.paragraph[marker.offset : end].strip().rstrip(";").strip()
        cited = int(marker.value)
    if cited is None:  # no cell markers (a table the parser did not read as one)
        return _built(_joined(shape.label or _where(place), place.sentence), place.sentence, "row")
    shown = [_joined(_header(shape, col, text), text) for col, text in sorted(cells.items()) if col <= cited and text]
    body = "; ".join(shown)
    return _built(_joined(shape.label or _where(place), body), body, "row")


def _header(shape: Shape, column: int, text: str) -> str:
    """The column's header, unless the cell is that header (a header row)."""
    header = shape.headers.get(column, "")
    return "" if _WORDS.sub("", header) == _WORDS.sub("", text) else header


def _where(place: Place) -> str:
    """The frame of a table or list with no caption or lead-in: subject and section."""
    return ", ".join(p for p in (place.subject, place.heading) if p)


def _joined(lead: str, body: str) -> str:
    lead, body = lead.strip().rstrip(_LEAD_END), body.strip()
    if not (lead and body):
        return body or lead
    return f"{lead} {body}" if lead[-1] in ".!?" else f"{lead}: {body}"


def _built(text: str, own: str, kind: str) -> Statement:
    """Checkable when the statement has enough content words and the claim's own part
    (its sentence, item, cells or field) says something by itself: MIN_OWN content
    words or figures, one of them a word. A subject and a section title around "Today",
    "Reprinted in" or "2011; 2011" make three words, not a statement."""
    words = content_words(own)
    return Statement(text, words >= 1 and words + len(_FIGURE.findall(own)) >= MIN_OWN and stands_alone(text), kind)


def list_leads(paragraphs: list[RawParagraph], subject: str, heading: str) -> None:
    """Give each list item its lead-in: the `;term` above it in the same list, else the
    last sentence of the prose paragraph the list follows, else the subject and section."""
    where = ", ".join(p for p in (subject, heading) if p)
    lead, term = where, ""
    for paragraph in paragraphs:
        shape = paragraph.shape
        if shape is not None and shape.kind in ("item", "term"):
            shape.label = lead if shape.kind == "term" else (term or lead)
            if shape.kind == "term":
                term = ", ".join(p for p in (where, paragraph.text.strip().rstrip(_LEAD_END)) if p)
            continue
        term = ""
        lead = _last_sentence(paragraph.text) if shape is None else where


def _last_sentence(text: str) -> str:
    spans = sentence_spans(text)
    return text[spans[-1].start : spans[-1].end].strip() if spans else text
