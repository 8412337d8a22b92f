"""The scans pages: only admins, CSRF on, a posted scan is queued on real Redis."""
from __future__ import annotations

import django_rq
from django.test import Client, TestCase
from django.urls import reverse

from sideapp.models import ScanItem, ScanJob, Wiki
from tests.users import PASSWORD, cast


class ScanPageTests(TestCase):
    def setUp(self):
        self.users = cast()
        django_rq.get_queue("scan").empty()

    def login(self, role: str, **kwargs) -> Client:
        client = Client(**kwargs)
        self.assertTrue(client.login(username=self.users[role].username, password=PASSWORD))
        return client

    def test_anonymous_visitors_are_sent_to_the_login_page(self):
        response = self.client.get(reverse("scan_list"))
        self.assertRedirects(response, f"{reverse('login')}?next={reverse('scan_list')}")

    def test_editors_and_annotators_may_not_see_or_start_scans(self):
        for role in ("editor", "annotator", "nobody"):
            self.assertEqual(self.login(role).get(reverse("scan_list")).status_code, 403, role)
            response = self.login(role).post(reverse("scan_list"), {"kind": "titles", "titles": "X"})
            self.assertEqual(response.status_code, 403, role)
        self.assertFalse(ScanJob.objects.exists())

    def test_an_admin_starts_a_scan_which_is_queued_after_commit(self):
        with self.captureOnCommitCallbacks(execute=True):
            response = self.login("admin").post(
                reverse("scan_list"), {"kind": "titles", "titles": "River Arle\nKellhaven Lighthouse\n"})
        job = ScanJob.objects.get()
        self.assertRedirects(response, reverse("scan_detail", args=[job.pk]))
        self.assertEqual(sorted(job.items.values_list("title", flat=True)), ["Kellhaven Lighthouse", "River Arle"])
        self.assertEqual(job.created_by, self.users["admin"])
        self.assertEqual(django_rq.get_queue("scan").count, 2)

    def test_a_scan_form_without_titles_is_refused_with_a_message(self):
        response = self.login("admin").post(reverse("scan_list"), {"kind": "titles", "titles": "  "})
        self.assertContains(response, "Give at least one title.")
        self.assertFalse(ScanJob.objects.exists())

    def test_posting_without_a_csrf_token_is_refused(self):
        client = self.login("admin", enforce_csrf_checks=True)
        response = client.post(reverse("scan_list"), {"kind": "titles", "titles": "X"})
        self.assertEqual(response.status_code, 403)
        self.assertFalse(ScanJob.objects.exists())

    def test_the_status_fragment_is_served_to_htmx_and_escapes_article_titles(self):
        with self.captureOnCommitCallbacks(execute=True):
            self.login("admin").post(reverse("scan_list"), {"kind": "titles", "titles": "<script>x</script>"})
        job = ScanJob.objects.get()
        response = self.login("admin").get(reverse("scan_detail", args=[job.pk]), HTTP_HX_REQUEST="true")
        self.assertContains(response, 'id="scan-status"')
        self.assertNotContains(response, "<html")
        self.assertContains(response, "&lt;script&gt;x&lt;/script&gt;")
        self.assertNotContains(response, "<script>x</script>")

    def test_the_scan_page_says_where_the_scan_stands_not_that_it_was_queued(self):
        admin = self.login("admin")
        with self.captureOnCommitCallbacks(execute=True):
            response = admin.post(reverse("scan_list"), {"kind": "titles", "titles": "River Arle"}, follow=True)
        html = " ".join(response.content.decode().split())
        self.assertIn('<span class="status queued">Queued</span> <span class="scan-reason">Waiting for a worker', html)
        job = ScanJob.objects.get()
        self.assertNotIn(f"Scan {job.pk} queued", html)  # a banner that would outlive the state
        ScanItem.objects.filter(job=job).update(status=ScanItem.Status.DONE)
        job.finish(ScanJob.Status.DONE)
        done = admin.get(reverse("scan_detail", args=[job.pk]), HTTP_HX_REQUEST="true").content.decode()
        self.assertIn("1 article read and their claims checked.", done)
        self.assertIn("Scan these articles again", done)
        self.assertNotIn("hx-trigger", done)  # the page stops asking once the scan has ended

    def test_a_scan_that_never_got_its_list_shows_one_status_and_no_empty_table(self):
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php")
        for status, reason in ((ScanJob.Status.FAILED, "Category:Nope does not exist on the wiki"),
                               (ScanJob.Status.DONE, "nothing to scan: Category:Empty has no articles")):
            job = ScanJob.objects.create(wiki=wiki, kind=ScanJob.Kind.CATEGORY, params={"category": "Nope"})
            job.finish(status, reason)
            html = self.login("admin").get(reverse("scan_detail", args=[job.pk])).content.decode()
            self.assertIn(reason[0].upper() + reason[1:] + ".", html)
            self.assertNotIn("Waiting for the list of articles", html)
            self.assertNotIn("Scan these articles again", html)
            self.assertIn("Ask the wiki again", html)
