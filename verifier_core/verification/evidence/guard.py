"""Is this text something the verifier can judge? Reasons instead of crashes.

The encoder is English-only, and fetched "text" can be a PDF's raw bytes, an empty
paywall page or a multi-megabyte dump; each gets a source_unavailable verdict with a
reason an editor can read.
"""
from __future__ import annotations

import re

MAX_SOURCE_CHARS = 1_000_000  # ~170k words; beyond this a worker would stall for seconds
MIN_SOURCE_WORDS = 8
MAX_CLAIM_CHARS = 2_000
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[A-Za-z]+")


def as_text(value) -> str | None:
    """Bytes are decoded leniently; anything else that is not a string is no text."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else None


def claim_problem(claim: str | None) -> str | None:
    if not claim or not claim.strip():
        return "empty claim"
    if len(claim) > MAX_CLAIM_CHARS:
        return f"claim too long ({len(claim)} characters; a claim is a sentence or two)"
    if _garbled(claim):
        return "claim is binary or garbled text"
    if not _latin(claim):
        return "claim is not in English"
    return None


def source_problem(text: str | None) -> str | None:
    if text is None or not text.strip():
        return "no source text"
    if len(text) > MAX_SOURCE_CHARS:
        return f"source too large ({len(text) / 1e6:.1f} M characters, limit {MAX_SOURCE_CHARS / 1e6:.1f} M)"
    if _garbled(text):
        return "source is binary or garbled text"
    words = text.split()
    if len(words) < MIN_SOURCE_WORDS:
        return f"too little source text ({len(words)} words)"
    if not _latin(text) or not _english_words(text):
        return "source is not in English"
    return None


def _garbled(text: str) -> bool:
    sample = text[:20_000]
    bad = sum(1 for c in sample if c == "\ufffd" or (ord(c) < 32 and c not in "\n\r\t\f"))
    return bad > 0.05 * len(sample)


def _latin(text: str) -> bool:
    """False when most letters are outside the Latin alphabet (Cyrillic, CJK, ...).

    English pages often carry menus in other scripts, hence the low bar."""
    sample = text[:200_000]
    letters = len(_LETTER.findall(sample))
    return letters == 0 or len(_ASCII_LETTER.findall(sample)) >= 0.25 * letters


def _english_words(text: str) -> bool:
    """False when common function words of other Latin-script languages clearly
    outnumber English ones. Menus and tables have few function words of any kind,
    so the absence of English ones alone proves nothing."""
    words = [w.lower() for w in _WORD.findall(text[:20_000])]
    english = sum(1 for w in words if w in _ENGLISH)
    foreign = sum(1 for w in words if w in _FOREIGN)
    return not (foreign >= 10 and foreign > 2 * english)


_ENGLISH = frozenset("the and of to is was for that with are this from by were has have which it".split())
# Frequent function words of German, French, Spanish, Italian, Portuguese and Dutch
# that are neither English words nor parts of names and URLs ("la", "los", "van", "com").
_FOREIGN = frozenset(
    """der die und das ist nicht mit den von sich auch auf les et est des une du dans
    sur pour pas qui el las por una con del il di che della per sono gli dei um
    uma para het een niet zijn ook""".split()
)
