"""The stage table: one declaration that dispatch, progress and recovery read."""
from __future__ import annotations

from django.conf import settings
from django.test import SimpleTestCase

from sideapp.pipeline.names import QUEUES, StageName
from sideapp.pipeline.stages import STAGES
from sideapp.scans.models import ScanJob


class StageTableTests(SimpleTestCase):
    def test_every_stage_name_has_exactly_one_entry_in_pipeline_order(self):
        self.assertEqual(list(STAGES), list(StageName))

    def test_the_queues_settings_serve_are_the_queues_stages_use(self):
        self.assertEqual(set(settings.RQ_QUEUES), set(QUEUES))
        self.assertEqual({s.queue for s in STAGES.values()}, set(QUEUES))

    def test_job_functions_are_distinct_and_live_in_the_stage_module(self):
        names = [f"{s.job.__module__}.{s.job.__qualname__}" for s in STAGES.values()]
        self.assertEqual(len(set(names)), len(names))
        self.assertTrue(all(n.startswith("sideapp.pipeline.stages.") for n in names))

    def test_recovery_can_tell_when_each_unfinished_row_was_handed_on(self):
        for stage in STAGES.values():
            if stage.unfinished is not None:
                model = stage.unfinished().model
                self.assertIn(stage.since, {f.name for f in model._meta.get_fields()}, stage.name)

    def test_the_stages_that_report_into_a_scan_are_scan_fetch_verify_suggest(self):
        reporting = [s.name for s in STAGES.values() if s.progress]
        self.assertEqual(reporting, [StageName.SCAN, StageName.FETCH, StageName.VERIFY, StageName.SUGGEST])


class ScanOutcomeTests(SimpleTestCase):
    def progress(self, scan=(3, 3, 0), fetch=(4, 4, 0), verify=(9, 9, 0), suggest=(2, 2, 0)) -> dict:
        names = (StageName.SCAN, StageName.FETCH, StageName.VERIFY, StageName.SUGGEST)
        return {n: dict(zip(("done", "total", "failed"), v)) for n, v in zip(names, (scan, fetch, verify, suggest))}

    def test_a_scan_with_work_left_has_no_outcome_yet(self):
        self.assertIsNone(ScanJob().outcome(self.progress(verify=(8, 9, 0))))
        self.assertIsNone(ScanJob().outcome(self.progress(scan=(0, 0, 0))))

    def test_a_scan_where_everything_ended_well_is_done(self):
        self.assertEqual(ScanJob().outcome(self.progress()), (ScanJob.Status.DONE, ""))

    def test_failures_of_some_articles_or_claims_make_it_partial_with_the_counts(self):
        status, reason = ScanJob().outcome(self.progress(scan=(3, 3, 1), suggest=(2, 2, 2)))
        self.assertEqual(status, ScanJob.Status.PARTIAL)
        self.assertEqual(reason, "1 of 3 articles failed; 2 suggestion searches failed")

    def test_a_scan_whose_every_article_failed_failed(self):
        self.assertEqual(ScanJob().outcome(self.progress(scan=(3, 3, 3))),
                         (ScanJob.Status.FAILED, "none of the 3 articles could be scanned"))

    def test_counts_of_one_are_said_in_the_singular(self):
        status, reason = ScanJob().outcome(self.progress(verify=(9, 9, 1), suggest=(2, 2, 1)))
        self.assertEqual((status, reason), (ScanJob.Status.PARTIAL,
                                            "1 claim could not be verified; 1 suggestion search failed"))
        self.assertEqual(ScanJob().outcome(self.progress(scan=(1, 1, 1))),
                         (ScanJob.Status.FAILED, "the article could not be scanned"))


class DatabaseGoneTests(SimpleTestCase):
    """A job cut by the database going away (a restart) is not the row's failure: the job
    fails for RQ, the row stays unfinished and recovery puts it back (docs/reliability.md)."""

    def stage(self, error: Exception):
        from dataclasses import replace

        from sideapp.pipeline.stages import STAGES

        failed = []

        def run(row):
            raise error

        verify = STAGES[StageName.VERIFY]
        return replace(verify, load=lambda pk: object(), run=run, then=None,
                       on_error=lambda row, exc: failed.append(exc)), failed

    def test_a_lost_database_connection_fails_the_job_not_the_row(self):
        from django.db import InterfaceError, OperationalError

        from sideapp.pipeline.dispatch import execute

        for error in (OperationalError("server closed the connection unexpectedly"), InterfaceError("closed")):
            stage, failed = self.stage(error)
            with self.assertRaises(type(error)):
                execute(stage, 1)
            self.assertEqual(failed, [])

    def test_any_other_error_ends_as_the_row_s_state(self):
        from sideapp.pipeline.dispatch import execute

        stage, failed = self.stage(ValueError("the page is odd"))
        self.assertEqual(execute(stage, 1), "failed")
        self.assertEqual([str(e) for e in failed], ["the page is odd"])
