"""Every verdict's reason, as data, and its words.

Editors act on reasons, not on scores: "the source gives 1996, not 1994" or "no passage
of the source mentions 1931" says what to check; "score 0.21" does not. A reason is a list
of `Reason` values (types.py: the kind, the part, the terms or figures, the page sentence it
rests on); `verdict_reasons` builds them from what the judgement found (each statement already
checked against the page, checks.py), and `words` renders them, only for display. Nothing
reads the words back.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from verifier_core.verification.language.forms import bare
from verifier_core.verification.language.quantities import figure_words
from verifier_core.verification.types import Reason, ReasonKind, Verdict

# When the rules behind reasons (figures, words) last changed. The app stores it with each
# verdict, so that claims judged under older rules are judged again on the next scan.
RULES = "rules 2026-12-04"
_MAX_QUOTE = 160
MAX_NAMED = 3
_FRONT_PAGES = {"", "/", "/index.html", "/index.htm", "/index.php", "/home", "/default.aspx", "/en", "/en/"}
GENERIC_PAGE = "cites a generic page (the site's front page), not a page about this fact"
OFF_TOPIC = "the source does not discuss the claim: it holds few of the claim's words"
FALLBACK = "no trained verifier checkpoint: scored by bi-encoder similarity, the fallback"
_SOURCE = "the source"  # how a reason speaks of the page it judged, unless it names it
_FIXED = {
    ReasonKind.GENERIC_PAGE: GENERIC_PAGE,
    ReasonKind.OFF_TOPIC: OFF_TOPIC,
    ReasonKind.NO_STATEMENT: "{who} uses the claim's words, but no passage says what the claim says",
    ReasonKind.SUPPORTED: "{who} supports the claim",
}


def is_generic_page(url: str | None) -> bool:
    """A site's front page cited for a specific fact: SIDE found the cited URL's depth a
    strong sign of failed verification. A query string (?id=...) names a specific page."""
    if not url:
        return False
    parts = urlsplit(url.strip())
    if not parts.netloc:
        return False
    return parts.path.lower() in _FRONT_PAGES and not parts.query


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return f"“{text[:_MAX_QUOTE]}…”" if len(text) > _MAX_QUOTE else f"“{text}”"


def listed(items) -> str:
    """"A", "A or B", "A, B or C": what no passage mentions, each as the claim writes it (no
    stray quote marks); one holding a comma in quotes (“March 1, 2017”), so that the list
    still reads as a list."""
    items = [t for t in (bare(i) for i in items) if t]
    items = [f"“{t}”" if "," in t or " or " in t else t for t in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}" if items else ""


def said(reason: Reason) -> str:
    """One reason in words."""
    who = f"“{reason.source}”" if reason.source else _SOURCE
    kind = reason.kind
    if kind in _FIXED:
        return _FIXED[kind].format(who=who)
    if kind == ReasonKind.FIGURE:
        return figure_words(reason.thing, reason.given, reason.claimed, who)
    if kind == ReasonKind.FIGURE_HINT:
        return (f"the page gives {reason.given} where the claim says {reason.claimed}: "
                "check they are the same figure")
    if kind == ReasonKind.ABSENT:
        named = listed(reason.terms)
        return f"no passage of {who} mentions {named}" if named else ""
    if kind == ReasonKind.PARTIAL:
        part = " ".join(reason.part.split())
        return f"{who} supports the claim only in part" + (f"; weakest part: {_quote(part)}" if part else "")
    if kind == ReasonKind.UNSURE:
        closest = f"; closest: {_quote(reason.sentence)}" if reason.sentence.strip() else ""
        return f"the verifier is not sure {who} says all of it{closest}"
    if kind == ReasonKind.QUOTE:
        return f"{who} says it: {_quote(reason.sentence)}"
    return " ".join(reason.text.split())  # NOTE, COPY, FALLBACK


def words(reasons) -> str:
    """A verdict's reasons in words, joined by "; "; the fallback's note in brackets at the end."""
    reasons = [r if isinstance(r, Reason) else Reason.from_json(r) for r in reasons or ()]
    text = "; ".join(dict.fromkeys(s for s in (said(r) for r in reasons if r.kind != ReasonKind.FALLBACK) if s))
    if any(r.kind == ReasonKind.FALLBACK for r in reasons):
        text = f"{text} ({FALLBACK})" if text else FALLBACK
    return text


def verdict_reasons(*, verdict: str, absent: list[str], figures: list[Reason], weakest_part: str | None,
                    evidence_sentence: str | None) -> list[Reason]:
    """The reasons of a judged claim, from statements already checked against the page: the
    figures the page gives otherwise (contradictions and hints), what no passage mentions,
    the weakest part, the line that says it."""
    named = tuple(t for t in (bare(a) for a in absent) if t)[:MAX_NAMED]
    missing = [Reason(ReasonKind.ABSENT, terms=named)] if named else []
    contradicted = [r for r in figures if r.kind == ReasonKind.FIGURE]
    if contradicted:
        return contradicted
    hints = [r for r in figures if r.kind == ReasonKind.FIGURE_HINT]
    part = " ".join((weakest_part or "").split())
    sentence = " ".join((evidence_sentence or "").split())
    if verdict == Verdict.NOT_SUPPORTED:
        return hints + (missing or [Reason(ReasonKind.NO_STATEMENT)])
    if verdict == Verdict.PARTIALLY_SUPPORTED:
        if not part and not missing and not hints:  # nothing to point at: what is uncertain, and the closest line
            return [Reason(ReasonKind.UNSURE, sentence=sentence)]
        return [Reason(ReasonKind.PARTIAL, part=part), *hints, *missing]
    if sentence:
        return [Reason(ReasonKind.QUOTE, sentence=sentence), *hints]
    return [Reason(ReasonKind.SUPPORTED), *hints]


def verdict_reason(**found) -> str:
    """`verdict_reasons` in words (tests and scripts that want the sentence)."""
    return words(verdict_reasons(**found))
