"""Template words for Side editor's vocabulary (verdicts in words, never raw values)."""
from __future__ import annotations

from django import template

from verifier_core.verification import Verdict

register = template.Library()


@register.filter
def verdict_label(value: str) -> str:
    try:
        return Verdict(value).label
    except ValueError:
        return str(value).replace("_", " ")


@register.filter
def claim_reason(claim) -> str:
    """The one-line reason under a claim's verdict in lists."""
    from sideapp.claims.wording import verdict_reason

    if claim.needs_citation:
        return "the claim has no citation"
    return verdict_reason(claim.verdict, claim.verify_reason) if claim.verdict else ""
