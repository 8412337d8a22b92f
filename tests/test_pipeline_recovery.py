"""A worker killed with SIGKILL in the middle of a job: no partial rows, work redone.
And the other side of recovery: work that is queued or running is never done twice."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

from collections import Counter

import django_rq
import psutil
import psycopg
from django.db import connection
from rq.job import Job
from rq.registry import FinishedJobRegistry, StartedJobRegistry

from harness.demo import demo_pages
from sideapp.models import Claim, ClaimCitation, Revision, ScanItem, ScanJob, Source, SourceDocument
from sideapp.pipeline.names import QUEUES
from tests.pipeline_support import DEMO_TITLES, MODEL_WORKER, PipelineTestCase
from tests.wiki_support import scan_titles
from tests.worker_support import ROOT, run_burst_worker, worker_command, worker_env


SLOW = "/slow/dlhs-flood-1929.html"


def wait_for(condition, timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@contextlib.contextmanager
def table_locked(table: str):
    """Another connection holds `table` in SHARE mode: a worker's transaction that writes
    to it waits there, mid-transaction, until the lock is released. So a kill lands in the
    middle of a write, every time."""
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                         password=db["PASSWORD"] or None, dbname=db["NAME"]) as other:
        other.execute(f"LOCK TABLE {table} IN SHARE MODE")
        try:
            yield
        finally:
            other.rollback()


def _locks(condition: str, table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM pg_locks WHERE relation = %s::regclass AND {condition}", [table])
        return cursor.fetchone()[0]


def waiting_to_write(table: str) -> bool:
    """A worker's transaction is blocked on writing to `table`."""
    return _locks("NOT granted", table) > 0


def revision_being_written() -> bool:
    """A transaction of another connection has inserted a revision and not yet ended:
    PostgreSQL holds its table lock until commit or rollback."""
    return _locks("mode = 'RowExclusiveLock' AND granted AND pid <> pg_backend_pid()", "sideapp_revision") > 0


class WorkerProcessesTestCase(PipelineTestCase):
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


class KilledWorkerTests(WorkerProcessesTestCase):
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

        with table_locked("sideapp_claimcitation"):
            worker = self.start_worker("verify", "--worker-class", MODEL_WORKER)
            wait_for(lambda: waiting_to_write("sideapp_claimcitation"), timeout=300,
                     what="the verification to store its verdicts")
            self.kill(worker)
        claim.refresh_from_db()
        self.assertEqual((claim.verify_state, claim.verdict, claim.score), (Claim.State.QUEUED, "", None))
        self.assertFalse(ClaimCitation.objects.filter(claim=claim).exclude(verdict="").exists())

        restarted = run_burst_worker("verify", "--worker-class", MODEL_WORKER, **self.env)
        self.assertEqual(restarted.returncode, 0, restarted.stderr[-2000:])
        claim.refresh_from_db()
        self.assertEqual(claim.verify_state, Claim.State.DONE, claim.verify_reason)
        self.assertIn(claim.verdict, ["supported", "partially_supported", "not_supported"])

    def test_a_scan_killed_mid_article_writes_no_partial_revision_and_is_redone(self):
        refs = "".join(f"Fact {n} holds.<ref>{{{{cite web|url=https://example.org/{n}}}}}</ref>\n\n" for n in range(1500))
        self.wiki.edit("Recovery scan", refs)
        job = self.scan(["Recovery scan"])
        with table_locked("sideapp_source"):
            worker = self.start_worker("scan")
            wait_for(lambda: waiting_to_write("sideapp_source"), timeout=300, what="the scan to write sources")
            self.assertTrue(revision_being_written())
            self.kill(worker)
        item = job.items.get()
        self.assertEqual(item.status, ScanItem.Status.RUNNING)
        revisions = Revision.objects.filter(article__title="Recovery scan")
        self.assertFalse(revisions.exists())  # killed mid-transaction: nothing half-written
        self.assertFalse(Claim.objects.filter(article__title="Recovery scan").exists())

        restarted = run_burst_worker("scan", **self.env)
        self.assertEqual(restarted.returncode, 0, restarted.stderr[-2000:])
        item.refresh_from_db()
        self.assertEqual(item.status, ScanItem.Status.DONE, item.reason)
        revision = revisions.get()
        self.assertEqual(revision.claim_count, 1500)
        self.assertEqual(revision.revision_claims.count(), 1500)


class LiveWorkTests(WorkerProcessesTestCase):
    """Workers that start after a scan was queued, recovering every second while they
    work (as the demo's two workers do at start), must not run any job twice."""

    def executions(self) -> Counter:
        runs = Counter()
        for name in QUEUES:
            queue = django_rq.get_queue(name)
            for job in Job.fetch_many(FinishedJobRegistry(queue=queue).get_job_ids(), connection=queue.connection):
                if job is not None:
                    runs[(job.func_name, job.args[0] if job.args else None)] += 1
        return runs

    def forget_earlier_executions(self) -> None:
        # Redis outlives each test; only this test's runs may be counted.
        for name in QUEUES:
            queue = django_rq.get_queue(name)
            queue.connection.delete(FinishedJobRegistry(queue=queue).key)

    def run_scan_with_busy_recovery(self, job: ScanJob) -> ScanJob:
        self.forget_earlier_executions()
        often = {"SIDE_RECOVERY_INTERVAL": "1"}
        self.start_worker("scan", "fetch", "default", **often)
        self.start_worker("verify", "--worker-class", MODEL_WORKER, **often)
        wait_for(lambda: ScanJob.objects.get(pk=job.pk).status not in ScanJob.OPEN,
                 timeout=600, what="the scan to finish")
        job.refresh_from_db()
        return job

    def assert_each_job_ran_once(self, job: ScanJob) -> None:
        self.assertEqual(job.status, ScanJob.Status.DONE, job.reason)
        items = list(job.items.all())
        self.assertEqual({i.status for i in items}, {ScanItem.Status.DONE}, [i.reason for i in items])
        self.assertEqual({i.attempts for i in items}, {1})
        runs = self.executions()
        twice = {key: n for key, n in runs.items() if n > 1 and key[0] != "sideapp.pipeline.stages.corpus_job"}
        self.assertEqual(twice, {})
        scanned = {key[1] for key in runs if key[0] == "sideapp.pipeline.stages.scan_job"}
        self.assertEqual(scanned, {i.pk for i in items})

    def test_a_queued_scan_of_titles_runs_each_job_once(self):
        job = self.scan(DEMO_TITLES[:2])  # the category scan below takes all of them
        self.assert_each_job_ran_once(self.run_scan_with_busy_recovery(job))

    def test_a_queued_category_scan_runs_each_job_once(self):
        from sideapp.scans.services import scan_request
        from sideapp.models import Wiki

        wiki, _ = Wiki.objects.get_or_create(api_url=self.wiki.api_url)
        job = scan_request(wiki=wiki, kind=ScanJob.Kind.CATEGORY, category="Demo articles")
        job = self.run_scan_with_busy_recovery(job)
        self.assertEqual(job.items.count(), len(demo_pages()))  # every demo article, Kellhaven Harbour too
        self.assert_each_job_ran_once(job)
