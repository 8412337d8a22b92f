"""`correct_figure`: the claim's figure changed to the one its cited source gives, in the
claim's own words and nowhere else.

The claim's words are located from the extractor's span, checked against the text, or
found again by the words themselves (sentence.claim_span), never by reading punctuation
backwards from the citation. Inside them the figure must be written once: as plain text,
or by a template that writes it (`{{convert}}`, `{{circa}}`, a date template), whose
parameter is changed where that is certain (template_figures). Written twice, in a link,
by another template, or not at all, the edit is refused in words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import mwparserfromhell
from mwparserfromhell.nodes import HTMLEntity, Template, Text

from . import types as wt
from .edits import RefTarget, WikitextChange, _checked
from .locate import LocateError, masked
from .plain import plain_wikitext
from .render import plain
from .sentence import claim_span
from .template_figures import changed_template

_CONVERTED = re.compile(r"\s*\(\s*(?:about\s+|c\.\s*)?[\d.,]+\s*[^\W\d_]")  # "41 m (135 ft)"
_BY_HAND = "correct it by hand"


@dataclass(frozen=True)
class _Spot:
    start: int
    end: int
    text: str | None  # what to write there; None: a link or template writes it, not changed with certainty
    writer: str = ""  # "the template {{convert}}", "a link": what writes it, in words


def correct_figure(wikitext: str, *, target: RefTarget, claimed: str, given: str,
                   claim: wt.Claim | None = None) -> WikitextChange:
    """`claimed` replaced by `given` where the claim's own words (`claim`, the extraction's
    claim that `target` cites; found when not given) write it once. LocateError in words
    when they do not, or not in a way that can be changed with certainty."""
    target = _checked(wikitext, target)
    given = plain_wikitext(given)  # read from the cited page: its words, never markup
    claim = claim or _claim_at(wikitext, target)
    start, end = claim_span(wikitext, words=claim.text, end=target.start,
                            hint=claim.span[0] if claim.span else None)
    spots = _spots(wikitext, start, end, claimed, given)
    if not spots:
        raise LocateError(f"the figure “{claimed}” is not written in the claim's own sentence as plain text "
                          f"or by a template that can be changed; {_BY_HAND}")
    if len(spots) > 1:
        raise LocateError(f"the figure “{claimed}” is written {len(spots)} times in the claim's own sentence, "
                          f"so which one its source contradicts is not certain; {_BY_HAND}")
    spot = spots[0]
    if spot.text is None:
        raise LocateError(f"the figure “{claimed}” is written by {spot.writer}, which cannot be changed to "
                          f"“{given}” with certainty; {_BY_HAND}")
    new = wikitext[:spot.start] + spot.text + wikitext[spot.end:]
    return WikitextChange(wikitext, new, spot.text, f"Corrected a figure to what its cited source gives: "
                          f"{claimed} → {given}", target=target, replaces=wikitext[spot.start:spot.end])


def _claim_at(wikitext: str, target: RefTarget) -> wt.Claim:
    from . import extract

    for claim in extract(wikitext, "").claims:
        if any(o.start == target.start for o in claim.occurrences):
            return claim
    raise LocateError("no claim of the page stands before this citation; " + _BY_HAND)


def _figure(claimed: str) -> re.Pattern:
    # The wikitext may keep a figure and its unit together with a no-break space.
    written = r"(?:\s+|&nbsp;|\u00a0)".join(re.escape(part) for part in claimed.split())
    return re.compile(r"(?<![\w.,/-])%s(?![\w/]|[.,:]\d|[-–]\d)" % written)


def _spots(wikitext: str, start: int, end: int, claimed: str, given: str) -> list[_Spot]:
    """Each place in [start, end) that writes `claimed`: in a run of plain text, or by one
    top-level piece of markup (a template, a link) that shows it."""
    figure, text = _figure(claimed), masked(wikitext)
    spots: list[_Spot] = []
    for a, b, node in _pieces(text[start:end], start):
        if node is None:
            spots += [_plain_spot(text, m, given) for m in figure.finditer(text, a, b)]
        elif figure.search(_shown(node)):
            spots.append(_markup_spot(wikitext, a, b, claimed, given))
    return spots


def _pieces(fragment: str, at: int):
    """(start, end, node) of the fragment's top-level pieces: runs of plain text (node
    None; an entity such as `&nbsp;` is part of its run) and each piece of markup."""
    run = None
    for node in mwparserfromhell.parse(fragment, skip_style_tags=True).nodes:
        end = at + len(str(node))
        if isinstance(node, (Text, HTMLEntity)):
            run = (run[0] if run else at, end)
        else:
            if run:
                yield run[0], run[1], None
            run = None
            yield at, end, node
        at = end
    if run:
        yield run[0], run[1], None


def _plain_spot(text: str, match: re.Match, given: str) -> _Spot:
    if _CONVERTED.match(text, match.end()):
        return _Spot(match.start(), match.end(), None, "the sentence together with the same figure in other "
                     "units right after it")
    space = re.search(r"&nbsp;|\u00a0", match.group(0))
    return _Spot(match.start(), match.end(), given.replace(" ", space.group(0)) if space else given)


def _markup_spot(wikitext: str, start: int, end: int, claimed: str, given: str) -> _Spot:
    nodes = mwparserfromhell.parse(wikitext[start:end], skip_style_tags=True).nodes
    node = nodes[0] if len(nodes) == 1 else None
    if isinstance(node, Template):
        name = " ".join(str(node.name).split())
        return _Spot(start, end, changed_template(node, claimed, given), f"the template {{{{{name}}}}}")
    return _Spot(start, end, None, "a link or other markup")


def _shown(node) -> str:
    """What a piece of markup shows a reader (refs show nothing here)."""
    try:
        return plain(mwparserfromhell.parse(str(node), skip_style_tags=True))
    except Exception:  # noqa: BLE001 - odd markup: nothing shown
        return ""
