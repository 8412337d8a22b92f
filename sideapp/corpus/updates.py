"""The admins' "update the index now": the corpus stage, queued as a fetch queues it.

A model worker takes it: stored documents not in the corpus yet become passages with
embeddings in PostgreSQL, then that worker's replica syncs (its progress is on the
corpus page). Replicas on other machines catch up on their own next corpus job.
"""
from __future__ import annotations

from django.db import transaction

from sideapp import events
from sideapp.edits.models import AuditEntry
from sideapp.edits.audit import audit_record


def index_update_request(*, user) -> None:
    with transaction.atomic():
        audit_record(user=user, action=AuditEntry.Action.INDEX_UPDATE)
        events.corpus_update_requested.send(sender=None)
