"""A scan queued on real Redis and run by a real RQ worker process."""
from __future__ import annotations

import django_rq
from django.test import TransactionTestCase

from harness.demo import demo_pages
from sideapp.models import Claim, ScanItem, ScanJob, Wiki
from sideapp.scans.services import scan_request
from sideapp.pipeline.stages import scan_progress
from tests.wiki_support import demo_wiki
from tests.worker_support import run_burst_worker


class ScanWorkerTests(TransactionTestCase):
    def test_a_worker_scans_queued_articles_into_the_database(self):
        server = demo_wiki()
        wiki = Wiki.objects.create(api_url=server.api_url)
        job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES,
                           titles=["Kellhaven Lighthouse", "River Arle"])
        self.assertEqual(django_rq.get_queue("scan").count, 2)  # enqueued once committed
        done = run_burst_worker("scan")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.assertEqual(set(job.items.values_list("status", flat=True)), {ScanItem.Status.DONE})
        self.assertEqual(scan_progress(job=job)["scan"], {"done": 2, "total": 2, "failed": 0})
        self.assertTrue(Claim.objects.filter(article__title="River Arle").exists())

    def test_a_category_scan_is_expanded_by_the_worker_then_scanned(self):
        server = demo_wiki()
        wiki = Wiki.objects.create(api_url=server.api_url)
        job = scan_request(wiki=wiki, kind=ScanJob.Kind.CATEGORY, category="Demo articles")
        done = run_burst_worker("scan")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        articles = len(demo_pages())  # every demo article is in the category
        self.assertEqual(job.items.count(), articles)
        self.assertEqual(scan_progress(job=job)["scan"], {"done": articles, "total": articles, "failed": 0})
        self.assertGreater(django_rq.get_queue("fetch").count, 0)  # the next stage is queued
