"""A lookup that ended busy (the archives slow or down) is asked again once
SIDE_ARCHIVE_RETRY_MINUTES have passed; until then it stands, and says why in words."""
from __future__ import annotations

from datetime import timedelta

import django_rq
from django.test import TestCase, TransactionTestCase, override_settings
from django.utils import timezone

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import Claim, ClaimCitation
from sideapp.claims.offers import archive_offer
from sideapp.models import Citation
from sideapp.pipeline.names import Queue
from sideapp.pipeline.stages import sources_dispatch
from sideapp.sources.archives import copy_wanted
from sideapp.sources.models import ArchivedCopy
from sideapp.sources.reading import citation_reading, copies_of
from tests.archive_support import SOURCES_HOST, WithArchiveOnLoopback
from tests.edits_support import read_source
from tests.worker_support import run_burst_worker

URL = "https://moved.example/regatta"
BUSY = ArchivedCopy.State.BUSY


@override_settings(SIDE_ARCHIVE_RETRY_MINUTES=60, SIDE_ARCHIVES="http://archive.invalid/cdx http://archive.invalid/web/")
class BusyLookupRetryTests(TestCase):
    def setUp(self):
        self.source = read_source(URL, "The regatta moved to the lower river in 2004, said the page.")

    def busy(self, minutes_ago: float) -> ArchivedCopy:
        return ArchivedCopy.objects.create(source=self.source, target="20190301", state=BUSY,
                                           reason="the archive answered HTTP 429: it asks for fewer requests",
                                           fetched_at=timezone.now() - timedelta(minutes=minutes_ago))

    def test_a_busy_lookup_stands_until_the_retry_time_then_is_wanted_again(self):
        copy = self.busy(minutes_ago=5)
        self.assertTrue(copy.looked_up)
        self.assertEqual(copy_wanted(source=self.source, target="20190301").state, BUSY)
        ArchivedCopy.objects.filter(pk=copy.pk).update(fetched_at=timezone.now() - timedelta(minutes=61))
        copy.refresh_from_db()
        self.assertFalse(copy.looked_up)
        again = copy_wanted(source=self.source, target="20190301")
        self.assertEqual((again.pk, again.state), (copy.pk, ArchivedCopy.State.WANTED))

    def test_found_and_copyless_lookups_are_never_asked_again_by_the_retry(self):
        for state in (ArchivedCopy.State.FOUND, ArchivedCopy.State.NONE):
            ArchivedCopy.objects.all().delete()
            copy = ArchivedCopy.objects.create(source=self.source, target="20190301", state=state,
                                               fetched_at=timezone.now() - timedelta(days=30))
            self.assertTrue(copy.looked_up)
            self.assertEqual(copy_wanted(source=self.source, target="20190301").state, state)

    def test_dead_link_is_offered_only_once_the_archives_said_they_hold_no_copy(self):
        _, claims = article_with_claims("Regatta", [ClaimRow("The regatta moved in 2004.", "source_unavailable", None,
                                                             cited_url=URL)])
        gone = read_source(URL, status="http_error")
        Citation.objects.filter(url=URL).update(source=gone, access_date="2019-03-01")
        ClaimCitation.objects.filter(claim=claims[0]).update(page_state="gone")
        copy = self.busy(minutes_ago=5)
        offer = archive_offer(Claim.objects.get(pk=claims[0].pk))
        self.assertFalse(offer.offered)
        self.assertIn("not known yet", offer.why_not)
        ArchivedCopy.objects.filter(pk=copy.pk).update(state=ArchivedCopy.State.NONE)
        self.assertTrue(archive_offer(Claim.objects.get(pk=claims[0].pk)).offered)

    def test_the_reading_asks_for_the_copy_again_once_the_busy_lookup_is_due(self):
        _, claims = article_with_claims("Regatta", [ClaimRow("The regatta moved in 2004.", "not_supported", 0.1,
                                                             cited_url=URL)])
        Citation.objects.filter(url=URL).update(source=self.source, access_date="2019-03-01")
        citation = Citation.objects.select_related("source__document").get(url=URL)
        self.busy(minutes_ago=5)
        fresh = citation_reading(citation, copies=copies_of([self.source]))
        self.assertTrue(fresh.looked_up)
        ArchivedCopy.objects.update(fetched_at=timezone.now() - timedelta(hours=2))
        due = citation_reading(citation, copies=copies_of([self.source]))
        self.assertFalse(due.looked_up)
        self.assertTrue(due.wants_copy("not_supported"))


