"""Patrol's RQ jobs and their schedule.

Workers call `polls_due` with their periodic maintenance (pipeline/worker.py), every
SIDE_PATROL_INTERVAL seconds: it queues one read per patrolled wiki per interval, however
many workers run (a Redis key with that lifetime says a read was queued). Redis only
spaces the reads: which watcher holds a wiki is decided by the cursor's row lock in
PostgreSQL (watcher.py), so a read queued twice costs a no-op.
"""
from __future__ import annotations

from django.conf import settings

from sideapp.patrol.services import cursor_start
from sideapp.patrol.watcher import patrol_poll
from sideapp.pipeline.names import Queue
from sideapp.scans.models import Wiki


def patrol_poll_job(wiki_pk: int) -> str:
    return patrol_poll(wiki_id=wiki_pk)


def polls_due(connection) -> int:
    """Queue a read of each patrolled wiki not read in this interval; how many were queued."""
    import django_rq

    queued = 0
    for wiki in Wiki.objects.filter(patrol=True):
        cursor_start(wiki=wiki)  # a wiki patrolled from the start (SIDE_PATROL_DEFAULT) has none yet
        if connection.set(f"side:patrol:due:{wiki.pk}", 1, nx=True, ex=max(1, settings.SIDE_PATROL_INTERVAL - 1)):
            # At the front: a read takes a moment and everything patrol does follows from it, so
            # it never waits behind the scans of the burst it read last time.
            django_rq.get_queue(Queue.SCAN).enqueue(patrol_poll_job, wiki.pk, at_front=True)
            queued += 1
    return queued
