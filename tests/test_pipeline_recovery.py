"""A worker killed with SIGKILL in the middle of a job: no partial rows, work redone."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

import django_rq
import psutil
from rq.registry import StartedJobRegistry

from sideapp.models import Claim, ClaimCitation, Revision, ScanItem, Source, SourceDocument
from tests.pipeline_support import PipelineTestCase
from tests.wiki_support import scan_titles
from tests.worker_support import ROOT, run_burst_worker, worker_command, worker_env


SLOW = "/slow/dlhs-flood-1929.html"


def wait_for(condition, timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class KilledWorkerTests(PipelineTestCase):
    def start_worker(self, *args: str, **env: str) -> subprocess.Popen:
        worker = subprocess.Popen(worker_command(*args, burst=False), env=worker_env(**{**self.env, **env}),
                                  cwd=ROOT, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.kill, worker)  # a failed assertion must not leave it serving later tests
        return worker

    def kill(self, worker: subprocess.Popen) -> None:
        """SIGKILL the worker and its work-horse (which RQ puts in a group of its own)."""
        if worker.poll() is not None:
            return
        horses = psutil.Process(worker.pid).children(recursive=True)
        os.killpg(worker.pid, signal.SIGKILL)
        for horse in horses:
            with contextlib.suppress(psutil.NoSuchProcess):
                horse.kill()
        worker.wait(timeout=10)
        psutil.wait_procs(horses, timeout=10)

    def started(self, queue: str) -> int:
        return StartedJobRegistry(queue=django_rq.get_queue(queue)).count

    def fetch_in_the_middle_of_a_slow_download(self, title: str) -> subprocess.Popen:
        """A fetch worker whose job is waiting on a 30 s page (a fresh scan of `title`)."""
        self.wiki.edit(title, f"The flood came in 1929.<ref>{{{{cite web|url={self.sources.url(SLOW)}}}}}</ref>")
        self.sources.slow_seconds = 30
        self.addCleanup(setattr, self.sources, "slow_seconds", 3)
        scan_titles(self.wiki, title)
        before = self.sources.hits(SLOW)
        worker = self.start_worker("fetch", SIDE_FETCH_READ_TIMEOUT="60")
        wait_for(lambda: self.sources.hits(SLOW) > before, what="the slow page to be requested")
        return worker

    def test_a_fetch_killed_mid_download_stores_nothing_and_is_redone_after_restart(self):
        self.kill(self.fetch_in_the_middle_of_a_slow_download("Recovery fetch"))
        source = Source.objects.get(url__endswith=SLOW)
        self.assertEqual(source.status, Source.Status.PENDING)
        self.assertFalse(SourceDocument.objects.filter(source=source).exists())
        self.assertEqual(self.started("fetch"), 1)  # abandoned, still marked as running

        self.sources.slow_seconds = 0.1
        restarted = run_burst_worker("fetch", **self.env)
        self.assertEqual(restarted.returncode, 0, restarted.stderr[-2000:])
        source.refresh_from_db()
        self.assertEqual(source.status, Source.Status.OK, source.reason)
        self.assertEqual(SourceDocument.objects.filter(source=source).count(), 1)
        self.assertEqual(self.started("fetch"), 0)

    def test_a_running_worker_takes_over_a_killed_workers_fetch_without_a_restart(self):
        doomed = self.fetch_in_the_middle_of_a_slow_download("Recovery takeover")
        hits = self.sources.hits(SLOW)
        self.start_worker("fetch", SIDE_RECOVERY_INTERVAL="1")
        time.sleep(2)  # the survivor's first recoveries see the job's worker alive
        source = Source.objects.get(url__endswith=SLOW)
        self.assertEqual(source.status, Source.Status.PENDING, source.reason)

        self.sources.slow_seconds = 0.1
        self.kill(doomed)
        wait_for(lambda: Source.objects.get(pk=source.pk).status != Source.Status.PENDING,
                 what="the survivor to fetch the abandoned source")
        source.refresh_from_db()
        self.assertEqual(source.status, Source.Status.OK, source.reason)
        self.assertEqual(SourceDocument.objects.filter(source=source).count(), 1)
        self.assertEqual(self.sources.hits(SLOW) - hits, 1)  # fetched again once, not once per recovery

    def test_a_verification_killed_mid_job_leaves_the_claim_unjudged_and_is_redone(self):
        page = self.sources.url("/pages/klt-history.html")
        self.wiki.edit("Recovery verify", f"The tower was first lit in 1862.<ref>{{{{cite web|url={page}}}}}</ref>")
        scan_titles(self.wiki, "Recovery verify")
        fetched = run_burst_worker("fetch", **self.env)
        self.assertEqual(fetched.returncode, 0, fetched.stderr[-2000:])
        claim = Claim.objects.get(article__title="Recovery verify")
        self.assertEqual(claim.verify_state, Claim.State.QUEUED)

        worker = self.start_worker("verify", "--worker-class", "sideapp.worker.SideModelWorker")
        wait_for(lambda: self.started("verify") >= 1, what="the verify job to start")
        self.kill(worker)
        claim.refresh_from_db()
        self.assertEqual((claim.verify_state, claim.verdict, claim.score), (Claim.State.QUEUED, "", None))
        self.assertFalse(ClaimCitation.objects.filter(claim=claim).exclude(verdict="").exists())

        restarted = run_burst_worker("verify", "--worker-class", "sideapp.worker.SideModelWorker", **self.env)
        self.assertEqual(restarted.returncode, 0, restarted.stderr[-2000:])
        claim.refresh_from_db()
        self.assertEqual(claim.verify_state, Claim.State.DONE, claim.verify_reason)
        self.assertIn(claim.verdict, ["supported", "partially_supported", "not_supported"])

    def test_a_scan_killed_mid_article_writes_no_partial_revision_and_is_redone(self):
        refs = "".join(f"Fact {n} holds.<ref>{{{{cite web|url=https://example.org/{n}}}}}</ref>\n\n" for n in range(1500))
        self.wiki.edit("Recovery scan", refs)
        job = self.scan(["Recovery scan"])
        worker = self.start_worker("scan")
        wait_for(lambda: ScanItem.objects.filter(job=job, status="running").exists(), what="the scan to start")
        self.kill(worker)
        item = job.items.get()
        revisions = Revision.objects.filter(article__title="Recovery scan")
        if item.status == ScanItem.Status.RUNNING:  # killed mid-way: nothing half-written
            self.assertFalse(revisions.exists())
            self.assertFalse(Claim.objects.filter(article__title="Recovery scan").exists())

        restarted = run_burst_worker("scan", **self.env)
        self.assertEqual(restarted.returncode, 0, restarted.stderr[-2000:])
        item.refresh_from_db()
        self.assertEqual(item.status, ScanItem.Status.DONE, item.reason)
        revision = revisions.get()
        self.assertEqual(revision.claim_count, 1500)
        self.assertEqual(revision.revision_claims.count(), 1500)
