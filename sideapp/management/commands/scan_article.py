"""scan_article TITLE [TITLE ...] [--wiki API_URL] [--sync] [--json]

The stable command-line contract of ../shared/DESIGN.md, extended with --category and
--recent as other scan inputs.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from sideapp.claims.reports import scan_item_report
from sideapp.management.database import require_migrated_database
from sideapp.pipeline import dispatch
from sideapp.scans.models import ScanJob
from sideapp.scans.services import scan_request
from sideapp.scans.wikis import wiki_for


class Command(BaseCommand):
    help = "Scan wiki articles into claims and citations (queued, or in-process with --sync)."

    def add_arguments(self, parser):
        parser.add_argument("titles", nargs="*", metavar="TITLE")
        parser.add_argument("--wiki", metavar="API_URL", help="the wiki's api.php URL")
        parser.add_argument("--sync", action="store_true", help="run the whole pipeline in this process")
        parser.add_argument("--json", action="store_true", help="print one JSON object per article")
        parser.add_argument("--category", default="", help="scan every article in this category")
        parser.add_argument("--recent", type=int, default=0, metavar="N",
                            help="scan the N most recently changed articles")

    def handle(self, *args, **opts):
        require_migrated_database()
        kind, titles = self._kind(opts)
        wiki = wiki_for(api_url=opts["wiki"])
        limit = opts["recent"] or 5000
        if opts["sync"]:
            with dispatch.run_inline():
                job = scan_request(wiki=wiki, kind=kind, titles=titles,
                                   category=opts["category"], limit=limit)
        else:
            job = scan_request(wiki=wiki, kind=kind, titles=titles, category=opts["category"], limit=limit)
        job.refresh_from_db()
        self._report(job, opts)

    def _kind(self, opts) -> tuple[str, list[str]]:
        chosen = [bool(opts["titles"]), bool(opts["category"]), bool(opts["recent"])]
        if sum(chosen) != 1:
            raise CommandError("give titles, or --category NAME, or --recent N (exactly one)")
        if opts["category"]:
            return ScanJob.Kind.CATEGORY, []
        if opts["recent"]:
            return ScanJob.Kind.RECENT, []
        return ScanJob.Kind.TITLES, opts["titles"]

    def _report(self, job: ScanJob, opts) -> None:
        items = job.items.select_related("article", "revision")
        if job.status == ScanJob.Status.FAILED and not items:
            raise CommandError(f"scan job {job.pk} failed: {job.reason}")
        if opts["json"]:
            for item in items:
                self.stdout.write(json.dumps(scan_item_report(item), ensure_ascii=False))
            return
        if not opts["sync"]:
            self.stdout.write(f"scan job {job.pk} queued ({job.kind}); run the workers: "
                              "python manage.py rqworker scan fetch default, and "
                              "python manage.py rqworker verify --worker-class sideapp.pipeline.worker.SideModelWorker")
            return
        self.stdout.write(f"scan job {job.pk}: {job.status} {job.reason}".rstrip())
        for item in items:
            claims = item.revision.claim_count if item.revision else 0
            self.stdout.write(f"  {item.title}: {item.status}, {claims} claims {item.reason}".rstrip())
