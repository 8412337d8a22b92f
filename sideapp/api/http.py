"""What every public JSON endpoint shares: CORS for configured wikis only, no cookies, no
CSRF (there is no session to ride on), errors as JSON sentences.

An endpoint opts in with one decorator::

    @public_api(methods=("GET",))
    def findings(request): ...
        raise ApiError(404, "Side editor has not checked this page yet.", code="not_scanned")
        return json_answer({...})

The decorator answers the preflight (OPTIONS) itself, turns ApiError (and anything
unexpected) into `{"error": sentence, "code": ...}`, and adds `Access-Control-Allow-Origin`
only for the origin of a wiki Side editor knows by its identity (Wiki.server, plus
SIDE_API_EXTRA_ORIGINS): echoed, never `*`, never with credentials.
"""
from __future__ import annotations

import json
import logging
from functools import wraps
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt

from sideapp.scans.models import Wiki

log = logging.getLogger(__name__)
PREFLIGHT_MAX_AGE = 86400  # seconds a browser may keep a preflight's answer


class ApiError(Exception):
    """A request the API answers with an error: `status`, a sentence, a stable `code`."""

    def __init__(self, status: int, message: str, *, code: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.headers = status, code, headers or {}


def json_answer(data, *, status: int = 200, max_age: int | None = None) -> JsonResponse:
    """A JSON answer (an object or a list); `max_age` lets browsers and proxies keep it."""
    response = JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = f"public, max-age={max_age}" if max_age else "no-store"
    return response


def json_error(status: int, message: str, *, code: str, headers: dict | None = None) -> JsonResponse:
    response = json_answer({"error": message, "code": code}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def json_body(request) -> dict:
    """The request's JSON object; ApiError 400 in words when it is not one."""
    try:
        data = json.loads(request.body.decode("utf-8") or "null")
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, f"The request body is not valid JSON ({exc}).", code="bad_json") from exc
    if not isinstance(data, dict):
        raise ApiError(400, "The request body must be a JSON object.", code="bad_json")
    return data


def wiki_origins() -> set[str]:
    """Origins (scheme://host[:port]) of the wikis Side editor knows by their identity."""
    origins = set(settings.SIDE_API_EXTRA_ORIGINS)
    for server in Wiki.objects.exclude(wikiid="").exclude(server="").values_list("server", flat=True):
        if server.startswith("//"):  # protocol-relative ($wgServer "//en.wikipedia.org")
            origins |= {f"https:{server}", f"http:{server}"}
        else:
            parts = urlsplit(server)
            origins.add(f"{parts.scheme}://{parts.netloc}")
    return origins


def public_api(*, methods: tuple[str, ...]):
    """Make a view a public JSON endpoint answering `methods` (see the module docstring)."""

    def decorator(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            origin = request.headers.get("Origin", "")
            allowed = origin if origin and origin in wiki_origins() else ""
            if request.method == "OPTIONS":
                response = HttpResponse(status=204)
            elif request.method not in methods:
                response = json_error(405, f"This address answers {' and '.join(methods)} only.",
                                      code="method_not_allowed", headers={"Allow": ", ".join(methods)})
            else:
                response = _answer(view, _without_cookies(request), args, kwargs)
            _cors(response, allowed, methods)
            return response

        return wrapper

    return decorator


def _answer(view, request, args, kwargs) -> HttpResponse:
    try:
        return view(request, *args, **kwargs)
    except ApiError as exc:
        return json_error(exc.status, str(exc), code=exc.code, headers=exc.headers)
    except Exception:  # noqa: BLE001 - a script on a wiki page gets a sentence, never a trace
        log.exception("public API request %s failed", request.path)
        return json_error(500, "Side editor failed to answer this request; the error is logged.",
                          code="internal_error")


def _without_cookies(request):
    """The API needs no session and takes none: a cookie sent anyway is dropped before the
    view runs, so nothing an endpoint answers depends on who the browser is logged in as."""
    request.COOKIES = {}
    request.META.pop("HTTP_COOKIE", None)
    return request


def _cors(response: HttpResponse, origin: str, methods: tuple[str, ...]) -> None:
    patch_vary_headers(response, ["Origin"])
    if not origin:
        return
    response["Access-Control-Allow-Origin"] = origin
    response["Access-Control-Allow-Methods"] = ", ".join((*methods, "OPTIONS"))
    response["Access-Control-Allow-Headers"] = "Content-Type"
    response["Access-Control-Expose-Headers"] = "Location, Retry-After"
    response["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
