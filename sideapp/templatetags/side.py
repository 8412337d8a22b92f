"""Template words for Side editor's vocabulary (verdicts in words, never raw values)."""
from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.html import format_html

from verifier_core.verification import Verdict

register = template.Library()


@register.filter
def verdict_label(value: str) -> str:
    return Verdict.words(value)


@register.filter
def claim_reason(claim) -> str:
    """The one-line reason under a claim's verdict in lists."""
    from sideapp.claims.wording import verdict_reason

    if not claim.checkable:
        return "its words alone make no statement a source could support"
    if claim.needs_citation:
        return "the claim has no citation"
    return verdict_reason(claim.verdict, claim.verify_reason, claim.reasons) if claim.verdict else ""


@register.simple_tag
def verdict_badge(verdict: str, score: float | None = None, empty: str = "") -> str:
    """A verdict in words with its strength bar (the score only in the tooltip). A tag,
    not an included template: lists render one per row and an include costs ten times more."""
    if not verdict:
        return format_html('<span class="status">{}</span>', empty or "not checked yet")
    badge = format_html('<span class="status {}">{}</span>', verdict, verdict_label(verdict))
    if score is None:
        return badge
    shown = f"{score:.2f}"
    return format_html('{} <meter class="strength" min="0" max="1" value="{}" '
                       'title="strength of support: verifier score {} of 1">{}</meter>',
                       badge, f"{score:.3f}", shown, shown)


@register.filter
def sentence(text: str) -> str:
    """`text` as a sentence: a capital first, a full stop last (reasons are written as
    clauses so that they can also follow a colon)."""
    text = str(text or "").strip()
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?…" else ".")


@register.filter
def ago(moment) -> str:
    """"just now" under a minute, else "5 minutes ago" (timesince alone says "0 minutes")."""
    if moment is None:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"
