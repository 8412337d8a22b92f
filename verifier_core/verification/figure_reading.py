"""Whether the verifier reads the source's rival figure as the claim's own, before it is said.

The figure rules (quantities.py) find a source figure of the claim's kind in wording close to
the claim's and say "the source gives 2011, not 1998". Words in common do not make it the
same thing: a page tells of a player's other ranking, a mother's first child, another
conductor appointed in 2000. On WiCE's dev half most such reasons given to claims that are
not fully supported were about another thing. So the cross-encoder reads the source's
sentence (with the one before it) against the claim with the source's figure put in the
claim's place: a source that gives the claim's thing with another figure states that claim.
The reason stands only when the verifier reads it so (READ_FLOOR), and at least as well as
it reads the claim, as written, in the sentences that give the claim's own figure.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from verifier_core.verification.quantities import Mismatch, Quantity

# How sure the verifier must be that the source's sentence states the claim with its figure:
# the pair head's probability. Chosen on WiCE's dev half (docs/benchmarks-claims.md).
READ_FLOOR = 0.6
AGREEING = 4  # sentences giving the claim's figure read, closest in wording first
WINDOW_CHARS = 600  # at most this much of the sentence before and of the figure's own
_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")  # as figures.py splits sentences

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


def read_mismatches(claim: str, found: list[Mismatch], text_of: Callable[[Quantity], str | None],
                    read: Reader) -> list[Mismatch]:
    """The mismatches the verifier reads as the source's own figure for the claim's thing.
    `text_of` gives the text a source figure was read from (None: unknown, and the rule's
    mismatch is kept as it is)."""
    checks: list[list[tuple[str, str]] | None] = [_pairs(claim, m, text_of) for m in found]
    flat = [pair for pairs in checks if pairs for pair in pairs]
    probs = iter(read(flat) if flat else [])
    kept = []
    for mismatch, pairs in zip(found, checks):
        if pairs is None:
            kept.append(mismatch)
            continue
        rival, *given = [next(probs) for _ in pairs]
        if rival >= READ_FLOOR and rival >= max(given, default=0.0):
            kept.append(mismatch)
    return kept


def _pairs(claim: str, m: Mismatch, text_of) -> list[tuple[str, str]] | None:
    """The claim with the source's figure in its place against that figure's sentence, then
    the claim as written against each sentence giving its own figure."""
    text = text_of(m.source) if m.source is not None else None
    if text is None:
        return None
    swapped = claim[:m.claim.start] + m.source_text + claim[m.claim.end:]
    begin, stop = window(text, m.source.start, m.source.end)
    pairs = [(swapped, text[begin:stop])]
    for q in m.agreeing:
        own = text_of(q)
        if own is None or len(pairs) > AGREEING:
            continue
        a, b = window(own, q.start, q.end)
        if own != text or not (a <= m.source.start < b):  # a sentence giving both is no evidence for one
            pairs.append((claim, own[a:b]))
    return pairs
