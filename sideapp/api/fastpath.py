"""The gadget's findings served from Redis without the ORM, sessions or templates.

    GET /api/v1/findings?wiki_id=&page_id=&revision=      (the gadget's request)

`fast_findings`, a middleware just inside SecurityMiddleware, answers that request from the
bytes and headers the findings view last answered for the same page, viewed revision, Origin
and reason rules: a 304 when If-None-Match names its ETag. Anything else, and any page with
nothing kept, goes on to Django as before; the view marks an answer fit to keep
(`response.fast_keep`: no check of the page running, its places known, an ETag given), and
the middleware keeps it on the way out, with every header the stack gave it (CORS, Vary,
Cache-Control, ETag, security headers).

Never a stale answer: each page has a generation, read before the view reads its rows; the
answer is kept only if the generation is still the one read (one Lua script, so a change
between the read and the keep wins). Every change of what a page's findings say (a verdict,
a scan opened or ended, a move: `forget`, sent through sideapp.events.findings_changed)
bumps the generation and drops the page's kept answers, at once and again when the change
commits. A change of the wikis (the origins CORS allows) bumps one epoch for all pages.
"""
from __future__ import annotations

import json
import logging
import time

import redis
from django.conf import settings
from django.http import HttpResponse

from sideapp.api import cache
from verifier_core.verification.judgement.reasons import RULES

log = logging.getLogger(__name__)
PATH = "/api/v1/findings"
KEEP_SECONDS = 600  # a page's kept answers, unasked, go after this (a change drops them at once)
EPOCH = "side:fast:epoch"
SKIPPED = {"Content-Length"}  # recomputed by the server for the bytes sent

_READ = """
local epoch = redis.call('GET', KEYS[2]) or '0'
return redis.call('HGET', KEYS[1], epoch .. '|' .. ARGV[1])
"""
_KEEP = """
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
if (redis.call('GET', KEYS[3]) or '0') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[2] .. '|' .. ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
_FORGET = """
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
"""


def fast_findings(get_response):
    def middleware(request):
        page = _asked(request)
        if page is None:
            return get_response(request)
        field = _field(request, page[2])
        try:
            kept = _fresh(_script(_READ)(keys=[_answers(*page[:2]), EPOCH], args=[field]))
            state = None if kept else _state(*page[:2])
        except redis.RedisError:
            log.warning("findings fast path: Redis did not answer; served by Django")
            return get_response(request)
        if kept:
            return _from_kept(request, *kept)
        response = get_response(request)
        if state is not None and getattr(response, "fast_keep", False) and response.status_code == 200:
            _keep(page, field, state, response)
        return response

    return middleware


def forget(*, wikiid: str, page_id: int | None) -> None:
    """The page's kept findings are no longer true: none is served again."""
    if not wikiid or not page_id:
        return
    try:
        _script(_FORGET)(keys=[_answers(wikiid, page_id), _generation(wikiid, page_id)], args=[KEEP_SECONDS * 2])
    except redis.RedisError:  # the answers expire anyway; the change itself must not fail for it
        log.warning("findings fast path: could not forget %s page %s", wikiid, page_id)


def forget_origins() -> None:
    """The wikis changed (the origins allowed): every kept answer's CORS may be wrong."""
    try:
        cache.connection().incr(EPOCH)
    except redis.RedisError:
        log.warning("findings fast path: could not forget the allowed origins")


def _asked(request) -> tuple[str, int, int] | None:
    """(wiki id, page id, revision) of a gadget's findings request, else None."""
    if request.method != "GET" or request.path != PATH:
        return None
    query = request.GET
    if set(query) != {"wiki_id", "page_id", "revision"} or any(len(query.getlist(k)) != 1 for k in query):
        return None
    wikiid, page_id, revision = query["wiki_id"], query["page_id"], query["revision"]
    if not (page_id.isdigit() and revision.isdigit() and 0 < len(wikiid) <= 100 and wikiid.isprintable()):
        return None
    if not (0 < int(page_id) < 2**63 and 0 < int(revision) < 2**63):
        return None
    return wikiid, int(page_id), int(revision)


def _field(request, revision: int) -> str:
    """What else the answer depends on: the rules that worded it, the revision viewed (its
    `stale`), the Origin (CORS) and the address it was asked at (claim links are absolute)."""
    host = request.META.get("HTTP_HOST", "")
    return f"{RULES}|{revision}|{request.headers.get('Origin', '')}|{request.scheme}://{host}"


def _answers(wikiid: str, page_id: int) -> str:
    return f"side:fast:{wikiid}:{page_id}"


def _generation(wikiid: str, page_id: int) -> str:
    return f"side:fast:gen:{wikiid}:{page_id}"


def _state(wikiid: str, page_id: int) -> tuple[str, str]:
    gen, epoch = cache.connection().mget(_generation(wikiid, page_id), EPOCH)
    return (gen or b"0").decode(), (epoch or b"0").decode()


def _keep(page, field: str, state: tuple[str, str], response) -> None:
    headers = {k: v for k, v in response.items() if k not in SKIPPED}
    # Served for at most the findings' max-age: an offer that expires with time alone (no write
    # reports it; the view's ETag counts it) is seen within that.
    until = time.time() + settings.SIDE_API_FINDINGS_MAX_AGE
    value = json.dumps({"until": until, "headers": headers}).encode() + b"\n" + response.content
    try:
        _script(_KEEP)(keys=[_answers(*page[:2]), _generation(*page[:2]), EPOCH],
                       args=[state[0], state[1], field, value, KEEP_SECONDS])
    except redis.RedisError:
        log.warning("findings fast path: could not keep the answer of %s page %s", *page[:2])


def _fresh(kept: bytes | None) -> tuple[dict, bytes] | None:
    """(headers, body) of a kept answer still to be served, else None."""
    if not kept:
        return None
    head, body = kept.split(b"\n", 1)
    head = json.loads(head)
    return (head["headers"], body) if head["until"] > time.time() else None


def _from_kept(request, headers: dict, body: bytes):
    etag = headers.get("ETag", "")
    if etag and _names(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304)
        for name, value in headers.items():
            if name != "Content-Type":
                response[name] = value
        return response
    response = HttpResponse(body, status=200)
    for name, value in headers.items():
        response[name] = value
    return response


def _names(asked: str, etag: str) -> bool:
    tags = {t.strip().removeprefix("W/") for t in asked.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


_scripts: dict[tuple[str, int], object] = {}


def _script(source: str):
    connection = cache.connection()  # one per Redis URL (tests move it)
    key = (source, id(connection))
    if key not in _scripts:
        _scripts[key] = connection.register_script(source)
    return _scripts[key]
