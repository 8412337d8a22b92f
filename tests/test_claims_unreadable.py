"""Sources that could not be read: out of the flagged list, in their own filter, each
reason a sentence with the fetcher's detail behind a toggle, and an archived copy where
the ref has one or the page was read before; the filter reads its own index."""
from __future__ import annotations

from django.db import connection
from django.test import TestCase
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims import selectors
from sideapp.claims.selectors import ClaimFilters
from sideapp.models import Citation
from tests.edits_support import read_source
from tests.users import CastMixin

ARCHIVED = "https://web.archive.org/web/2019/https://gone.example/mill"


class UnreadableSourcesListTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        _, cls.claims = article_with_claims("Old Mill", [
            ClaimRow("The mill burned down in 1911.", "source_unavailable", None, cited_url="https://gone.example/mill"),
            ClaimRow("The mill had six floors.", "source_unavailable", None, cited_url="https://big.example/floors"),
            ClaimRow("The mill was rebuilt in 1913.", "not_supported", 0.1, cited_url="https://read.example/rebuilt"),
        ])
        gone = read_source("https://gone.example/mill", status="dns_error")
        gone.reason = ("cannot resolve host 'gone.example': [Errno -2] Name or service not known; archive copy "
                       "also failed (http_error: HTTP 404 Not Found)")
        gone.save()
        Citation.objects.filter(url=gone.url).update(source=gone, archive_url=ARCHIVED)
        big = read_source("https://big.example/floors", "The mill had six floors, said the page then.")
        big.status, big.reason = "too_large", "body exceeds the cap of 10485760 bytes"
        big.save()
        Citation.objects.filter(url=big.url).update(source=big)

    def list(self, **params):
        return self.client_for("editor").get(reverse("claim_list"), params)

    def test_they_are_out_of_the_flagged_list_and_in_their_own(self):
        self.assertEqual([c.text for c in self.list().context["page"]], ["The mill was rebuilt in 1913."])
        self.assertEqual({c.text for c in self.list(show="unavailable").context["page"]},
                         {"The mill burned down in 1911.", "The mill had six floors."})

    def test_each_reason_is_a_sentence_with_the_technical_detail_behind_a_toggle(self):
        response = self.list(show="unavailable")
        self.assertContains(response, "the site&#x27;s address could not be found; its archived copy could "
                                      "not be read either")
        self.assertContains(response, "the page is larger than 10 MB")
        self.assertContains(response, "<summary>technical detail</summary><code>dns_error: cannot resolve host "
                                      "&#x27;gone.example&#x27;: [Errno -2]", html=False)
        html = response.content.decode()
        self.assertEqual(html.count("Errno"), html.count("<summary>technical detail</summary><code>dns_error"))

    def test_the_archived_copy_is_offered_from_the_ref_or_from_the_earlier_read(self):
        response = self.list(show="unavailable")
        self.assertContains(response, f'href="{ARCHIVED}"', html=False)
        self.assertRegex(response.content.decode(), r'href="https://web\.archive\.org/web/\d{8}/https://big\.example/floors"')

    def test_the_claim_page_says_it_in_words_with_the_detail_and_the_archived_copy(self):
        response = self.client_for("editor").get(reverse("claim_detail", args=[self.claims[0].pk]))
        self.assertContains(response, "the site&#x27;s address could not be found")
        self.assertContains(response, "<summary>Technical detail</summary>", html=False)
        self.assertContains(response, "read the archived copy")

    def test_the_filter_reads_its_own_partial_index(self):
        query = selectors.claim_list(filters=ClaimFilters(show="unavailable"), user=self.users["editor"])[:50]
        sql, params = query.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        self.assertIn("claim_unreadable", plan)
