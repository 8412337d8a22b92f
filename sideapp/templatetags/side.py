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
