from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from sideapp.claims.selectors import claim_counts
from sideapp.scans.selectors import scan_list
from sideapp.web import roles


@login_required
def home(request):
    is_admin = roles.has_role(request.user, roles.ADMIN)
    context = {**claim_counts(), "is_admin": is_admin,
               "recent_jobs": scan_list(limit=5) if is_admin else []}
    return render(request, "home.html", context)
