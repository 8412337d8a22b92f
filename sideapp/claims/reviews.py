"""Editors' judgements of flags and suggestions: dismiss with a reason, verify by hand,
take back. One standing judgement per user and claim (or suggestion)."""
from __future__ import annotations

from django.db import transaction

from sideapp.claims.changes import findings_changed
from sideapp.claims.models import Claim, ClaimReview, Suggestion
from sideapp.edits.models import AuditEntry
from sideapp.edits.audit import audit_record


class ReviewRefused(ValueError):
    """A judgement that does not fit what it is about (e.g. a suggestion of another claim)."""


@transaction.atomic
def claim_review_save(*, claim: Claim, user, kind: str, reason: str = "", note: str = "",
                      suggestion: Suggestion | None = None) -> ClaimReview:
    if suggestion is not None and suggestion.claim_id != claim.pk:
        raise ReviewRefused("that suggestion belongs to another claim")
    if suggestion is not None and kind != ClaimReview.Kind.DISMISSED:
        raise ReviewRefused("a suggestion can only be dismissed")
    allowed = ClaimReview.SUGGESTION_REASONS if suggestion else ClaimReview.FLAG_REASONS
    if kind == ClaimReview.Kind.DISMISSED and reason not in allowed:
        raise ReviewRefused("choose one of the reasons offered")
    review, _ = ClaimReview.objects.update_or_create(
        claim=claim, user=user, suggestion=suggestion,
        defaults={"kind": kind, "reason": reason, "note": note.strip()},
    )
    action = AuditEntry.Action.VERIFIED if kind == ClaimReview.Kind.VERIFIED else (
        AuditEntry.Action.DISMISS_SUGGESTION if suggestion else AuditEntry.Action.DISMISS)
    detail = review.get_reason_display() if reason else ""
    if suggestion:
        detail = f"{suggestion.url}: {detail}"
    audit_record(user=user, action=action, claim=claim, detail=detail)
    findings_changed(articles=[claim.article_id])  # the findings say what editors judged
    return review


@transaction.atomic
def claim_review_clear(*, claim: Claim, user, suggestion: Suggestion | None = None) -> int:
    deleted, _ = ClaimReview.objects.filter(claim=claim, user=user, suggestion=suggestion).delete()
    if deleted:
        audit_record(user=user, action=AuditEntry.Action.TAKE_BACK, claim=claim,
                     detail=suggestion.url if suggestion else "")
        findings_changed(articles=[claim.article_id])
    return deleted
