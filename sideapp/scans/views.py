from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from sideapp.pipeline.stages import scan_progress
from sideapp.scans import selectors
from sideapp.scans.forms import ScanRequestForm, WikiAddForm
from sideapp.scans.services import scan_cancel, scan_rerun, scan_start
from sideapp.scans.wikiapi import WikiError
from sideapp.scans.wikis import wiki_add, wiki_for
from sideapp.web.shortcuts import found_or_404, render_page
from sideapp.web.roles import ADMIN, role_required


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def scan_list(request):
    form = ScanRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        job = scan_start(
            wiki=wiki_for(api_url=data.get("wiki") or None), kind=data["kind"],
            titles=data["title_list"], category=data.get("category") or "",
            limit=data.get("limit") or 50, user=request.user,
        )
        # No flash message: the scan page says where the scan stands, and a banner
        # "queued" would outlive the state it describes.
        return redirect("scan_detail", pk=job.pk)
    return render(request, "scans/list.html", {"form": form, "jobs": selectors.scan_list()})


@role_required(ADMIN)
def scan_detail(request, pk: int):
    job = found_or_404(selectors.scan_detail, pk)
    context = selectors.scan_status(job, progress=scan_progress(job=job))
    return render_page(request, "scans/detail.html", "partials/scan_status.html", context)


@role_required(ADMIN)
@require_POST
def scan_cancel_view(request, pk: int):
    job = found_or_404(selectors.scan_detail, pk)
    if not scan_cancel(job=job, user=request.user):
        messages.error(request, f"Scan {job.pk} had already ended; there was nothing left to cancel.")
    return redirect("scan_detail", pk=job.pk)


@role_required(ADMIN)
@require_POST
def scan_rerun_view(request, pk: int):
    job = found_or_404(selectors.scan_detail, pk)
    try:
        again = scan_rerun(job=job, user=request.user)
    except ValueError as exc:
        messages.error(request, f"Scan {job.pk} cannot run again yet: {exc}.")
        return redirect("scan_detail", pk=job.pk)
    return redirect("scan_detail", pk=again.pk)  # which says what it retries



@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def wiki_list(request):
    form = WikiAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            wiki = wiki_add(api_url=form.cleaned_data["api_url"], user=request.user)
        except WikiError as exc:
            form.add_error("api_url", f"Side editor could not read this wiki: {exc}.")
        else:
            messages.success(request, f"{wiki} is known at {wiki.api_url}.")
            return redirect("wiki_list")
    return render(request, "scans/wikis.html", {"form": form, "rows": selectors.wiki_rows()})
