from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from sideapp.claims import selectors as browse
from sideapp.web.shortcuts import found_or_404, render_page
from sideapp.web.roles import EDITOR, role_required


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
    claim = found_or_404(browse.claim_detail, pk)
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
