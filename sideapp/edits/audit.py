"""The audit log's one writer: who did what, when, and the wiki revision it made.

Its own module (models only) so that every feature's services can record their actions
inside their own transactions without importing the edit flow.
"""
from __future__ import annotations

from sideapp.claims.models import Claim
from sideapp.edits.models import AuditEntry
from sideapp.scans.models import Article


def audit_record(*, user, action: str, claim: Claim | None = None, article: Article | None = None,
                 revision_id: int | None = None, detail: str = "", **save) -> AuditEntry:
    """One line of the audit log; `article` defaults to the claim's; `save` holds a wiki
    save's status, token and base revision (sideapp.edits.saving)."""
    if article is None and claim is not None:
        article = claim.article
    person = user if user is not None and user.is_authenticated else None
    return AuditEntry.objects.create(
        user=person, username=person.get_username() if person else "", action=action,
        claim=claim, article=article, revision_id=revision_id, detail=detail[:2000], **save,
    )
