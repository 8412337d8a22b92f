"""The start page leads each role to its next step; staff find the Django admin."""
from __future__ import annotations

from django.test import TestCase, override_settings

from harness.claims import ClaimRow, article_with_claims
from tests import annotation_support as support
from tests.users import CastMixin


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class HomePageTests(CastMixin, TestCase):
    def test_an_annotator_is_led_to_the_next_item(self):
        support.bulk_items(2)
        html = self.client_for("annotator").get("/").content.decode()
        self.assertIn("2 items wait for your judgement", html)
        self.assertIn('href="/annotate/">Start with the next item</a>', html)
        self.assertNotIn("claims in", html)  # the editors' figures are not theirs

    def test_an_annotator_with_nothing_waiting_is_told_so(self):
        response = self.client_for("annotator").get("/")
        self.assertContains(response, "No item waits for you right now")
        self.assertNotContains(response, "Start with the next item")

    def test_an_editor_is_led_to_the_flagged_list_with_its_size(self):
        article_with_claims("Kell Bridge", [ClaimRow("The viaduct opened in 1931."),
                                            ClaimRow("It has nine arches.", verdict="supported", score=0.9)])
        html = self.client_for("editor").get("/").content.decode()
        self.assertIn("1 claim is flagged for you, of 2 claims in 1 scanned article.", " ".join(html.split()))
        self.assertIn('href="/claims/">Open the flagged list</a>', html)
        self.assertNotIn("Start with the next item", html)

    def test_someone_without_a_role_reads_why_there_is_nothing_to_do(self):
        self.assertContains(self.client_for("nobody").get("/"), "Your account has no role yet")

    def test_staff_find_the_django_admin_in_the_header_and_others_do_not(self):
        self.assertNotContains(self.client_for("admin").get("/"), "Django admin")
        self.users["admin"].is_staff = True
        self.users["admin"].save()
        self.assertContains(self.client_for("admin").get("/"), '<a href="/admin/">Django admin</a>', html=True)
