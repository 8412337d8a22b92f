"""The public API's endpoints (JSON, no login; CORS for configured wikis: sideapp.api.http).

    GET  /api/v1/findings?wiki_id=&page_id=|title=[&revision=]  a page's findings
    POST /v1/models/editing-suggestions:predict                MediaWiki Edit Check's contract
    GET  /api/v1/claims/<id>/proposal?action=[&suggestion=]    a change as data, no side effect
    POST /api/v1/scan                                           ask for a check of a page
    GET  /api/v1/scans/<id>                                     that check's progress per stage
"""
from __future__ import annotations

from django.conf import settings
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.urls import reverse

from sideapp.api import cache, selectors
from sideapp.api.findings import edit_check_cards, page_findings
from sideapp.api.http import (
    BIGINT, ApiError, client_address, json_answer, json_body, not_modified, public_api, text_field, whole_number,
)
from sideapp.api.pages import page_to_scan
from sideapp.api.proposals import ACTIONS, claim_proposal
from sideapp.api.services import page_scan_ask
from sideapp.api.targets import article_targets
from sideapp.claims.models import Claim, Suggestion
from sideapp.edits.selectors import claim_for_edit
from sideapp.pipeline.stages import scan_progress
from sideapp.scans.models import Article, ScanJob
from sideapp.scans.pages import article_rename
from sideapp.scans.wikiapi import PageMissing, WikiError
from sideapp.scans.wikipages import latest_of_page, revision_sha1, title_info
from verifier_core.wikitext import redirect_target
from sideapp.scans.wikis import client_for
from verifier_core.verification.judgement.reasons import RULES

LATEST_SECONDS = 60  # how long the wiki's latest revision of a page is trusted
KEEP_FINDINGS = 600  # seconds a page's answer is kept (a new scan of it makes a new key anyway)


@public_api(methods=("GET",))
def findings(request):
    wiki_id = request.GET.get("wiki_id", "")
    page_id = _number(request.GET.get("page_id"), "page_id")
    article = _article(request, wiki_id, page_id, _title(request.GET.get("title", ""), required=False))
    viewed = _number(request.GET.get("revision"), "revision")
    last = selectors.page_latest_scan(article)
    scan = last if last is not None and last.is_open else None
    stale = _stale(article, viewed)
    offers, turn = selectors.offers_now(article)
    version = findings_version(article, last, offers)
    key = f"side:api:findings:{version}"  # kept while no check of the page runs
    moved = int(article.titled_at.timestamp()) if article.titled_at else 0  # a move renames a kept answer
    etag = None if scan else f'"{version}-t{moved}-{_word(stale)}"'
    if etag and not_modified(request, etag):
        return _not_modified(etag)
    answer = None if scan else cache.cached_json(key)
    if answer is None:
        targets = article_targets(article)  # None: the wiki did not render it; asked again next time
        answer = page_findings(article=article, claims=selectors.finding_claims(article), targets=targets or {},
                               claim_url=lambda pk: _url(request, "claim_detail", pk))
        if targets is None:
            etag = None  # an answer without places: not one to revalidate
        elif scan is None:
            cache.keep_json(key, answer, seconds=KEEP_FINDINGS)
    answer |= {"title": article.title,  # the page's present title: it may have moved since the answer was kept
               "stale": stale, "scan": _url(request, "api_scan_status", scan.pk) if scan else None}
    response = json_answer(answer, max_age=None if scan else settings.SIDE_API_FINDINGS_MAX_AGE)
    if etag:
        response["ETag"] = etag
        response.fast_keep = True  # no check running, places known: the fast path may serve it
        response.fast_until = turn.timestamp() if turn else None  # an offer expiring with time alone
    return response


def findings_version(article: Article, last: ScanJob | None, offers: str) -> str:
    """What a page's findings are a function of: its scanned revision, its latest check, its
    findings version (bumped by every re-judgement of any of its claims, an editor's
    judgement and a suggestion found or dropped: sideapp.claims.changes), the verdict rules
    and what its suggestions may offer now (`offers`: selectors.offers_now). A verdict changed without a scan changes it, so
    a revalidation never gets a 304 for it and no kept answer outlives it."""
    return (f"r{article.current_revision_id}-s{last.pk if last else 0}-v{article.findings_version}"
            f"-o{offers}-{RULES_TAG}")


RULES_TAG = "".join(ch for ch in RULES if ch.isalnum())  # "rules20261204": a rules change is a new answer