class BusyLookupAskedAgainByTheWorkersTests(WithArchiveOnLoopback, TransactionTestCase):
    """The real pipeline: a rescan of an article whose dead page's lookup ended busy two
    hours ago queues the lookup again (the page itself is fresh: not fetched again), a real
    fetch worker reads the copy from a real pywb, and the claim is judged again with it."""

    def setUp(self):
        settings = override_settings(SIDE_FETCH_ALLOWLIST=[SOURCES_HOST], SIDE_ARCHIVES=self.archive.setting,
                                     SIDE_ARCHIVE_RATE=0, SIDE_ARCHIVE_RETRY_MINUTES=60)
        settings.enable()
        self.addCleanup(settings.disable)
        self.queue = django_rq.get_queue(Queue.FETCH)
        self.queue.empty()
        self.addCleanup(self.queue.empty)

    def dead_citation(self, access_date: str):
        url = self.sources.url("/missing/kh-harbour-dues-2018.html")
        _, claims = article_with_claims("Harbour", [ClaimRow("Harbour dues rose by 4 per cent in 2018.",
                                                             "source_unavailable", None, cited_url=url)])
        source = read_source(url, status="http_error")  # read a minute ago: fresh, not fetched again
        Citation.objects.filter(url=url).update(source=source, access_date=access_date,
                                                title="Harbour dues to rise for fishing boats")
        Claim.objects.filter(pk=claims[0].pk).update(verify_state=Claim.State.DONE, current=True)
        return source, claims[0]

    def run_fetch_worker(self):
        done = run_burst_worker("fetch", SIDE_FETCH_ALLOWLIST=SOURCES_HOST, SIDE_ARCHIVES=self.archive.setting,
                                SIDE_ARCHIVE_RATE="0", SIDE_FETCH_HOST_DELAY="0")
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])

    def assert_found_and_judged_again(self, copy: ArchivedCopy, claim: Claim):
        copy.refresh_from_db()
        self.assertEqual((copy.state, copy.timestamp), (ArchivedCopy.State.FOUND, "20181121093000"), copy.reason)
        self.assertIn("will rise by 4 per cent in 2018", copy.text)
        # Judged again with the copy: queued for the model worker (verify), no longer done.
        self.assertEqual(Claim.objects.get(pk=claim.pk).verify_state, Claim.State.QUEUED)

    def test_a_due_busy_lookup_is_read_by_the_fetch_worker_and_its_claim_judged_again(self):
        source, claim = self.dead_citation("2018-11-21")
        copy = ArchivedCopy.objects.create(source=source, target="20181121", state=BUSY,
                                           reason="the archive answered HTTP 429: it asks for fewer requests",
                                           fetched_at=timezone.now() - timedelta(hours=2))
        self.assertEqual(sources_dispatch(source_ids=[source.pk]), 0)  # the page is fresh: not fetched again
        self.assertEqual(ArchivedCopy.objects.get(pk=copy.pk).state, ArchivedCopy.State.QUEUED)
        self.run_fetch_worker()
        self.assert_found_and_judged_again(copy, claim)

    def test_a_new_citation_of_a_page_known_dead_gets_the_copy_of_its_own_day(self):
        source, claim = self.dead_citation("2019-01-10")
        ArchivedCopy.objects.create(source=source, target="20181121", state=ArchivedCopy.State.FOUND,
                                    fetched_at=timezone.now())  # another citation's day, looked up before
        sources_dispatch(source_ids=[source.pk])
        copy = ArchivedCopy.objects.get(source=source, target="20190110")
        self.assertEqual(copy.state, ArchivedCopy.State.QUEUED)
        self.run_fetch_worker()
        self.assert_found_and_judged_again(copy, claim)
        sources_dispatch(source_ids=[source.pk])  # looked up: never asked again
        self.assertEqual(ArchivedCopy.objects.get(pk=copy.pk).state, ArchivedCopy.State.FOUND)
