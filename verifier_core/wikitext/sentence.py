"""Where a claim's own words stand in the wikitext, for an edit that changes them.

The extractor says where the claim's citation stands and, where it can tell, where the
stretch before it starts (`Claim.span`: from the citations of the sentence before, as in
`...long.{{sfn|x}} The new pier is ...<ref>`). Neither is trusted blindly: the stretch
is taken only when the wikitext there still reads as the claim's words (rendered as the
extractor renders a paragraph). Where it does not, or is not known, the stretch is found
again by the claim's own words, ending at its citation: the nearest start from which the
wikitext reads as exactly those words. Punctuation is never read as a sentence's end, so
a sentence that ends in `.{{sfn}}`, `.)` or `."` cannot hide its neighbour. Where neither
finds the words, `LocateError` says so.
"""
from __future__ import annotations

import re

from .locate import LocateError
from .render import plain
from .document import parse

_TRIM = " ,;:()[]–—-"
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_MAX_REACH = 6000  # characters of wikitext before the citation searched for the claim's words
NOT_FOUND = ("the claim's words are not found before its citation as the check read them "
             "(the sentence changed, or it is written in a way that cannot be followed); correct it by hand")


def reads_as(fragment: str, words: str) -> bool:
    """Whether the wikitext `fragment` reads as `words` (spaces and edge punctuation aside)."""
    return _norm(_rendered(fragment)) == _norm(words)


def claim_span(wikitext: str, *, words: str, end: int, hint: int | None = None) -> tuple[int, int]:
    """[start, end) of the wikitext holding the claim `words`, ending at `end` (its
    citation): the extractor's `hint` when the text there still reads as the claim, else
    the nearest start that does; LocateError in words when none does."""
    if not _norm(words):
        raise LocateError(NOT_FOUND)
    if hint is not None and 0 <= hint < end <= len(wikitext) and reads_as(wikitext[hint:end], words):
        return hint, end
    floor = _paragraph_start(wikitext, end)
    wanted = _norm(words)
    first = re.escape(wanted.split()[0][:1])
    for start in _starts(wikitext, floor, end, first):
        read = _norm(_rendered(wikitext[start:end]))
        if read == wanted:
            return start, end
        if len(read) > 3 * len(wanted) + 400:  # reading further back only adds words
            break
    raise LocateError(NOT_FOUND)


def _paragraph_start(wikitext: str, end: int) -> int:
    """The claim cannot begin before its paragraph (a blank line), nor too far back."""
    floor = max(0, end - _MAX_REACH)
    blanks = [m.end() for m in _BLANK_LINE.finditer(wikitext, floor, end)]
    return blanks[-1] if blanks else floor


def _starts(wikitext: str, floor: int, end: int, first: str):
    """Candidate starts, nearest the citation first: where a word or markup begins."""
    opener = re.compile(r"(?<!\w)(?=" + first + r"|\[\[|\{\{|'|<|\[)")
    found = [m.start() for m in opener.finditer(wikitext, floor, end)]
    if floor not in found:
        found.insert(0, floor)
    return reversed(found)


def _rendered(fragment: str) -> str:
    try:
        return plain(parse(fragment))
    except Exception:  # noqa: BLE001 - a fragment cut inside odd markup reads as nothing
        return ""


def _norm(text: str) -> str:
    return " ".join(text.split()).strip(_TRIM + ".!?")