@public_api(methods=("POST",))
def edit_check_predict(request):
    data = json_body(request)  # malformed JSON: a 400 in words; too large: 413
    wiki_id, page_id = data.get("wiki_id"), data.get("page_id")
    try:
        wiki_id = text_field(wiki_id, "wiki_id", max_bytes=100)
        page_id = whole_number(page_id, "page_id") if not isinstance(page_id, str) else None
    except ApiError:
        page_id = None
    if page_id is None:
        return json_answer([])  # Edit Check's contract: nothing to say, never an error page
    wiki = selectors.known_wiki(wiki_id, request.headers.get("Origin", ""))
    article = selectors.page_article(wiki=wiki, page_id=page_id) if wiki is not None else None
    if article is None or article.current_revision is None or article.deleted_at is not None:
        return json_answer([])
    targets = article_targets(article)
    if not targets:
        return json_answer([])
    return json_answer(edit_check_cards(selectors.failing_citations(article), targets))


@public_api(methods=("GET",))
def claim_proposal_view(request, pk: int):
    action = request.GET.get("action", "")
    if action not in ACTIONS:
        raise ApiError(400, f"action must be one of {', '.join(ACTIONS)}.", code="bad_action")
    try:
        claim = claim_for_edit(_id(pk))
    except Claim.DoesNotExist as exc:
        raise ApiError(404, f"Side editor has no claim {pk}.", code="unknown_claim") from exc
    claim = _with_suggestions(claim)
    suggestion = _suggestion(claim, _number(request.GET.get("suggestion"), "suggestion"))
    return json_answer(claim_proposal(claim=claim, action=action, suggestion=suggestion))


@public_api(methods=("POST",))
def scan_ask(request):
    # Only accepted requests count: a few malformed calls from one address (many readers
    # behind one proxy) must not lock the gadget's "Check this revision" out for all of them.
    # A client already at the limit is refused before its request is read; an accepted one is
    # counted before its scan is made, so requests racing past the first look stop there.
    rate_key = f"side:api:scan-rate:{client_address(request)}"
    _over_limit(*cache.window_hits(rate_key), at=settings.SIDE_API_SCAN_LIMIT)
    data = json_body(request)
    wiki = _wiki(request, text_field(data.get("wiki_id", ""), "wiki_id", max_bytes=100))
    title, page_id = page_to_scan(wiki, data)
    _over_limit(*cache.window_count(rate_key, window=settings.SIDE_API_SCAN_WINDOW),
                at=settings.SIDE_API_SCAN_LIMIT + 1)
    job, created = page_scan_ask(wiki=wiki, title=title, page_id=page_id)
    url = _url(request, "api_scan_status", job.pk)
    response = json_answer({"job": job.pk, "url": url, "title": title, "status": job.status, "joined": not created},
                           status=202)
    response["Location"] = url
    return response


@public_api(methods=("GET",))
def scan_status(request, pk: int):
    try:
        job = selectors.api_scan(_id(pk))
    except ScanJob.DoesNotExist as exc:
        raise ApiError(404, f"Side editor has no check {pk}.", code="unknown_scan") from exc
    item = job.items.select_related("revision").first()
    return json_answer({
        "id": job.pk, "status": job.status, "reason": job.reason, "finished": not job.is_open,
        "title": item.title if item else None,
        "revision": item.revision.rev_id if item and item.revision else None,
        "stages": scan_progress(job=job),
    })


# --- helpers ------------------------------------------------------------------------

def _over_limit(hits: int, left: int, *, at: int) -> None:
    if hits >= at:
        raise ApiError(429, f"Too many check requests from this address; try again in {left} seconds.",
                       code="rate_limited", headers={"Retry-After": str(left)})


def _id(pk: int) -> int:
    """A path's id; past PostgreSQL's ids (an int the address takes but no row can have), 0."""
    return pk if 0 < pk <= BIGINT else 0


def _number(value: str | None, name: str) -> int | None:
    return None if value in (None, "") else whole_number(value, name)


def _title(value, *, required: bool = True) -> str:
    """A page title as given: a string of at most 255 bytes (MediaWiki's limit) without
    control characters; ApiError 400 in words otherwise."""
    if value is None or (isinstance(value, str) and not value.strip() and not required):
        return ""
    title = text_field(value, "title", max_bytes=255)
    if required and not title.strip():
        raise ApiError(400, "title is empty.", code="bad_parameter")
    return title


def _word(value: bool | None) -> str:
    return {True: "stale", False: "current", None: "unknown"}[value]


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponse(status=304)
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={settings.SIDE_API_FINDINGS_MAX_AGE}"
    return response


def _wiki(request, wiki_id: str):
    """The wiki known as `wiki_id`; of wikis named alike, the one the request comes from (its
    Origin): ApiError in words when Side editor does not check it, or cannot tell which."""
    wiki = selectors.known_wiki(wiki_id, request.headers.get("Origin", ""))
    if wiki is None and selectors.namesakes(wiki_id) > 1:
        raise ApiError(409, f"Side editor checks several wikis that call themselves {wiki_id[:60]!r} (named "
                            "alike, holding other pages); ask from the wiki's own pages, whose Origin says which.",
                       code="ambiguous_wiki")
    if wiki is None:
        raise ApiError(404, f"Side editor does not check the wiki {wiki_id[:60]!r}.", code="unknown_wiki")
    return wiki


