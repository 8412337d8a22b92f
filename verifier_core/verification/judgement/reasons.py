"""Every verdict in words: why a claim is (not) supported, and which part fails.

Editors act on reasons, not on scores: "the source gives 1996, not 1994" or "no passage
of the source mentions 1931" says what to check; "score 0.21" does not.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from verifier_core.verification.types import Verdict

# When the rules behind reasons (figures, words) last changed. The app stores it with each
# verdict, so that claims judged under older rules are judged again on the next scan.
RULES = "rules 2026-12-03b"
_MAX_QUOTE = 160
_FRONT_PAGES = {"", "/", "/index.html", "/index.htm", "/index.php", "/home", "/default.aspx", "/en", "/en/"}
GENERIC_PAGE = "cites a generic page (the site's front page), not a page about this fact"


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


def listed(items: list[str]) -> str:
    """"A", "A or B", "A, B or C": what no passage mentions, each as the claim writes it; one
    holding a comma in quotes (“March 1, 2017”), so that the list still reads as a list."""
    items = [t for t in (" ".join(str(i).split()).strip(" ,;:") for i in items) if t]
    items = [f"“{t}”" if "," in t or " or " in t else t for t in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}" if items else ""


def verdict_reason(*, verdict: str, claim: str, absent: list[str], mismatch_reasons: list[str],
                   weakest_part: str | None, evidence_sentence: str | None) -> str:
    """One sentence (or two) in words for a judged claim."""
    if mismatch_reasons:
        return "; ".join(dict.fromkeys(mismatch_reasons))
    named = listed([a for a in absent if str(a).strip(" ,;:")][:3])
    weakest_part = " ".join((weakest_part or "").split())
    evidence_sentence = " ".join((evidence_sentence or "").split())
    missing = f"no passage of the source mentions {named}" if named else ""
    if verdict == Verdict.NOT_SUPPORTED:
        return missing or "the source uses the claim's words, but no passage says what the claim says"
    if verdict == Verdict.PARTIALLY_SUPPORTED:
        if not weakest_part and not missing:  # nothing to point at: say what is uncertain, and the closest line
            closest = f"; closest: {_quote(evidence_sentence)}" if evidence_sentence else ""
            return f"the verifier is not sure the source says all of it{closest}"
        part = f"the source supports the claim only in part; weakest part: {_quote(weakest_part)}" if weakest_part else (
            "the source supports the claim only in part")
        return f"{part}; {missing}" if missing else part
    if evidence_sentence:
        return f"the source says it: {_quote(evidence_sentence)}"
    return "the source supports the claim"
