"""Moving work between stages: scan -> fetch (fan out) -> verify -> suggest.

State lives in PostgreSQL, not in the queue: a stage picks the rows that are ready
(locking them with SKIP LOCKED so two workers never take the same row), marks them
queued and enqueues a job per row after commit. Because every job is idempotent and
the rows say what is unfinished, lost or abandoned jobs can be put back at any time.
"""
from __future__ import annotations

from typing import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp import queues
from sideapp.models import Claim, Revision, Source
from sideapp.services.sources import is_fresh


def revision_dispatch(*, revision: Revision) -> None:
    """Queue the fetches and verifications a newly scanned revision needs.

    Every source the article cites is fetched, also those behind citations that back
    no claim (in a heading, an empty infobox field): each source ends with a status.
    """
    claim_ids = list(
        revision.revision_claims.filter(claim__verify_state=Claim.State.PENDING)
        .values_list("claim_id", flat=True)
    )
    sources_dispatch(source_ids=Source.objects.filter(
        citations__article_id=revision.article_id).values_list("pk", flat=True))
    claims_dispatch(claim_ids=claim_ids)


def sources_dispatch(*, source_ids: Iterable[int]) -> int:
    """Queue a fetch for each source that is not fetched (or stale) and not queued."""
    with transaction.atomic():
        rows = list(Source.objects.select_for_update(skip_locked=True)
                    .filter(pk__in=list(source_ids), queued_at=None))
        due = [s for s in rows if not is_fresh(s)]
        Source.objects.filter(pk__in=[s.pk for s in due]).update(queued_at=timezone.now())
        for source in due:
            queues.enqueue_after_commit("fetch", "sideapp.jobs.fetch_source_job", source.pk,
                                        retry=fetch_retry())
    return len(due)


def fetch_retry():
    """RQ retries for transient fetch failures: a little later, then much later."""
    from rq import Retry

    retries = settings.SIDE_FETCH_RETRIES
    return Retry(max=retries, interval=[10 * 3**i for i in range(retries)]) if retries else None


def claims_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue verification for pending claims whose cited sources are all fetched."""
    with transaction.atomic():
        ready = (
            Claim.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk__in=list(claim_ids), verify_state=Claim.State.PENDING)
            .exclude(claim_citations__citation__source__status=Source.Status.PENDING)
        )
        ids = list(ready.values_list("pk", flat=True))
        Claim.objects.filter(pk__in=ids).update(verify_state=Claim.State.QUEUED)
        for pk in ids:
            queues.enqueue_after_commit("verify", "sideapp.jobs.verify_claim_job", pk)
    return len(ids)


def claims_waiting_on(*, source: Source) -> list[int]:
    return list(
        Claim.objects.filter(claim_citations__citation__source=source,
                             verify_state=Claim.State.PENDING).values_list("pk", flat=True)
    )


def suggestions_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue the suggestion search of flagged claims that wait for it."""
    with transaction.atomic():
        ids = list(Claim.objects.select_for_update(skip_locked=True)
                   .filter(pk__in=list(claim_ids), suggest_state=Claim.State.PENDING)
                   .values_list("pk", flat=True))
        Claim.objects.filter(pk__in=ids).update(suggest_state=Claim.State.QUEUED)
        for pk in ids:
            queues.enqueue_after_commit("verify", "sideapp.jobs.suggest_claim_job", pk)
    return len(ids)
