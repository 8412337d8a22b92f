from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from sideapp.models import Claim
from sideapp.roles import EDITOR, role_required
from sideapp.services import browse
from sideapp.views.common import render_page


@role_required(EDITOR)
def claim_list(request):
    show = request.GET.get("show", "flagged")
    if show not in browse.FILTERS:
        show = "flagged"
    article = request.GET.get("article", "").strip()[:200]
    page = Paginator(browse.claim_list(show=show, article=article), 50).get_page(request.GET.get("page"))
    context = {"page": page, "show": show, "article": article, "filters": browse.FILTERS}
    return render_page(request, "claims/list.html", "partials/claim_rows.html", context)


@role_required(EDITOR)
def claim_detail(request, pk: int):
    try:
        claim = browse.claim_detail(pk)
    except Claim.DoesNotExist as exc:
        raise Http404("no such claim") from exc
    citations = [
        {"link": link, "evidence": browse.evidence_parts(link.evidence)}
        for link in claim.claim_citations.all()
    ]
    suggestions = [
        {"suggestion": s, "evidence": browse.evidence_parts(s.evidence)} for s in claim.suggestions.all()
    ]
    return render(request, "claims/detail.html", {
        "claim": claim, "citations": citations, "suggestions": suggestions,
        "evidence": browse.evidence_parts(claim.evidence),
    })
