"""What became of cited pages in the editors' lists, the findings API and the patrol rule:
dead with a copy (one click rescues it), dead without one, usurped, unreadable otherwise."""
from __future__ import annotations

from django.test import TestCase

from harness.claims import ClaimRow, article_with_claims
from sideapp.api.findings import archive_state
from sideapp.claims.models import ClaimCitation
from sideapp.claims.selectors import ClaimFilters, claim_list
from tests.users import CastMixin

COPY = {"read": "copy", "archive": "the Internet Archive", "timestamp": "20181121093000",
        "url": "https://web.archive.org/web/20181121093000/http://gz.example/dues",
        "words": "the Internet Archive's copy of 21 November 2018", "state": {"kind": "gone"}}


class ArchiveListsTests(CastMixin, TestCase):
    def setUp(self):
        super().setUp()
        _, claims = article_with_claims("Harbour", [
            ClaimRow("Dues rose by 4 per cent.", "supported", 0.9, cited_url="http://gz.example/dues"),
            ClaimRow("The ferry runs four times a day.", "source_unavailable", None, cited_url="http://h.example/f"),
            ClaimRow("The market opens at six.", "source_unavailable", None, cited_url="http://m.example/m"),
            ClaimRow("The pier is 300 m long.", "source_unavailable", None, cited_url="http://p.example/big.pdf"),
            ClaimRow("The breakwater dates from 1868.", "supported", 0.9, cited_url="http://h.example/b"),
        ])
        states = [("gone", COPY), ("home", None), ("usurped", None), ("unreadable", None),
                  ("live", {"read": "live", "words": "the live page, read on 27 November 2026"})]
        for claim, (state, copy) in zip(claims, states):
            ClaimCitation.objects.filter(claim=claim).update(page_state=state, copy=copy)
        self.claims = claims

    def listed(self, **filters) -> list[str]:
        return [c.text for c in claim_list(filters=ClaimFilters(**filters), user=self.users["editor"])]

    def test_the_unreadable_list_splits_by_what_became_of_the_page(self):
        self.assertEqual(self.listed(show="rescue"), ["Dues rose by 4 per cent."])
        self.assertEqual(self.listed(show="unavailable", dead="dead"), ["The ferry runs four times a day."])
        self.assertEqual(self.listed(show="unavailable", dead="usurped"), ["The market opens at six."])
        self.assertEqual(self.listed(show="unavailable", dead="other"), ["The pier is 300 m long."])
        self.assertEqual(len(self.listed(show="unavailable")), 3)

    def test_the_rescue_list_page_offers_the_archive_edit_in_one_click(self):
        page = self.client_for("editor").get("/claims/", {"show": "rescue"})
        self.assertContains(page, f'href="/claims/{self.claims[0].pk}/archive/"')
        self.assertNotContains(page, "The breakwater dates from 1868.")

    def test_findings_carry_the_page_state_and_the_copy_read(self):
        dead, live = (ClaimCitation.objects.get(claim=c) for c in (self.claims[0], self.claims[4]))
        self.assertEqual(archive_state(dead), {
            "page_state": "gone", "read": COPY["words"],
            "archive": {"url": COPY["url"], "timestamp": "20181121093000", "words": COPY["words"]}})
        self.assertEqual(archive_state(live), {"page_state": "live", "read": "the live page, read on 27 November 2026",
                                               "archive": None})
