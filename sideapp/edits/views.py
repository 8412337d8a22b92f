"""Editors' actions on the wiki: preview a change, confirm it, see the saved revision;
and an article's talk-page report. Every failure is shown as a sentence."""
from __future__ import annotations

import logging
from urllib.parse import urlencode

from django.db import DatabaseError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from sideapp.claims.offers import offer_for
from sideapp.claims.wording import quote_of
from sideapp.edits import selectors, services
from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.edits.saving import SavingUnavailable
from sideapp.edits.tokens import TokenRefused
from sideapp.scans.wikiapi import EditConflict, EditOutcomeUnknown, WikiError
from sideapp.scans.wikis import saving_off_reason
from sideapp.web.roles import EDITOR, role_required
from sideapp.web.shortcuts import found_or_404, is_htmx
from verifier_core.wikitext.diff import diff_lines
from verifier_core.wikitext.report import flagged_claims_table

log = logging.getLogger(__name__)
DATABASE_DOWN = ("Side editor's database does not answer just now, so the save could not be recorded; if the change "
                 "had already been sent, the wiki's history settles it once the database is back. Do not save it "
                 "again: open the claim in a few minutes.")
_ACTION_LABELS = {
    services.ADD: "Add as an additional citation",
    services.REPLACE: "Replace the failing citation",
    services.TAG: "Tag the citation {{failed verification}}",
    services.ARCHIVE: "Add the archived copy as it was cited",
    services.CORRECT: "Correct the figure to what the cited source gives",
}


@role_required(EDITOR)
@require_http_methods(["GET", "POST"])
def suggestion_apply(request, pk: int, spk: int):
    claim = found_or_404(selectors.claim_for_edit, pk)
    suggestion = found_or_404(lambda s: selectors.suggestion_of(claim, s), spk)
    data = request.POST if request.method == "POST" else request.GET
    mode = data.get("mode", services.ADD)
    if mode not in services.MODES:
        mode = services.ADD
    return _edit_flow(request, claim, mode, suggestion)


@role_required(EDITOR)
@require_http_methods(["GET", "POST"])
def claim_tag(request, pk: int):
    claim = found_or_404(selectors.claim_for_edit, pk)
    return _edit_flow(request, claim, services.TAG, None)


@role_required(EDITOR)
@require_http_methods(["GET", "POST"])
def claim_archive(request, pk: int):
    """The copy as cited written into a dead citation, or {{dead link}} (sideapp.sources.rescue)."""
    claim = found_or_404(selectors.claim_for_edit, pk)
    return _edit_flow(request, claim, services.ARCHIVE, None)


@role_required(EDITOR)
@require_http_methods(["GET", "POST"])
def claim_correct(request, pk: int):
    """The claim's figure changed to the one its failing source gives ("1994" to "1996")."""
    claim = found_or_404(selectors.claim_for_edit, pk)
    return _edit_flow(request, claim, services.CORRECT, None)


def _edit_flow(request, claim, mode, suggestion):
    data = request.POST if request.method == "POST" else request.GET
    context = {"claim": claim, "mode": mode, "suggestion": suggestion,
               "action_label": _ACTION_LABELS[mode], "saving_off": saving_off_reason(claim.article.wiki),
               "apply_modes": _apply_modes(claim, mode, suggestion), "untag": _untag(data.get("untag"))}
    if request.method == "POST" and request.POST.get("confirm") == "1":
        return _save(request, context)
    try:
        proposal = services.edit_propose(claim=claim, mode=mode, suggestion=suggestion, untag=context["untag"],
                                         user=request.user)
    except services.EditUnavailable as exc:
        return _problem(request, context, str(exc), status=409)
    change = proposal.change
    context.update(proposal=proposal, diff_lines=diff_lines(change.old, change.new, title=proposal.title),
                   source_line=_source_line(proposal))
    return render(request, "edits/preview.html", context)


