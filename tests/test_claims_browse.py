"""The editors' flagged list: filters, search over claim text, sorts, shareable URLs, and a
query count that does not grow with the rows shown."""
from __future__ import annotations

from django.db import connection
from django.test import Client, TestCase, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import ClaimReview
from tests.users import PASSWORD, cast


def listed(response) -> list[str]:
    return [claim.text for claim in response.context["page"]]


class ClaimListFilterTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        _, cls.bridge = article_with_claims("Kell Bridge", [
            ClaimRow("The viaduct opened in 1931.", "not_supported", 0.10, ["History"], cited_url="http://a.test/1",
                     suggestion_url="http://b.test/1", better=True),
            ClaimRow("It has nine arches.", "partially_supported", 0.40, ["Design"], cited_url="http://a.test/2"),
            ClaimRow("It is listed.", "supported", 0.95, ["Design"], cited_url="http://a.test/3"),
            ClaimRow("It was painted in 1990.", "", None, ["History", "Later"], needs_citation=True),
        ])
        _, cls.mill = article_with_claims("Old Mill", [
            ClaimRow("The mill burned down.", "source_unavailable", 0.0, ["Fire"], cited_url="http://a.test/4"),
        ])

    def setUp(self):
        self.users = cast()
        self.client = Client()
        self.client.login(username=self.users["editor"].username, password=PASSWORD)

    def get(self, **params):
        return self.client.get(reverse("claim_list"), params)

    def test_the_default_list_is_flagged_claims_weakest_first(self):
        self.assertEqual(listed(self.get()), ["It was painted in 1990.", "The viaduct opened in 1931."])

    def test_sources_that_could_not_be_read_have_their_own_list_and_not_the_flagged_one(self):
        self.assertNotIn("The mill burned down.", listed(self.get()))
        response = self.get(show="unavailable")
        self.assertEqual(listed(response), ["The mill burned down."])
        self.assertContains(response, "Sources that could not be read")

    def test_partial_support_sits_in_needs_a_look_not_in_the_flagged_list(self):
        self.assertEqual(listed(self.get(show="needs_look")), ["It has nine arches."])

    def test_search_finds_words_of_a_claim_not_only_titles(self):
        self.assertEqual(listed(self.get(q="viaduct")), ["The viaduct opened in 1931."])
        self.assertEqual(listed(self.get(q="mill", show="all")), ["The mill burned down."])

    def test_a_search_with_no_flagged_match_points_to_the_checked_claims_that_match(self):
        response = self.get(q="listed")
        self.assertEqual(listed(response), [])
        self.assertContains(response, "1 checked claim contains these words")
        self.assertContains(response, "show=all")

    def test_each_filter_narrows_the_list(self):
        self.assertEqual(listed(self.get(article="bridge", verdict="partially_supported", show="all")),
                         ["It has nine arches."])
        self.assertEqual(listed(self.get(section="later")), ["It was painted in 1990."])
        self.assertEqual(listed(self.get(needs_source="on")), ["It was painted in 1990."])
        self.assertEqual(listed(self.get(better="on")), ["The viaduct opened in 1931."])
        self.assertEqual(listed(self.get(show="unavailable")), ["The mill burned down."])
        self.assertEqual(len(listed(self.get(show="all"))), 5)

    def test_sorting_by_article_groups_an_articles_claims(self):
        titles = [c.article.title for c in self.get(sort="article", show="all").context["page"]]
        self.assertEqual(titles, ["Kell Bridge"] * 4 + ["Old Mill"])

    def test_a_malformed_filter_falls_back_to_the_default_list(self):
        self.assertEqual(listed(self.get(show="nonsense", sort="x")), listed(self.get()))

    def test_claims_i_dismissed_leave_my_list_but_not_my_colleagues(self):
        viaduct = self.bridge[0]
        ClaimReview.objects.create(claim=viaduct, user=self.users["editor"], kind="dismissed", reason="claim_fine")
        self.assertNotIn(viaduct.text, listed(self.get()))
        self.assertEqual(listed(self.get(show="reviewed")), [viaduct.text])
        colleague = Client()
        colleague.login(username=self.users["admin"].username, password=PASSWORD)
        response = colleague.get(reverse("claim_list"))
        self.assertIn(viaduct.text, listed(response))
        self.assertContains(response, "1 editor judged this")

    def test_the_filter_state_is_in_the_pager_links(self):
        article = article_with_claims("Long", [ClaimRow(f"Claim {n}.", score=n / 100) for n in range(60)])
        self.assertEqual(len(article[1]), 60)
        response = self.get(article="long")
        self.assertEqual(len(listed(response)), 50)
        self.assertContains(response, "article=long&amp;page=2")

    def test_a_later_page_shows_its_own_rows_in_order_with_their_reviews(self):
        _, claims = article_with_claims("Long", [ClaimRow(f"Claim {n}.", score=n / 100) for n in range(60)])
        ClaimReview.objects.create(claim=claims[55], user=self.users["admin"], kind="verified")
        second = self.get(article="long", page=2)
        self.assertEqual(listed(second), [f"Claim {n}." for n in range(50, 60)])
        self.assertContains(second, "1 editor judged this", count=1)

    @override_settings(SIDE_LIST_COUNT_CAP=100)
    def test_a_long_list_counts_up_to_a_cap_and_every_page_past_it_still_opens(self):
        article_with_claims("Long", [ClaimRow(f"Claim {n}.", score=n / 1000) for n in range(130)])
        first = self.get(article="long")
        self.assertContains(first, "More than 100 claims, page 1")
        self.assertContains(first, "article=long&amp;page=2")
        third = self.get(article="long", page=3)  # past the cap: counted further
        self.assertEqual(listed(third), [f"Claim {n}." for n in range(100, 130)])
        self.assertContains(third, "130 claims, page 3 of 3")

    @override_settings(SIDE_LIST_COUNT_CAP=100)
    def test_a_long_search_counts_up_to_the_cap_best_match_first_and_every_page_opens(self):
        article_with_claims("Long", [ClaimRow(f"Claim {n} of the weir." if n % 7 else f"Weir claim {n}, of the weir.",
                                              score=n / 1000) for n in range(130)])
        first = self.get(q="weir")
        self.assertContains(first, "More than 100 claims, page 1")
        self.assertEqual(listed(first)[:2], ["Weir claim 0, of the weir.", "Weir claim 7, of the weir."])  # twice the word
        third = self.get(q="weir", page=3)  # past the cap: counted further
        self.assertEqual(len(listed(third)), 30)
        self.assertContains(third, "130 claims, page 3 of 3")

    def test_htmx_gets_the_rows_only_and_the_answer_varies_on_it(self):
        response = self.client.get(reverse("claim_list"), {"q": "viaduct"}, HTTP_HX_REQUEST="true")
        self.assertNotContains(response, "<html")
        self.assertIn("HX-Request", response["Vary"])
        restore = self.client.get(reverse("claim_list"), HTTP_HX_REQUEST="true",
                                  HTTP_HX_HISTORY_RESTORE_REQUEST="true")
        self.assertContains(restore, "<html")

    def test_verdicts_are_words_and_scores_sit_in_a_tooltip(self):
        response = self.get()
        self.assertContains(response, "not supported")
        self.assertNotContains(response, "notsupported")
        self.assertContains(response, 'title="strength of support: verifier score 0.10 of 1"')
        self.assertContains(response, "needs a source")


