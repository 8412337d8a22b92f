from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from sideapp.claims import selectors as browse
from sideapp.claims.forms import ClaimFilterForm, DismissForm
from sideapp.claims.models import ClaimReview
from sideapp.claims.reviews import ReviewRefused, claim_review_clear, claim_review_save
from sideapp.claims.search import has_words
from sideapp.claims.wording import claim_page
from sideapp.scans.selectors import several_wikis
from sideapp.sources.lists import BUCKETS
from sideapp.web.roles import EDITOR, role_required
from sideapp.web.paging import capped_page, ranked_page
from sideapp.web.errors import mark_fragment
from sideapp.web.shortcuts import found_or_404, is_htmx, render_page


@role_required(EDITOR)
def claim_list(request):
    form = ClaimFilterForm(request.GET)
    filters = form.filters()
    claims = browse.claim_list(filters=filters, user=request.user)
    if filters.q:  # ranked: ids and count in one query
        page = ranked_page(claims, browse.PAGE_SIZE, request.GET.get("page"))
        pks = list(page.object_list)
    else:
        page = capped_page(claims, browse.PAGE_SIZE, request.GET.get("page"))
        pks = list(page.object_list.values_list("pk", flat=True))
    page.object_list = browse.claim_rows(pks=pks, user=request.user)
    query = request.GET.copy()
    query.pop("page", None)
    elsewhere, no_words = None, False
    if filters.q and not page.paginator.count:
        no_words = not has_words(filters.q)
    if filters.q and not page.paginator.count and filters.show != "all" and not no_words:
        # Searching inside the flagged list finds nothing: say where the words do occur.
        elsewhere = browse.claim_list(filters=replace(filters, show="all"), user=request.user).count()
        query["show"] = "all"
    context = {"page": page, "form": form, "filters": filters, "shows": browse.SHOWS, "sorts": browse.SORTS, "dead_parts": BUCKETS,
               "query": query.urlencode(), "elsewhere": elsewhere, "no_words": no_words,
               "several_wikis": several_wikis()}
    return render_page(request, "claims/list.html", "partials/claim_rows.html", context)


@role_required(EDITOR)
def claim_detail(request, pk: int):
    claim = found_or_404(browse.claim_detail, pk)
    return render(request, "claims/detail.html", claim_page(claim, request.user))


@role_required(EDITOR)
@require_POST
def claim_dismiss(request, pk: int):
    claim = found_or_404(browse.claim_detail, pk)
    form = DismissForm(request.POST)
    if not form.is_valid():
        return _answer(request, claim, error="Choose a reason to dismiss it.",
                       about_suggestion=bool(request.POST.get("suggestion")))
    spk = form.cleaned_data.get("suggestion")
    suggestion = next((s for s in claim.suggestions.all() if s.pk == spk), None) if spk else None
    if spk and suggestion is None:
        return _answer(request, claim, error="That suggestion is no longer there.", about_suggestion=True)
    try:
        claim_review_save(claim=claim, user=request.user, kind=ClaimReview.Kind.DISMISSED,
                          reason=form.cleaned_data["reason"], note=form.cleaned_data["note"],
                          suggestion=suggestion)
    except ReviewRefused as exc:
        return _answer(request, claim, error=f"Not saved: {exc}.", about_suggestion=bool(spk))
    # A flag's dismissal is confirmed by the review panel's own line (what, why, when, and
    # the button to take it back); a suggestion's moves away, so the move is said.
    what = "Suggestion dismissed; it moved to the end of the list." if suggestion else ""
    return _answer(request, claim, done=what, about_suggestion=suggestion is not None)


@role_required(EDITOR)
@require_POST
def claim_verified(request, pk: int):
    claim = found_or_404(browse.claim_detail, pk)
    claim_review_save(claim=claim, user=request.user, kind=ClaimReview.Kind.VERIFIED,
                      note=request.POST.get("note", "")[:1000])
    return _answer(request, claim)  # the review panel says it, once


@role_required(EDITOR)
@require_POST
def claim_review_undo(request, pk: int):
    claim = found_or_404(browse.claim_detail, pk)
    spk = request.POST.get("suggestion")
    suggestion = next((s for s in claim.suggestions.all() if str(s.pk) == spk), None) if spk else None
    if spk and suggestion is None:  # not the flag's judgement instead
        return _answer(request, claim, error="That suggestion is no longer there.", about_suggestion=True)
    claim_review_clear(claim=claim, user=request.user, suggestion=suggestion)
    return _answer(request, claim, done="Your judgement was taken back.", about_suggestion=suggestion is not None)


def _answer(request, claim, *, done: str = "", error: str = "", about_suggestion: bool = False):
    """htmx gets the part of the page that was acted on again (the review panel, or the
    suggestions, re-ordered); a plain form post goes back to that part of the page."""
    if is_htmx(request):
        claim = browse.claim_detail(claim.pk)
        context = {**claim_page(claim, request.user), "done": done, "error": error}
        partial = "partials/claim_suggestions.html" if about_suggestion else "partials/claim_reviews.html"
        response = render(request, partial, context, status=400 if error else 200)
        return mark_fragment(response) if error else response
    if error or done:
        (messages.error if error else messages.success)(request, error or done)
    # Without a message the panel itself says what was done: the page opens there.
    where = "#suggestions" if about_suggestion else "" if error or done else "#claim-reviews"
    return redirect(reverse("claim_detail", args=[claim.pk]) + where)
