"""Whether the verifier reads the source's rival figure as the claim's own, before it is said.

The figure rules (quantities.py) find a source figure of the claim's kind in wording close to
the claim's and say "the source gives 2011, not 1998". Words in common do not make it the
same thing: a page tells of a player's other ranking, a mother's first child, another
conductor appointed in 2000. On WiCE's dev half most such reasons given to claims that are
not fully supported were about another thing. So the cross-encoder reads the source's
sentence (with the one before it) against the claim with the source's figure put in the
claim's place: a source that gives the claim's thing with another figure states that claim.
The reason stands only when the verifier reads it so (READ_FLOOR), the whole claim or the
part of it that states the figure ("first lit on 1 October 1862" of a claim that also says
who designed the tower), and reads the whole claim so at least as well as it reads the
claim, as written, in the sentences that give the claim's own figure.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from verifier_core.verification.language.figures import SENTENCE_BREAK
from verifier_core.verification.language.lexical import term_spans
from verifier_core.verification.language.mentions import near_form
from verifier_core.verification.language.quantities import Mismatch, Quantity

# How sure the verifier must be that the source's sentence states the claim (or the claim's
# statement of the figure) with the source's figure: the pair head's probability. Chosen on
# WiCE's dev half (docs/benchmarks-claims.md).
READ_FLOOR = 0.7
# A contradiction names the claim's thing: of the content words of the claim's statement of
# the figure (its clause, `statement`), the source's sentence and the one before it must hold
# at least this share in some form, and every name. Chosen on WiCE dev and the Source Verifier
# design half: every figure those pages give of another thing (another transfer, another child,
# a byline's date) holds under 0.75 or misses a name; the demo's planted swaps hold 0.75 to 1.
RESTATED = 0.75
AGREEING = 4  # sentences giving the claim's figure read, closest in wording first
WINDOW_CHARS = 600  # at most this much of the sentence before and of the figure's own
_BREAK = SENTENCE_BREAK  # as figures.py splits sentences
_SEGMENT = re.compile(r",\s+|;\s+|:\s+|\s+[–—]\s+|\s+(?:and|but|while|whereas)\s+", re.I)
MIN_WORDS = 3  # content words a claim's segment must hold to state a figure on its own

# (claim, source text) pairs -> the verifier's probability that the text states the claim.
Reader = Callable[[list[tuple[str, str]]], list[float]]


def window(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence holding text[start:end] and the sentence before it are ("The line
    closed in 1965. It reopened in 1996": "it" is the line)."""
    low = max(0, start - WINDOW_CHARS)
    breaks = [m.end() for m in _BREAK.finditer(text, low, start)]
    begin = breaks[-2] if len(breaks) > 1 else low
    after = _BREAK.search(text, end)
    return begin, min(after.start() if after else len(text), end + WINDOW_CHARS)


@dataclass(frozen=True)
class Reading:
    """How the verifier read one figure the rules found: the source's sentence with the claim's
    figure swapped for the source's (`rival`), the claim's own statement of it so changed
    (`part`), the claim as written against the sentences giving its own figure (`given`), and
    whether the source's sentence names the claim's thing (`named`, `names_thing`)."""

    mismatch: Mismatch
    rival: float = 1.0
    part: float = 1.0
    given: tuple[float, ...] = ()
    named: bool = False

    @property
    def same_fact(self) -> bool:
        """The source's sentence states the claim's fact, with the source's figure."""
        return max(self.rival, self.part) >= READ_FLOOR and self.rival >= max(self.given, default=0.0)

    @property
    def contradicts(self) -> bool:
        """The page contradicts the claim: the verifier reads the source's sentence as stating the
        claim's fact with the source's figure, and that sentence names the claim's thing. (The
        claim as written reads there as well as the swap does: the cross-encoder does not tell one
        figure from another, so its reading says "same fact", never "other figure".)"""
        return self.same_fact and self.named


def read_figures(claim: str, found: list[Mismatch], text_of: Callable[[Quantity], str | None],
                 read: Reader) -> list[Reading]:
    """The verifier's reading of each mismatch the rules found, those it reads as the same fact
    only. `text_of` gives the text a source figure was read from (None: unknown, and the
    rule's mismatch is kept, read as neither a contradiction nor another thing)."""
    checks: list[list[tuple[str, str]] | None] = [_pairs(claim, m, text_of) for m in found]
    flat = [pair for pairs in checks if pairs for pair in pairs]
    probs = iter(read(flat) if flat else [])
    out = []
    for mismatch, pairs in zip(found, checks):
        if pairs is None:
            out.append(Reading(mismatch))
            continue
        rival, part, *given = [next(probs) for _ in pairs]
        reading = Reading(mismatch, rival, part, tuple(given), names_thing(claim, mismatch, text_of(mismatch.source)))
        if reading.same_fact:
            out.append(reading)
    return out


