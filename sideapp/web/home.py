"""The start page: for each role, where to start (the next item, the flagged list, the
latest scans)."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from sideapp.annotation.selectors import items_waiting
from sideapp.claims.selectors import ClaimFilters, claim_counts, claim_list
from sideapp.scans.selectors import scan_list
from sideapp.web import roles


@login_required
def home(request):
    user, cap = request.user, settings.SIDE_LIST_COUNT_CAP
    context = {**claim_counts(), "cap": cap, "is_admin": roles.has_role(user, roles.ADMIN)}
    if roles.has_role(user, roles.EDITOR):
        flagged = claim_list(filters=ClaimFilters(), user=user).values("pk").order_by()[: cap + 1]
        context["flagged_count"] = flagged.count()
    if roles.has_role(user, roles.ANNOTATOR):
        context["items_waiting"] = items_waiting(annotator=user, cap=cap + 1)
    if context["is_admin"]:
        context["recent_jobs"] = scan_list(limit=5)
    return render(request, "home.html", context)
