from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from sideapp import roles
from sideapp.models import Article, Claim, ScanJob


@login_required
def home(request):
    user = request.user
    context = {
        "is_admin": roles.has_role(user, roles.ADMIN),
        "is_editor": roles.has_role(user, roles.EDITOR),
        "is_annotator": roles.has_role(user, roles.ANNOTATOR),
        "article_count": Article.objects.exclude(current_revision=None).count(),
        "claim_count": Claim.objects.count(),
        "recent_jobs": ScanJob.objects.all()[:5] if roles.has_role(user, roles.ADMIN) else [],
    }
    return render(request, "home.html", context)
