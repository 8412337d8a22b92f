"""Where a change to one claim's citation landed: checked from the page's text before and
after, independently of how the change was built (for the property test and the edit
benchmark, issue 30).

A change lands on the claim's own citation when
- the text changed only at that citation's zone (the ref, footnote or `{{r}}` and the
  maintenance tags written right after it). One change elsewhere is what an editor does
  too, and is allowed for a replaced named ref: its definition moves to another use of the
  name, or a list-defined definition left without a use goes (compared with every use of
  that name written alike);
- the page parses as before for every other claim: the same sentences in the same
  sections, each with the same citations (what each says: URL, title, work, date...) and
  the same tags; a named ref's definition that moved to its next use changes nothing here;
- and the claim itself changed as asked: a tag on that citation, one citation more, or the
  citation replaced by the new one.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import extract
from .locate import attached_tags, ref_occurrences
from .types import Claim, Extraction

_FIELDS = ("url", "archive_url", "title", "work", "publisher", "date", "access_date", "kind", "location")


@dataclass(frozen=True)
class Landing:
    own: bool  # on the claim's own citation, and nowhere else
    why: str = ""  # where else it landed, in words ("" when own)


def _cited(extraction: Extraction, claim: Claim) -> list[tuple]:
    return [(tuple(getattr(extraction.citations[o.citation], f, None) for f in _FIELDS), tuple(o.tags))
            for o in claim.occurrences]


def _signature(extraction: Extraction) -> list[tuple]:
    return [(c.text, tuple(c.section), c.needs_citation) for c in extraction.claims]


def landing(old: str, new: str, *, index: int, action: str, start: int, end: int, new_url: str = "",
            before: Extraction | None = None) -> Landing:
    """Where the change `old` -> `new` made for claim number `index` of `old`'s extraction,
    acting at [start, end) (`action`: "tag", "add" or "replace"), landed."""
    before = before or extract(old, "Page")
    after = extract(new, "Page")
    ends = [end, *(b for _, b, _ in attached_tags(old, end))]
    if action in ("tag", "add") and not any(_inserted_at(old, new, q) for q in ends):
        return Landing(False, "the text changed elsewhere than right after the citation and its tags")
    if action == "replace" and not _replaced_within(old, new, start, ends[-1]):
        return Landing(False, "the text changed elsewhere than at the citation and its tags")
    if _signature(before) != _signature(after):
        return Landing(False, "the page's sentences or sections changed")
    for n, (was, now) in enumerate(zip(before.claims, after.claims)):
        if n != index and _cited(before, was) != _cited(after, now):
            return Landing(False, f"another claim's citations changed: “{was.text[:60]}”")
    return _as_asked(before, after, index, action, new_url)


def _as_asked(before: Extraction, after: Extraction, index: int, action: str, new_url: str) -> Landing:
    was, now = _cited(before, before.claims[index]), _cited(after, after.claims[index])
    if action == "tag":
        ok = len(now) == len(was) and any("failed verification" in t for _, t in now)
    elif action == "add":
        ok = len(now) == len(was) + 1 or (len(now) == len(was) and was != now)
    else:
        ok = len(now) == len(was) and any(fields[0] == new_url for fields, _ in now)
    return Landing(True) if ok else Landing(False, f"the claim's own citations did not change as asked ({action})")


def _replaced_within(old: str, new: str, start: int, end: int) -> bool:
    """Whether `new` is `old` with [start, end) replaced, once the other uses of the
    replaced ref's name are written alike on both sides (a definition that moved)."""
    target = next((o for o in ref_occurrences(old) if o.start == start), None)
    name = target.name if target is not None else None
    head, zone, tail = old[:start], old[start:end], old[end:]
    if name:
        head, tail, new = (_alike(head, name, target.group), _alike(tail, name, target.group),
                           _alike(new, name, target.group))
    if not (new.startswith(head) and new.endswith(tail)):
        return False
    return len(new) >= len(head) + len(tail) and bool(zone)


def _alike(text: str, name: str, group: str) -> str:
    """`text` with each use of ref `name` written as a bare re-use, list definitions dropped."""
    for o in reversed(ref_occurrences(text)):
        if o.name == name and o.group == group:
            text = text[:o.start] + ("" if o.in_list else f'<ref name="{name}"/>') + text[o.end:]
    return text


def _inserted_at(old: str, new: str, at: int) -> bool:
    """Whether `new` is `old` with text inserted at `at`, and nothing else changed."""
    grown = len(new) - len(old)
    return grown > 0 and new.startswith(old[:at]) and new[at + grown:] == old[at:]


