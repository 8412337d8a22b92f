"""Editors dismiss a flag or a suggestion with a reason, or mark a claim verified; the
judgement is theirs, counted for everyone, and can be taken back."""
from __future__ import annotations

from django.test import Client, TestCase
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import Claim, ClaimReview
from sideapp.claims.reviews import ReviewRefused, claim_review_save
from sideapp.edits.models import AuditEntry
from tests.users import CastMixin


class ClaimReviewTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.article, (cls.claim, cls.other) = article_with_claims("Kell Bridge", [
            ClaimRow("The viaduct opened in 1931.", cited_url="http://a.test/1", suggestion_url="http://b.test/1",
                     better=True),
            ClaimRow("It has nine arches.", cited_url="http://a.test/2", suggestion_url="http://b.test/2"),
        ])

    def post(self, name: str, role: str = "editor", htmx: bool = False, **data):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        return self.client_for(role).post(reverse(name, args=[self.claim.pk]), data, **headers)

    def test_dismissing_a_flag_stores_the_reason_per_user(self):
        response = self.post("claim_dismiss", reason="source_supports", note="see p. 4")
        self.assertRedirects(response, reverse("claim_detail", args=[self.claim.pk]) + "#claim-reviews")
        review = ClaimReview.objects.get()
        self.assertEqual((review.user, review.kind, review.reason, review.note),
                         (self.users["editor"], "dismissed", "source_supports", "see p. 4"))
        page = self.client_for("admin").get(reverse("claim_detail", args=[self.claim.pk]))
        self.assertContains(page, "eve_editor dismissed the flag: the source does support the claim")
        self.assertContains(page, "noting “<span class=\"review-note\">see p. 4</span>”", html=False)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.user, entry.action, entry.claim, entry.detail),
                         (self.users["editor"], "dismiss", self.claim, "the source does support the claim"))

    def test_dismissing_a_suggestion_needs_a_suggestion_reason(self):
        suggestion = self.claim.suggestions.get()
        self.post("claim_dismiss", reason="unreliable_site", suggestion=suggestion.pk)
        self.assertEqual(ClaimReview.objects.get().suggestion, suggestion)
        with self.assertRaises(ReviewRefused):
            claim_review_save(claim=self.claim, user=self.users["admin"], kind="dismissed",
                              reason="claim_fine", suggestion=suggestion)

    def test_a_suggestion_of_another_claim_is_refused(self):
        foreign = self.other.suggestions.get()
        response = self.post("claim_dismiss", htmx=True, reason="unreliable_site", suggestion=foreign.pk)
        self.assertEqual(response.status_code, 400)
        self.assertContains(response, "no longer there", status_code=400)
        self.assertFalse(ClaimReview.objects.exists())

    def test_marking_verified_replaces_my_dismissal_and_undo_takes_it_back(self):
        self.post("claim_dismiss", reason="claim_fine")
        self.post("claim_verified")
        self.assertEqual(list(ClaimReview.objects.values_list("kind", flat=True)), ["verified"])
        self.post("claim_review_undo")
        self.assertFalse(ClaimReview.objects.exists())
        self.assertEqual(list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)),
                         ["dismiss", "verified", "take_back"])

    def test_htmx_gets_the_review_panel_back_in_words(self):
        response = self.post("claim_verified", htmx=True)
        self.assertNotContains(response, "<html")
        self.assertContains(response, "You verified this claim by hand")
        self.assertNotContains(response, "verified by hand this claim")
        self.assertContains(response, "Take it back")

    def test_a_dismissal_without_a_reason_is_refused_with_a_message(self):
        response = self.post("claim_dismiss")
        self.assertRedirects(response, reverse("claim_detail", args=[self.claim.pk]))
        self.assertFalse(ClaimReview.objects.exists())

    def test_only_editors_and_admins_may_judge_and_only_by_post(self):
        for name in ("claim_dismiss", "claim_verified", "claim_review_undo"):
            url = reverse(name, args=[self.claim.pk])
            self.assertEqual(self.client_for("annotator").post(url, {"reason": "claim_fine"}).status_code, 403)
            self.assertEqual(self.client_for("nobody").post(url, {"reason": "claim_fine"}).status_code, 403)
            self.assertEqual(Client().post(url).status_code, 302)
            self.assertEqual(self.client_for("editor").get(url).status_code, 405)
        self.assertFalse(ClaimReview.objects.exists())

    def test_a_post_without_the_csrf_token_is_refused(self):
        client = self.client_for("editor", enforce_csrf_checks=True)
        response = client.post(reverse("claim_verified", args=[self.claim.pk]))
        self.assertEqual(response.status_code, 403)
        self.assertFalse(ClaimReview.objects.exists())

    def test_a_dismissed_suggestion_moves_last_folded_with_its_note(self):
        first, second = (self.claim.suggestions.create(rank=rank, url=f"http://c.test/{rank}", title=f"Page {rank}",
                                                       score=0.5, verdict="supported") for rank in (2, 3))
        top = self.claim.suggestions.get(rank=1)
        response = self.post("claim_dismiss", htmx=True, reason="unreliable_site", suggestion=top.pk,
                             note="a <b>blog</b>")
        html = response.content.decode()
        self.assertNotIn("<html", html)
        order = [html.index(f'id="suggestion-{s.pk}"') for s in (first, second, top)]
        self.assertEqual(order, sorted(order))  # the dismissed one comes last
        folded = html[order[2]:]
        self.assertNotIn("?mode=add", folded)  # no Add button on what was dismissed
        self.assertIn("Take it back", folded)
        self.assertIn("a &lt;b&gt;blog&lt;/b&gt;", folded)
        self.assertIn("Suggestion dismissed", html)

    def test_taking_back_a_suggestion_that_is_gone_keeps_the_flags_judgement(self):
        self.post("claim_dismiss", reason="claim_fine")
        response = self.post("claim_review_undo", htmx=True, suggestion=999_999)
        self.assertContains(response, "no longer there", status_code=400)
        self.assertEqual(response["X-Side-Fragment"], "1")
        self.assertTrue(ClaimReview.objects.filter(suggestion=None).exists())

    def test_a_claim_no_list_holds_offers_no_flag_to_dismiss_but_can_be_verified(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.claim.pk]))
        self.assertContains(page, "Dismiss the flag because")
        Claim.objects.filter(pk=self.claim.pk).update(flagged=False, needs_look=False, verdict="supported")
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.claim.pk]))
        self.assertNotContains(page, "Dismiss the flag because")
        self.assertContains(page, "I checked it: the claim is verified")
