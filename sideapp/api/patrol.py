"""GET /api/v1/patrol?wiki_id=<wgDBname>[&since=<ISO time>][&all=1]: the patrol feed's rows
as JSON (sideapp.patrol): citations added on a patrolled wiki, newest first, with their
verdict in words. Flagged rows only unless all=1; no user, so no one's marks apply."""
from __future__ import annotations

from django.utils.dateparse import parse_datetime

from sideapp.api import selectors
from sideapp.api.http import ApiError, json_answer, public_api
from sideapp.patrol.selectors import PatrolFilters, patrol_rows, row_words

LIMIT = 200


@public_api(methods=("GET",))
def patrol(request):
    wiki_id = request.GET.get("wiki_id", "")
    wiki = selectors.known_wiki(wiki_id, request.headers.get("Origin", "")) if wiki_id else None
    if wiki is None:
        raise ApiError(404 if wiki_id else 400, f"Side editor does not check the wiki {wiki_id[:60]!r}."
                       if wiki_id else "Name the wiki: wiki_id.", code="unknown_wiki" if wiki_id else "bad_parameter")
    since = _since(request.GET.get("since", ""))
    filters = PatrolFilters(show="all" if request.GET.get("all") == "1" else "flagged", wiki=wiki.pk, since=since)
    rows = patrol_rows(filters=filters, limit=LIMIT)
    return json_answer({"wiki_id": wiki.wikiid, "patrolled": wiki.patrol, "rows": [row_words(r) for r in rows]})


def _since(value: str):
    if not value:
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:  # well formed but no such time (month 13)
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ApiError(400, f"since must be an ISO 8601 time with its zone (2026-01-31T12:00:00Z), "
                       f"not {value[:40]!r}.", code="bad_parameter")
    return moment
