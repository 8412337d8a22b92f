from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from sideapp.models import CorpusImport, SourceDocument
from sideapp.roles import ADMIN, role_required
from sideapp.services.imports import import_request
from sideapp.views.common import render_page


class ImportForm(forms.Form):
    file = forms.FileField(help_text="JSONL, one {\"url\", \"title\", \"text\"} object per line.")


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def corpus(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        record = import_request(upload=form.cleaned_data["file"], user=request.user)
        messages.success(request, f"Import of {record.name} queued.")
        return redirect("corpus_import", pk=record.pk)
    context = {"form": form, "imports": CorpusImport.objects.all()[:50],
               "documents": SourceDocument.objects.count(),
               "indexed": SourceDocument.objects.exclude(indexed_at=None).count()}
    return render(request, "corpus/index.html", context)


@role_required(ADMIN)
def corpus_import(request, pk: int):
    record = get_object_or_404(CorpusImport, pk=pk)
    running = record.status in (CorpusImport.Status.QUEUED, CorpusImport.Status.RUNNING)
    return render_page(request, "corpus/import.html", "partials/import_status.html",
                       {"record": record, "running": running})
