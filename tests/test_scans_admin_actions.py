"""Admins cancel a running scan and re-run a failed or partial one; the scan page lists
which sources failed and why, in words."""
from __future__ import annotations

import django_rq
from django.test import Client, TestCase
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import Claim
from sideapp.models import AuditEntry, ScanItem, ScanJob, Wiki
from sideapp.pipeline.stages import scan_job_refresh
from sideapp.scans.services import scan_cancel, scan_request, scan_rerun
from sideapp.sources.models import Source
from tests.users import CastMixin


def audit_lines() -> list[tuple]:
    return list(AuditEntry.objects.order_by("pk").values_list("action", "user__username", "detail"))


class ScanCancelAndRerunTests(CastMixin, TestCase):
    def setUp(self):
        super().setUp()
        self.wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        for name in ("scan", "default"):
            django_rq.get_queue(name).empty()

    def admin(self) -> Client:
        return self.client_for("admin")

    def titles_job(self, *titles: str) -> ScanJob:
        return scan_request(wiki=self.wiki, kind=ScanJob.Kind.TITLES, titles=list(titles), enqueue=False)

    def test_a_scan_started_from_the_page_is_in_the_audit_log(self):
        response = self.admin().post(reverse("scan_list"), {"wiki": self.wiki.api_url, "kind": "titles",
                                                           "titles": "Kell Bridge"})
        job = ScanJob.objects.get()
        self.assertRedirects(response, reverse("scan_detail", args=[job.pk]))
        self.assertEqual(audit_lines(), [("scan_start", "ada_admin", f"scan {job.pk}")])

    def test_cancelling_stops_queued_articles_and_a_late_finish_does_not_undo_it(self):
        job = self.titles_job("A", "B")
        job.items.filter(title="A").update(status=ScanItem.Status.RUNNING)
        response = self.admin().post(reverse("scan_cancel", args=[job.pk]))
        self.assertRedirects(response, reverse("scan_detail", args=[job.pk]))
        job.refresh_from_db()
        self.assertEqual((job.status, job.reason), ("cancelled", "cancelled by ada_admin"))
        b = job.items.get(title="B")
        self.assertEqual(b.status, ScanItem.Status.CANCELLED)
        self.assertFalse(b.take())  # its queued job, when a worker gets to it, does nothing
        job.items.filter(title="A").update(status=ScanItem.Status.DONE)
        scan_job_refresh(job=job)
        self.assertEqual(ScanJob.objects.get(pk=job.pk).status, "cancelled")
        self.assertFalse(scan_cancel(job=job))
        self.assertEqual(audit_lines(), [("scan_cancel", "ada_admin", f"scan {job.pk}")])  # the refused one: none

    def test_a_rerun_retries_failed_articles_and_unreadable_sources(self):
        job = self.titles_job("Kell Bridge", "Gone")
        article, (claim,) = article_with_claims("Kell Bridge", [
            ClaimRow("It opened in 1931.", "source_unavailable", 0.0, cited_url="http://dead.test/x")])
        source = Source.objects.create(normalized_url="http://dead.test/x", url="http://dead.test/x",
                                       status=Source.Status.HTTP_ERROR, http_status=404)
        article.citations.update(source=source)
        job.items.filter(title="Kell Bridge").update(status=ScanItem.Status.DONE, article=article,
                                                     revision=article.current_revision)
        job.items.filter(title="Gone").update(status=ScanItem.Status.FAILED, reason="the page does not exist")
        job.finish(ScanJob.Status.PARTIAL, "1 of 2 articles failed")
        page = self.admin().get(reverse("scan_detail", args=[job.pk]))
        self.assertContains(page, "the page is no longer on the site (HTTP 404)")
        with self.captureOnCommitCallbacks(execute=True):
            response = self.admin().post(reverse("scan_rerun", args=[job.pk]))
        again = ScanJob.objects.exclude(pk=job.pk).get()
        self.assertRedirects(response, reverse("scan_detail", args=[again.pk]))
        self.assertEqual(sorted(again.params["titles"]), ["Gone", "Kell Bridge"])
        self.assertEqual(django_rq.get_queue("scan").count, 2)
        source.refresh_from_db()
        self.assertEqual((source.status, source.fetched_at), (Source.Status.PENDING, None))
        self.assertEqual(Claim.objects.get(pk=claim.pk).verify_state, Claim.State.PENDING)
        self.assertEqual(audit_lines(), [("scan_rerun", "ada_admin", f"scan {again.pk} retries scan {job.pk}")])

    def test_a_clean_finished_scan_runs_again_whole_and_an_open_one_cannot(self):
        job = self.titles_job("A", "B")
        with self.assertRaises(ValueError):
            scan_rerun(job=job)
        job.items.update(status=ScanItem.Status.DONE)
        job.finish(ScanJob.Status.DONE)
        self.assertEqual(sorted(scan_rerun(job=job).params["titles"]), ["A", "B"])

    def test_a_category_scan_that_never_listed_its_articles_is_asked_again(self):
        job = scan_request(wiki=self.wiki, kind=ScanJob.Kind.CATEGORY, category="Bridges", enqueue=False)
        job.finish(ScanJob.Status.FAILED, "the wiki did not answer after 3 tries")
        again = scan_rerun(job=job)
        self.assertEqual((again.kind, again.params["category"]), ("category", "Bridges"))

    def test_only_admins_cancel_or_rerun(self):
        job = self.titles_job("A")
        for role in ("editor", "annotator", "nobody"):
            client = self.client_for(role)
            for name in ("scan_cancel", "scan_rerun"):
                self.assertEqual(client.post(reverse(name, args=[job.pk])).status_code, 403)
        self.assertEqual(self.admin().get(reverse("scan_cancel", args=[job.pk])).status_code, 405)
        self.assertEqual(ScanJob.objects.get(pk=job.pk).status, ScanJob.Status.QUEUED)


class PeopleTests(CastMixin, TestCase):


    def test_an_admin_adds_a_person_with_roles_and_changes_them(self):
        from django.contrib.auth.models import User

        admin = self.client_for("admin")
        admin.post(reverse("people"), {"username": "newbie", "password": "long-enough-1", "roles": ["annotator"]})
        user = User.objects.get(username="newbie")
        self.assertEqual([g.name for g in user.groups.all()], ["annotator"])
        self.assertTrue(Client().login(username="newbie", password="long-enough-1"))
        admin.post(reverse("people"), {"username": "newbie", "roles": ["editor", "annotator"]})
        self.assertEqual(sorted(g.name for g in user.groups.all()), ["annotator", "editor"])
        self.assertTrue(Client().login(username="newbie", password="long-enough-1"))

    def test_a_new_person_needs_a_password_and_only_admins_manage_people(self):
        response = self.client_for("admin").post(reverse("people"), {"username": "nopass", "roles": ["editor"]})
        self.assertContains(response, "a new person needs a password")
        for role in ("editor", "annotator", "nobody"):
            self.assertEqual(self.client_for(role).get(reverse("people")).status_code, 403)
            self.client_for(role).post(reverse("people"), {"username": "x", "password": "long-enough-1"})
        from django.contrib.auth.models import User
        self.assertFalse(User.objects.filter(username__in=["nopass", "x"]).exists())
