from __future__ import annotations

from django.shortcuts import render


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def render_page(request, full: str, partial: str, context: dict):
    """The whole page, or only its fragment when htmx asks."""
    return render(request, partial if is_htmx(request) else full, context)