def read_mismatches(claim: str, found: list[Mismatch], text_of: Callable[[Quantity], str | None],
                    read: Reader) -> list[Mismatch]:
    """The mismatches the verifier reads as the source's own figure for the claim's thing."""
    return [r.mismatch for r in read_figures(claim, found, text_of, read)]


def names_thing(claim: str, m: Mismatch, text: str) -> bool:
    """Whether the source's sentence (with the one before) names what the claim's figure is of:
    every name of the claim's statement of the figure and RESTATED of all its words, in some
    form ("the Society reopened the six-kilometre section between Lowick and Kellhaven ... in
    1996" for "... reopened the six-kilometre section between Lowick and Kellhaven in 1994";
    not "signed to the Panthers practice squad" for "signed to the Indianapolis Colts practice
    squad")."""
    a, b = statement(claim, m.claim.start, m.claim.end)
    begin, stop = window(text, m.source.start, m.source.end)
    said = {t for _, _, t in term_spans(text[begin:stop])}
    figure = {t for _, _, t in term_spans(m.claim.text)}
    words = [(claim[a + x:a + y], t) for x, y, t in term_spans(claim[a:b])
             if t not in figure and not any(c.isdigit() for c in t)]
    if not words:
        return False
    lower = text[begin:stop].lower()
    if any(w[:1].isupper() and claim.find(w, a) > 0 and w.lower() not in lower for w, _ in words):
        return False  # a name of the claim's statement that the sentence does not give: another thing
    return sum(near_form(t, said) for _, t in words) >= RESTATED * len(words)


def sentence_at(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence holding text[start:end] is."""
    breaks = [m.end() for m in _BREAK.finditer(text, max(0, start - WINDOW_CHARS), start)]
    after = _BREAK.search(text, end)
    return (breaks[-1] if breaks else max(0, start - WINDOW_CHARS)), min(
        after.start() if after else len(text), end + WINDOW_CHARS)


def statement(claim: str, start: int, end: int) -> tuple[int, int]:
    """Where the part of the claim that states the figure at [start, end) is: its segment
    between commas, semicolons and conjunctions ("first lit on 1 October 1862" of "The tower
    was designed by Josiah Penhallow and first lit on 1 October 1862"), joined to the
    segments before it (else after it) while it holds under MIN_WORDS content words ("In
    1954, the Supreme Court ruled ...")."""
    cuts = [(a, b) for a, b in ((m.start(), m.end()) for m in _SEGMENT.finditer(claim)) if b <= start or a >= end]
    begin = max((b for a, b in cuts if b <= start), default=0)
    stop = min((a for a, b in cuts if a >= end), default=len(claim))
    while len([t for _, _, t in term_spans(claim[begin:stop]) if not any(c.isdigit() for c in t)]) < MIN_WORDS:
        if begin:
            begin = max((b for a, b in cuts if b < begin), default=0)
        elif stop < len(claim):
            stop = min((a for a, b in cuts if a > stop), default=len(claim))
        else:
            break
    return begin, stop


def _pairs(claim: str, m: Mismatch, text_of) -> list[tuple[str, str]] | None:
    """The claim with the source's figure in its place against that figure's sentence, its
    statement of the figure so changed against the same sentence, then the claim as written
    against each sentence giving its own figure."""
    text = text_of(m.source) if m.source is not None else None
    if text is None:
        return None
    begin, stop = window(text, m.source.start, m.source.end)
    a, b = statement(claim, m.claim.start, m.claim.end)
    swap = (claim[:m.claim.start], m.source_text, claim[m.claim.end:])
    pairs = [("".join(swap), text[begin:stop]), (swap[0][a:] + swap[1] + swap[2][:b - m.claim.end], text[begin:stop])]
    for q in m.agreeing:
        own = text_of(q)
        if own is None or len(pairs) == 2 + AGREEING:
            continue
        a, b = window(own, q.start, q.end)
        if own != text or not (a <= m.source.start < b):  # a sentence giving both is no evidence for one
            pairs.append((claim, own[a:b]))
    return pairs