def _article(request, wiki_id: str, page_id: int | None, title: str) -> Article:
    if not wiki_id or (page_id is None and not title.strip()):
        raise ApiError(400, "Name the page: wiki_id and page_id (or title).", code="bad_parameter")
    wiki = _wiki(request, wiki_id)
    article = selectors.page_article(wiki=wiki, page_id=page_id, title=title)
    if page_id is None and (_is_redirect(article) if article else selectors.title_held_before(wiki, title)):
        article = _through_redirect(wiki, title) or article
    if article is not None and article.deleted_at is not None:
        raise ApiError(404, "This page was deleted on the wiki.", code="deleted")
    if article is None or article.current_revision is None:
        raise ApiError(404, "Side editor has not checked this page yet.", code="not_scanned")
    return article


def _is_redirect(article: Article) -> bool:
    revision = article.current_revision
    return revision is not None and redirect_target(revision.wikitext) is not None


def _through_redirect(wiki: Wiki, title: str) -> Article | None:
    """The scanned article a title leads to on the wiki when it is no page Side editor
    checked itself: a moved page's old title, left as a redirect for its readers (asked at
    most once a minute per title, and only for a title a scanned page once had or a page
    scanned as a redirect: an unknown title costs the wiki nothing)."""
    key = f"side:api:title:{wiki.pk}:{selectors.title_form(title)}"
    page_id = cache.cached_json(key)
    if page_id is None:
        try:
            info = title_info(client_for(wiki, interactive=True), title, follow=True)
        except WikiError:
            return None  # the wiki did not answer: the title stays unknown
        page_id = info.page_id if info.namespace == 0 else 0
        cache.keep_json(key, page_id, seconds=LATEST_SECONDS)
    return selectors.page_article(wiki=wiki, page_id=page_id) if page_id else None


def _stale(article: Article, viewed: int | None) -> bool | None:
    """Whether the wiki has a newer revision than the scanned one: the viewed revision when
    the page says which it is, else the wiki's latest of the page id (asked at most once a
    minute; a page found under a new title is renamed: it moved). A newer revision of the
    same text (the null revision a move or a protection writes) is no change: not stale."""
    scanned = article.current_revision.rev_id
    if viewed is not None:
        return viewed > scanned and not _same_text(article, viewed)
    key = f"side:api:latest:{article.pk}"
    latest = cache.cached_json(key)
    if latest is None:
        try:
            client = client_for(article.wiki, interactive=True)
            if article.page_id:
                latest, title = latest_of_page(client, article.page_id)
                if title != article.title:
                    article_rename(article=article, title=title, reason=f"the wiki names page {article.page_id} "
                                                                        f"{title} now")
            else:
                latest = client.latest_revision(article.title)[0]
        except PageMissing as exc:
            raise ApiError(404, "This page no longer exists on the wiki.", code="deleted") from exc
        except WikiError:
            return None  # unknown: the wiki did not answer
        cache.keep_json(key, latest, seconds=LATEST_SECONDS)
    return latest > scanned and not _same_text(article, latest)


def _same_text(article: Article, rev_id: int) -> bool:
    """Whether revision `rev_id` holds the scanned revision's text, by the wiki's hash of it
    (asked once a minute per revision; unknown counts as changed)."""
    scanned = article.current_revision.sha1
    if not scanned:
        return False
    key = f"side:api:sha1:{article.wiki_id}:{rev_id}"
    sha1 = cache.cached_json(key)
    if sha1 is None:
        try:
            sha1 = revision_sha1(client_for(article.wiki, interactive=True), rev_id)
        except WikiError:
            return False
        cache.keep_json(key, sha1, seconds=LATEST_SECONDS)
    return sha1 == scanned


def _with_suggestions(claim: Claim) -> Claim:
    prefetch_related_objects([claim], "suggestions", "claim_citations__citation__source")
    return claim


def _suggestion(claim, pk: int | None) -> Suggestion | None:
    if pk is None:
        return None
    found = next((s for s in claim.suggestions.all() if s.pk == pk), None)
    if found is None:
        raise ApiError(404, f"Claim {claim.pk} has no suggestion {pk}.", code="unknown_suggestion")
    return found


def _url(request, name: str, pk: int) -> str:
    path = reverse(name, args=[pk])
    base = settings.SIDE_PUBLIC_URL.rstrip("/")
    return base + path if base else request.build_absolute_uri(path)
