"""A stored verdict's reasons: data (`Claim.reasons`, `ClaimCitation.reasons`, each a
verifier_core `Reason` as JSON) read as data, and put in words only where they are shown.

Nothing here reads words back: the correct-the-figure offer takes its figures from a figure
reason's own fields, a contradicting citation is one with a figure reason, a hint is one with a
figure hint.
"""
from __future__ import annotations

from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.judgement.reasons import words

# Reasons whose words begin with the page they speak of ("the source says it: ..."): with
# several citations, the one speaking for the claim is named there instead.
SPEAKING = (ReasonKind.QUOTE, ReasonKind.SUPPORTED, ReasonKind.PARTIAL, ReasonKind.NO_STATEMENT, ReasonKind.FIGURE)


def as_json(reasons) -> list[dict]:
    return [r.to_json() if isinstance(r, Reason) else dict(r) for r in reasons or ()]


def note(text: str, kind: str = ReasonKind.NOTE) -> list[dict]:
    """Words the app gives as they are (why a source could not be read), as a reason."""
    return [Reason(kind, text=text).to_json()] if text else []


def reason_words(reasons, text: str = "") -> str:
    """The reason in words: rendered from its data; a row judged before reasons were kept as
    data shows the words it stored."""
    return words(reasons) if reasons else text


def of_kind(reasons, kind: str) -> list[Reason]:
    return [r for r in (Reason.from_json(r) if isinstance(r, dict) else r for r in reasons or ()) if r.kind == kind]


def figures(reasons) -> tuple[str, str] | None:
    """(the claim's figure, the page's) of the first figure the page contradicts, or None."""
    found = of_kind(reasons, ReasonKind.FIGURE)
    return (found[0].claimed, found[0].given) if found and found[0].claimed and found[0].given else None


def contradicts(reasons) -> bool:
    return bool(of_kind(reasons, ReasonKind.FIGURE))


def hinted(reasons) -> bool:
    """The page gives another figure that may be of another thing: an editor should look."""
    return bool(of_kind(reasons, ReasonKind.FIGURE_HINT))


def spoken_by(reasons: list[dict], name: str) -> list[dict]:
    """The reasons with their first statement naming the page `name` instead of "the source"."""
    if not reasons or not name or reasons[0].get("kind") not in SPEAKING:
        return reasons
    return [{**reasons[0], "source": name}, *reasons[1:]]
