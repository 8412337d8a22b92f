"""patrol_poll: read the recent changes of patrolled wikis now (once, or every
SIDE_PATROL_INTERVAL seconds with --loop). Workers do this on their own (sideapp.patrol.jobs);
the command is for operators and tests, and is safe beside them: a wiki another watcher is
reading is left to it (sideapp.patrol.watcher)."""
from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from sideapp.patrol.services import cursor_start
from sideapp.patrol.watcher import patrol_poll
from sideapp.scans.models import Wiki


class Command(BaseCommand):
    help = "Read the recent changes of patrolled wikis and queue a check of each new edit."

    def add_arguments(self, parser):
        parser.add_argument("--wiki", type=int, action="append", help="only this wiki (its pk); repeatable")
        parser.add_argument("--loop", action="store_true", help="keep reading every SIDE_PATROL_INTERVAL seconds")

    def handle(self, *args, **opts):
        while True:
            wikis = Wiki.objects.filter(patrol=True)
            if opts["wiki"]:
                wikis = wikis.filter(pk__in=opts["wiki"])
            for wiki in wikis:
                cursor_start(wiki=wiki)
                self.stdout.write(f"{wiki}: {patrol_poll(wiki_id=wiki.pk)}")
            if not opts["loop"]:
                return
            time.sleep(settings.SIDE_PATROL_INTERVAL)