class ClaimListQueryCountTests(TestCase):
    def query_count(self, client) -> int:
        with CaptureQueriesContext(connection) as queries:
            self.assertEqual(client.get(reverse("claim_list"), {"show": "all"}).status_code, 200)
        return len(queries)

    def test_the_number_of_queries_does_not_grow_with_the_rows(self):
        users = cast()
        client = Client()
        client.login(username=users["editor"].username, password=PASSWORD)
        article_with_claims("Few", [ClaimRow(f"Few {n}.") for n in range(3)])
        few = self.query_count(client)
        _, many = article_with_claims("Many", [ClaimRow(f"Many {n}.") for n in range(45)])
        for claim in many[:10]:
            ClaimReview.objects.create(claim=claim, user=users["admin"], kind="verified")
        self.assertEqual(self.query_count(client), few)

    def test_the_claim_page_reads_a_constant_number_of_queries(self):
        users = cast()
        client = Client()
        client.login(username=users["editor"].username, password=PASSWORD)

        def claim_page_queries(claim) -> int:
            with CaptureQueriesContext(connection) as queries:
                self.assertEqual(client.get(reverse("claim_detail", args=[claim.pk])).status_code, 200)
            return len(queries)

        _, (small,) = article_with_claims("Small", [ClaimRow("Small.", cited_url="http://a.test/s",
                                                             suggestion_url="http://b.test/s")])
        _, (big,) = article_with_claims("Big", [ClaimRow("Big.", cited_url="http://a.test/b",
                                                         suggestion_url="http://b.test/b")])
        for rank in range(2, 6):
            big.suggestions.create(rank=rank, url=f"http://b.test/{rank}", score=0.5, verdict="supported")
        for user in users.values():
            ClaimReview.objects.create(claim=big, user=user, kind="verified")
        self.assertEqual(claim_page_queries(big), claim_page_queries(small))
