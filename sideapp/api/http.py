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
SIDE_API_EXTRA_ORIGINS): echoed, never `*`, never with credentials. Every bad input is
a 4xx in words: a query parameter with a control character (400, naming it), a body past
SIDE_API_MAX_BODY (413, never parsed), a body that is not a JSON object (400).
"""
from __future__ import annotations

import ipaddress
import json
import logging
import re
from functools import wraps

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
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


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
BIGINT = 2**63 - 1  # the largest id PostgreSQL holds


def json_body(request) -> dict:
    """The request's JSON object; ApiError 413 past SIDE_API_MAX_BODY (judged by its
    Content-Length before anything is kept, the body drained unparsed, then by what is
    read), 400 in words when it is not a JSON object."""
    limit = settings.SIDE_API_MAX_BODY
    too_big = ApiError(413, f"The request body is larger than {limit} bytes.", code="too_large")
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > limit:
            _drain(request)
            raise too_big
        raw = request.read(limit + 1)
    except RequestDataTooBig as exc:
        raise too_big from exc
    except ValueError as exc:
        raise ApiError(400, "The Content-Length header is not a number.", code="bad_request") from exc
    if len(raw) > limit:
        raise too_big
    try:
        data = json.loads(raw.decode("utf-8") or "null")
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ApiError(400, f"The request body is not valid JSON ({str(exc)[:200]}).", code="bad_json") from exc
    if not isinstance(data, dict):
        raise ApiError(400, "The request body must be a JSON object.", code="bad_json")
    return data


DRAIN_CAP = 64 * 1024 * 1024  # beyond this a proxy's own limit should answer first


def _drain(request) -> None:
    """Read and drop an oversized body before answering 413: a proxy in front (nginx) still
    sending it would otherwise see the connection close and answer 502 in HTML instead."""
    read = 0
    while read < DRAIN_CAP:
        chunk = request.read(64 * 1024)
        if not chunk:
            return
        read += len(chunk)


def whole_number(value, name: str, *, code: str = "bad_parameter") -> int:
    """`value` as an id: a JSON integer or a string of digits, 1 to 2^63-1; ApiError 400
    naming the field otherwise."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= BIGINT:
        shown = str(value)[:40] if isinstance(value, (str, int, float)) else type(value).__name__
        raise ApiError(400, f"{name} must be a whole number above 0, not {shown!r}.", code=code)
    return value


def text_field(value, name: str, *, max_bytes: int) -> str:
    """`value` as a string of at most `max_bytes` bytes without control characters;
    ApiError 400 naming the field otherwise."""
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string, not {type(value).__name__}.", code="bad_parameter")
    if CONTROL.search(value):
        raise ApiError(400, f"{name} holds a control character.", code="bad_parameter")
    if len(value.encode("utf-8")) > max_bytes:
        raise ApiError(400, f"{name} is longer than {max_bytes} bytes.", code="bad_parameter")
    return value


def client_address(request) -> str:
    """The client's address for per-client limits: REMOTE_ADDR, unless it is one of
    SIDE_TRUSTED_PROXIES; then the right-most X-Forwarded-For address that is not a trusted
    proxy (each proxy appends the address it saw, so only a trusted one can say who the
    client is; what a client writes there itself is further left and never read)."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not _trusted(remote):
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop if _address(hop) else remote
    return hops[0] if hops and _address(hops[0]) else remote


def _address(value: str):
    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def _trusted(value: str) -> bool:
    address = _address(value)
    return address is not None and any(address in network for network in _trusted_networks())


_networks: dict[tuple, list] = {}


def _trusted_networks() -> list:
    key = tuple(settings.SIDE_TRUSTED_PROXIES)
    if key not in _networks:
        _networks[key] = [ipaddress.ip_network(n, strict=False) for n in key]
    return _networks[key]


def not_modified(request, etag: str) -> bool:
    """Whether the client's If-None-Match names `etag` (or is `*`)."""
    asked = request.headers.get("If-None-Match", "")
    tags = {t.strip().removeprefix("W/") for t in asked.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


def wiki_origins() -> set[str]:
    """Origins (scheme://host[:port]) of the wikis Side editor knows by their identity."""
    from sideapp.api.selectors import server_origins

    origins = set(settings.SIDE_API_EXTRA_ORIGINS)
    for server in Wiki.objects.exclude(wikiid="").exclude(server="").values_list("server", flat=True):
        origins |= server_origins(server)
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
            elif (bad := _bad_parameter(request)) is not None:
                response = json_error(400, f"The parameter {bad[:60]!r} holds a control character.",
                                      code="bad_parameter")
            else:
                response = _answer(view, _without_cookies(request), args, kwargs)
            _cors(response, allowed, methods)
            return response

        return wrapper

    return decorator


def _bad_parameter(request) -> str | None:
    """The first query parameter whose name or value holds a control character (no endpoint
    takes one, and PostgreSQL refuses NUL in text)."""
    for name, values in request.GET.lists():
        if CONTROL.search(name) or any(CONTROL.search(v) for v in values):
            return CONTROL.sub("?", name)
    return None


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
