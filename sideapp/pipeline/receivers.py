"""The pipeline's answers to what services report (sideapp.events): the work that
follows each request, queued after the request's transaction commits."""
from __future__ import annotations

from django.dispatch import receiver

from sideapp import events
from sideapp.pipeline import stages


@receiver(events.scan_requested, dispatch_uid="pipeline.scan_requested")
def _scan_requested(sender, *, job, **_) -> None:
    stages.scan_requested(job)


@receiver(events.corpus_import_requested, dispatch_uid="pipeline.corpus_import_requested")
def _corpus_import_requested(sender, *, record, **_) -> None:
    stages.enqueue(stages.IMPORT, record.pk)


@receiver(events.corpus_update_requested, dispatch_uid="pipeline.corpus_update_requested")
def _corpus_update_requested(sender, **_) -> None:
    stages.enqueue(stages.CORPUS)
