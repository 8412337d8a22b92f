"""What every view uses: whole page or htmx fragment, and 404 for a missing row."""
from __future__ import annotations

from typing import Callable, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

T = TypeVar("T")


def is_htmx(request) -> bool:
    """An htmx request for a fragment (a history restore wants the whole page)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render_page(request, full: str, partial: str, context: dict):
    """The whole page, or only its fragment when htmx asks. `Vary` keeps the browser from
    showing a cached fragment as the page when the user goes Back."""
    response = render(request, partial if is_htmx(request) else full, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def found_or_404(read: Callable[[int], T], pk: int) -> T:
    """The row a selector reads by primary key, or a 404 page when there is none."""
    try:
        return read(pk)
    except ObjectDoesNotExist as exc:
        raise Http404("no such page") from exc