def _source_line(proposal: services.EditProposal) -> dict | None:
    """For a figure's correction, the cited source's own line that gives its figure, so that
    the editor reads it before the claim is changed to say it."""
    link = proposal.link
    if proposal.mode != services.CORRECT or link is None:
        return None
    return {"title": link.citation.title or link.citation.url, "quote": quote_of(link.evidence)}


def _save(request, context):
    """The confirmed change saved (or the first save of the same confirm shown again)."""
    claim, mode, suggestion = context["claim"], context["mode"], context["suggestion"]
    try:
        saved = services.edit_apply(user=request.user, claim=claim, mode=mode, suggestion=suggestion,
                                    token=(request.POST.get("token") or "").strip(), untag=context["untag"])
    except TokenRefused as exc:
        return _problem(request, context, str(exc), status=exc.status)
    except SavingUnavailable as exc:
        return _problem(request, context, str(exc), status=503)
    except DatabaseError as exc:  # PostgreSQL went away mid-save: a pending row is settled by recovery
        log.warning("save of claim %s: the database did not answer: %s", claim.pk, exc)
        return _problem(request, context, DATABASE_DOWN, status=503)
    except EditOutcomeUnknown as exc:  # sent, no answer: settled from the wiki's history (edits.saving)
        return render(request, "edits/pending.html", context | {"problem": str(exc)}, status=202)
    except EditConflict as exc:
        return _problem(request, context, str(exc), status=409, conflict=True)
    except services.EditUnavailable as exc:
        return _problem(request, _by_hand(context), str(exc), status=409)
    except WikiError as exc:
        return _problem(request, _by_hand(context), _sentence(exc), status=502)
    return render(request, "edits/saved.html", context | {"saved": saved})


def _by_hand(context: dict) -> dict:
    """The change to make by hand, where it can still be built (the save was refused)."""
    try:
        proposal = services.edit_propose(claim=context["claim"], mode=context["mode"],
                                         suggestion=context["suggestion"], untag=context["untag"])
    except (services.EditUnavailable, WikiError):
        return context
    return context | {"proposal": proposal}


def _apply_modes(claim, mode: str, suggestion) -> list[tuple[str, str]]:
    """This mode, and the suggestion's other modes that are offered (or will be, once the
    page is read again)."""
    if suggestion is None:
        return []
    return [(m, _ACTION_LABELS[m]) for m in services.MODES
            if m == mode or (offer := offer_for(claim, m, suggestion)).offered or offer.refresh]


def _problem(request, context, message: str, *, status: int, conflict: bool = False):
    return render(request, "edits/problem.html",
                  context | {"problem": message, "conflict": conflict}, status=status)


def _sentence(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[0].upper() + text[1:]


def _untag(value: str | None) -> bool | None:
    """The preview's "take {{failed verification}} off" choice: "1" yes, "0" no; anything
    else, the default (yes when the new source supports the claim)."""
    return {"1": True, "0": False}.get((value or "").strip())


@role_required(EDITOR)
@require_http_methods(["GET", "POST"])
def article_report(request, pk: int):
    """GET shows the report (reading writes nothing); the Copy button POSTs, which is
    what the audit log records."""
    article = found_or_404(selectors.article_for_report, pk)
    if request.method == "POST":
        audit_record(user=request.user, action=AuditEntry.Action.REPORT, article=article,
                     detail=f"{len(selectors.report_rows(article))} flagged claims")
        return HttpResponse(status=204) if is_htmx(request) else redirect("article_report", pk=pk)
    rows = selectors.report_rows(article)
    revision = article.current_revision
    wikitext = flagged_claims_table(
        rows, title=article.title, rev_id=revision.rev_id if revision else 0,
        checked=timezone.localdate(article.last_scanned_at) if article.last_scanned_at
        else timezone.localdate(),
    )
    if request.GET.get("format") == "wikitext":
        return HttpResponse(wikitext, content_type="text/plain; charset=utf-8")
    back = f"{reverse('claim_list')}?{urlencode({'show': 'all', 'article': article.title})}"
    return render(request, "edits/report.html",
                  {"article": article, "rows": rows, "wikitext": wikitext, "back": back})
