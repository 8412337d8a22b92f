from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from sideapp.forms import ScanRequestForm
from sideapp.models import ScanJob
from sideapp.roles import ADMIN, role_required
from sideapp.services.scans import scan_request
from sideapp.services.stages import scan_progress
from sideapp.services.wikis import wiki_for
from sideapp.views.common import render_page


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def scan_list(request):
    form = ScanRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        job = scan_request(
            wiki=wiki_for(api_url=data.get("wiki") or None), kind=data["kind"],
            titles=data["title_list"], category=data.get("category") or "",
            limit=data.get("limit") or 50, user=request.user,
        )
        messages.success(request, f"Scan {job.pk} queued.")
        return redirect("scan_detail", pk=job.pk)
    jobs = ScanJob.objects.select_related("wiki", "created_by")[:50]
    return render(request, "scans/list.html", {"form": form, "jobs": jobs})


@role_required(ADMIN)
def scan_detail(request, pk: int):
    job = get_object_or_404(ScanJob.objects.select_related("wiki"), pk=pk)
    context = {
        "job": job,
        "items": job.items.select_related("article", "revision"),
        "progress": scan_progress(job=job),
        "running": job.status in (ScanJob.Status.QUEUED, ScanJob.Status.RUNNING),
    }
    return render_page(request, "scans/detail.html", "partials/scan_status.html", context)
