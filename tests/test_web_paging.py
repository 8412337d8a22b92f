"""Page numbers from the address bar: whatever number is asked for, a list answers with a page
of itself (the last one when the number is past the end), never a server error."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client, TestCase, override_settings
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from tests.users import PASSWORD, cast

# The number the trial typed: past PostgreSQL's bigint once multiplied by a page's rows.
HUGE = "922337203685477581"
NUMBERS = [HUGE, "9223372036854775807", "9223372036854775808", "9" * 40, "-" + HUGE, "0", "1e3", "3.0", "two"]


def listed(response) -> list[str]:
    return [claim.text for claim in response.context["page"]]


class ClaimListPageNumberTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        article_with_claims("Long", [ClaimRow(f"Claim {n} of the weir.", score=n / 100) for n in range(60)])

    def setUp(self):
        cast()
        self.client = Client()
        self.client.login(username="eve_editor", password=PASSWORD)

    def get(self, **params):
        return self.client.get(reverse("claim_list"), params)

    def test_a_page_number_past_the_end_shows_the_last_page(self):
        response = self.get(article="long", page=HUGE)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.context["page"].number, 2)
        self.assertEqual(listed(response), [f"Claim {n} of the weir." for n in range(50, 60)])
        self.assertContains(response, "60 claims, page 2 of 2")

    def test_a_search_with_a_page_number_past_the_end_shows_its_last_page(self):
        response = self.get(q="weir", page=HUGE)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.context["page"].number, 2)
        self.assertEqual(len(listed(response)), 10)

    def test_no_page_number_of_any_size_or_shape_is_a_server_error(self):
        for number in NUMBERS:
            for params in ({"page": number}, {"page": number, "q": "weir"}, {"page": number, "show": "all"}):
                with self.subTest(**params):
                    response = self.get(**params)
                    self.assertEqual(response.status_code, 200)
                    self.assertIn(response.context["page"].number, (1, 2))

    @override_settings(SIDE_LIST_COUNT_CAP=20)
    def test_past_the_cap_a_huge_page_number_is_still_the_last_page(self):
        response = self.get(article="long", page=HUGE)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.context["page"].number, 2)
        self.assertContains(response, "60 claims, page 2 of 2")


class AdminListPageNumberTests(TestCase):
    """Django's admin lists (the audit log among them) page with `p`."""

    def test_admin_lists_answer_a_huge_page_number_without_a_server_error(self):
        article_with_claims("Long", [ClaimRow(f"Claim {n}.") for n in range(3)])
        User.objects.create_superuser("root", password=PASSWORD)
        client = Client()
        client.login(username="root", password=PASSWORD)
        for name in ("sideapp_claim", "sideapp_article", "sideapp_auditentry", "sideapp_scanjob"):
            for number in (HUGE, "9" * 40):
                with self.subTest(name=name, number=number):
                    response = client.get(reverse(f"admin:{name}_changelist"), {"p": number})
                    self.assertIn(response.status_code, (200, 302))
                    self.assertLess(response.status_code, 500)
