from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_http_methods, require_POST

from sideapp.corpus import selectors
from sideapp.corpus.imports import import_request
from sideapp.corpus.models import CorpusImport
from sideapp.corpus.updates import index_update_request
from sideapp.web.shortcuts import render_page
from sideapp.web.roles import ADMIN, role_required


class ImportForm(forms.Form):
    file = forms.FileField(help_text="JSONL, one {\"url\", \"title\", \"text\"} object per line.")


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def corpus(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        record = import_request(upload=form.cleaned_data["file"], user=request.user)
        return redirect("corpus_import", pk=record.pk)  # whose status says it is queued, then how far
    replicas = list(selectors.replica_list())
    context = {"form": form, "imports": selectors.import_list(), "replicas": replicas,
               "syncing": any(r.syncing for r in replicas), **selectors.corpus_summary()}
    return render_page(request, "corpus/index.html", "partials/corpus_index.html", context)


@role_required(ADMIN)
@require_POST
def corpus_update(request):
    index_update_request(user=request.user)
    messages.success(request, "Index update queued: a model worker turns the documents not in the "
                              "corpus yet into passages, then brings its index up to date.")
    return redirect("corpus")


@role_required(ADMIN)
def corpus_import(request, pk: int):
    record = get_object_or_404(CorpusImport, pk=pk)
    return render_page(request, "corpus/import.html", "partials/import_status.html",
                       {"record": record, "running": record.is_running})
