"""What became of cited pages in the editors' lists, the findings API and the patrol rule:
dead with a copy (one click rescues it), dead without one, usurped, unreadable otherwise."""
from __future__ import annotations

from django.test import TestCase
from django.utils import timezone

from harness.claims import ClaimRow, article_with_claims
from sideapp.api.findings import archive_state, edit_check_cards
from sideapp.claims.models import ClaimCitation
from sideapp.claims.selectors import ClaimFilters, claim_list
from sideapp.patrol.models import PatrolEdit, PatrolRow
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

    def test_patrol_flags_an_added_citation_whose_page_is_dead_even_where_its_copy_supports_it(self):
        dues, breakwater = self.claims[0], self.claims[4]  # both supported: a dead page read in its copy, a live one
        edit = PatrolEdit.objects.create(wiki=dues.article.wiki, rcid=1, kind="edit", revid=2, parent_revid=1,
                                         title="Harbour", user="Someone", timestamp=timezone.now())
        rows = {claim.pk: PatrolRow.objects.create(edit=edit, claim=claim, citation=claim.citations.first(),
                                                   article=claim.article) for claim in (dues, breakwater)}
        self.assertEqual((rows[dues.pk].flagged, rows[breakwater.pk].flagged), (True, False))
        flagged = PatrolRow.objects.filter(PatrolRow.flagged_q()).values_list("claim_id", flat=True)
        self.assertEqual(list(flagged), [dues.pk])

    def test_edit_checks_cards_carry_what_became_of_the_page(self):
        ferry = self.claims[1]  # its page now leads to the site's home page
        link = ClaimCitation.objects.select_related("claim", "citation").get(claim=ferry)
        target = {"text": ferry.text, "urls": ["http://h.example/f"]}
        (card,) = edit_check_cards([link], {ferry.pk: target})
        self.assertEqual((card["page_state"], card["read"], card["archive"]), ("home", None, None))
        self.assertEqual(card["url"], ["http://h.example/f"])
