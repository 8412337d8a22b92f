"""The annotation pages: the web contract, blindness, and who may reach what."""
from __future__ import annotations

import csv
import io
import json
import re

from django.test import Client, TestCase, override_settings
from django.urls import reverse

from sideapp.annotation import services
from sideapp.annotation.models import Assignment, Item, Vote, VoteRevision
from tests import annotation_support as support
from tests.users import PASSWORD, cast, make_user

ADMIN_ONLY = ["/annotate/results/", "/annotate/export.csv", "/annotate/export.jsonl", "/annotate/items/"]
ANNOTATOR_PAGES = ["/annotate/", "/annotate/recent/", "/annotate/guidelines/"]


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class AnnotatePageTests(TestCase):
    def setUp(self):
        self.users = cast()
        self.items = support.bulk_items(3)

    def client_for(self, role: str) -> Client:
        client = Client()
        client.login(username=self.users[role].username, password=PASSWORD)
        return client

    def test_the_page_shows_two_sides_the_item_field_and_no_hint_of_origin(self):
        response = self.client_for("annotator").get("/annotate/")
        html = response.content.decode()
        self.assertEqual(html.count('data-side="A"'), 1)
        self.assertEqual(html.count('data-side="B"'), 1)
        self.assertRegex(html, r'name="item" value="\d+"')
        self.assertIn("harbour-history.example/lighthouse-Bulk", html)  # domain + path ...
        self.assertNotIn("?ref=wiki", html)  # ... never the query string
        self.assertNotIn("www.", html)
        for leak in ("wiki_source", "suggested", "Wikipedia's", "taken"):
            self.assertNotIn(leak, html)
        self.assertIn("<mark>", html)

    def test_a_vote_answers_with_the_next_item(self):
        client = self.client_for("annotator")
        first = int(re.search(r'name="item" value="(\d+)"', client.get("/annotate/").content.decode())[1])
        response = client.post("/annotate/", {"item": first, "preference": "a", "evidence_a": "enough",
                                              "evidence_b": "partial"})
        self.assertEqual(response.status_code, 200)
        nxt = int(re.search(r'name="item" value="(\d+)"', response.content.decode())[1])
        self.assertNotEqual(nxt, first)
        vote = Vote.objects.get(item_id=first)
        self.assertEqual(vote.preference, "wiki" if vote.wiki_left else "suggested")

    def test_a_contradictory_answer_asks_for_confirmation_first(self):
        client = self.client_for("annotator")
        client.get("/annotate/")
        item = Assignment.objects.get().item_id
        data = {"item": item, "preference": "a", "evidence_a": "none", "evidence_b": "enough"}
        response = client.post("/annotate/", data)
        self.assertContains(response, 'name="confirm"')
        self.assertContains(response, 'role="alert"')
        self.assertFalse(Vote.objects.exists())
        client.post("/annotate/", {**data, "confirm": "1"})
        self.assertEqual(Vote.objects.count(), 1)

    def test_skip_needs_a_reason_and_is_stored_apart_from_neither(self):
        client = self.client_for("annotator")
        client.get("/annotate/")
        item = Assignment.objects.get().item_id
        client.post("/annotate/", {"item": item, "skip": "1"})
        self.assertFalse(Vote.objects.exists())
        client.post("/annotate/", {"item": item, "skip": "1", "skip_reason": "paywalled"})
        self.assertEqual(Vote.objects.get().preference, "skip")

    def test_undo_reopens_the_last_vote_and_a_new_answer_revises_it(self):
        client = self.client_for("annotator")
        client.get("/annotate/")
        item = Assignment.objects.get().item_id
        client.post("/annotate/", {"item": item, "preference": "a", "evidence_a": "enough", "evidence_b": "none"})
        response = client.post("/annotate/undo/", follow=True)
        self.assertContains(response, f'name="item" value="{item}"')
        vote = Vote.objects.get()
        self.assertContains(response, f'name="vote" value="{vote.pk}"')
        self.assertContains(response, 'value="a" required checked')
        client.post("/annotate/", {"item": item, "vote": vote.pk, "preference": "neither",
                                   "evidence_a": "none", "evidence_b": "none"})
        self.assertEqual(Vote.objects.get().preference, "neither")
        self.assertEqual(VoteRevision.objects.count(), 1)

    def answer(self, client: Client, **data) -> int:
        """Answer the item the page shows; returns its id."""
        item = int(re.search(r'name="item" value="(\d+)"', client.get("/annotate/").content.decode())[1])
        client.post("/annotate/", {"item": item, **data})
        return item

    def test_after_a_skip_undo_reopens_the_last_vote_not_the_skip(self):
        client = self.client_for("annotator")
        voted = self.answer(client, preference="b", evidence_a="partial", evidence_b="enough")
        skipped = self.answer(client, skip="1", skip_reason="wont_load")
        self.assertNotEqual(voted, skipped)
        response = client.post("/annotate/undo/", follow=True)
        self.assertContains(response, f'name="item" value="{voted}"')
        self.assertContains(response, f'name="vote" value="{Vote.objects.get(item_id=voted).pk}"')

    def test_undo_with_only_skips_behind_says_where_to_reopen_one(self):
        client = self.client_for("annotator")
        self.answer(client, skip="1", skip_reason="paywalled")
        response = client.post("/annotate/undo/", follow=True)
        self.assertContains(response, "Your last answers were all skips")
        self.assertNotContains(response, 'name="vote"')

    def test_recent_votes_read_in_words_and_name_the_sources_not_their_origin(self):
        client = self.client_for("annotator")
        self.answer(client, preference="equal", evidence_a="enough", evidence_b="partial")
        self.answer(client, skip="1", skip_reason="wont_load")
        self.answer(client, preference="a", evidence_a="enough", evidence_b="none")
        html = client.get("/annotate/recent/").content.decode()
        for words in ("both supported it equally", "skipped: a source will not load or is empty",
                      "A had enough evidence; B had partial evidence", "A had enough evidence; B had no evidence"):
            self.assertIn(words, html)
        preferred = Vote.objects.get(preference__in=["wiki", "suggested"])
        left = "Harbour history" if preferred.wiki_left else "The Trust&#x27;s records"
        self.assertIn(f"preferred A, “{left}”", html)
        for raw in ("(wont_load)", ">a<", ">equal<", "wiki", "suggested"):
            self.assertNotIn(raw, html)

    def test_full_text_comes_as_a_partial_for_the_annotators_own_item_only(self):
        client = self.client_for("annotator")
        client.get("/annotate/")
        item = Assignment.objects.get().item_id
        response = client.get(f"/annotate/items/{item}/full/A/", HTTP_HX_REQUEST="true")
        self.assertNotContains(response, "<html")
        self.assertContains(response, "lighthouse" if Assignment.objects.get().wiki_left else "Trust")
        other = make_user("other", "annotator")
        stranger = Client()
        stranger.login(username=other.username, password=PASSWORD)
        self.assertEqual(stranger.get(f"/annotate/items/{item}/full/A/").status_code, 404)

    def test_an_annotator_cannot_revise_another_annotators_vote(self):
        services.assignment_next(annotator=self.users["admin"])
        a = Assignment.objects.get()
        vote = services.vote_cast(annotator=self.users["admin"], item_id=a.item_id,
                                  answer=services.ScreenAnswer("a", "enough", "none"))
        response = self.client_for("annotator").get(f"/annotate/?revise={vote.pk}")
        self.assertEqual(response.status_code, 404)

    def test_none_left_page_when_every_item_is_done(self):
        for item in self.items:
            item.delete()
        response = self.client_for("annotator").get("/annotate/")
        self.assertContains(response, "Nothing left to annotate")
        self.assertNotContains(response, 'data-side="A"')


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class RoleTests(TestCase):
    def setUp(self):
        self.users = cast()
        support.bulk_items(2)

    def get(self, role: str | None, path: str):
        client = Client()
        if role:
            client.login(username=self.users[role].username, password=PASSWORD)
        return client.get(path)

    def test_annotators_never_reach_results_exports_items_or_claims(self):
        for path in ADMIN_ONLY + ["/claims/"]:
            self.assertEqual(self.get("annotator", path).status_code, 403, path)

    def test_editors_and_users_without_a_role_get_403_anonymous_users_the_login_page(self):
        for path in ADMIN_ONLY + ANNOTATOR_PAGES:
            self.assertEqual(self.get("editor", path).status_code, 403, path)
            self.assertEqual(self.get("nobody", path).status_code, 403, path)
            response = self.get(None, path)
            self.assertEqual(response.status_code, 302, path)
            self.assertIn("/login/", response["Location"])

    def test_admins_reach_everything(self):
        for path in ADMIN_ONLY + ANNOTATOR_PAGES:
            self.assertEqual(self.get("admin", path).status_code, 200, path)


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=2, SIDE_ANNOTATION_GOLD_RATE=0.0)
class AdminPagesTests(TestCase):
    def setUp(self):
        self.users = cast()
        support.bulk_items(2, scores=[0.15])
        self.admin = Client()
        self.admin.login(username=self.users["admin"].username, password=PASSWORD)
        for person in (self.users["annotator"], make_user("second", "annotator")):
            while (a := services.assignment_next(annotator=person)) is not None:
                services.vote_cast(annotator=person, item_id=a.item_id,
                                   answer=services.ScreenAnswer("b", "partial", "enough"))

    def test_the_results_page_shows_numbers_and_charts(self):
        response = self.admin.get("/annotate/results/")
        self.assertContains(response, "<svg", count=4)
        self.assertContains(response, "Fleiss")
        self.assertContains(response, "Krippendorff")
        self.assertContains(response, "0.0–0.2")
        self.assertContains(response, "95% CI")

    def test_position_bias_has_its_own_chart_and_every_statistic_its_line(self):
        html = self.admin.get("/annotate/results/").content.decode()
        overall = html[html.index('id="overall"'):html.index('id="position"')]
        position = html[html.index('id="position"'):html.index('id="buckets"')]
        self.assertNotIn("left side wins", overall)
        self.assertIn("left side wins", position)
        self.assertEqual(position.count("<svg"), 1)
        self.assertIn("without a bias for one position this share is near 50%", position)
        for term, meaning in (("Fleiss' κ", "agree beyond what chance would give"),
                              ("Krippendorff's α", "also counting items with fewer votes"),
                              ("p (sign test)", "if annotators had no preference at all")):
            self.assertIn(f"<dt>{term}</dt><dd>", html.replace("&#x27;", "'"))
            self.assertIn(meaning, html)

    def test_csv_and_jsonl_exports_carry_every_vote(self):
        response = self.admin.get("/annotate/export.csv")
        self.assertEqual(response["Content-Type"], "text/csv; charset=utf-8")
        rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
        self.assertEqual(len(rows), 4)
        self.assertEqual({r["shown_left"] for r in rows} <= {"wiki", "suggested"}, True)
        for row in rows:
            expected = "suggested" if row["shown_left"] == "wiki" else "wiki"  # "b" = the right side
            self.assertEqual(row["preference"], expected)
        lines = b"".join(self.admin.get("/annotate/export.jsonl").streaming_content).decode().splitlines()
        self.assertEqual([json.loads(line)["item"] for line in lines], [int(r["item"]) for r in rows])

    def test_admins_make_items_from_a_claim_and_set_gold_answers(self):
        claim = support.claim_with_suggestion(n=9)
        self.admin.post("/annotate/items/", {"one-claim": claim.pk, "one-better_only": "on"})
        item = claim.annotation_items.get(kind="pair")
        self.admin.post(reverse("annotation:item_gold", args=[item.pk]), {"preference": "suggested"})
        item.refresh_from_db()
        self.assertEqual((item.kind, item.gold_preference), ("gold", "suggested"))

    def test_the_claim_page_offers_admins_and_only_admins_to_annotate_the_claim(self):
        claim = support.claim_with_suggestion(n=30)
        self.assertContains(self.admin.get(f"/claims/{claim.pk}/"), 'id="annotate-claim"')
        editor = Client()
        editor.login(username=self.users["editor"].username, password=PASSWORD)
        self.assertNotContains(editor.get(f"/claims/{claim.pk}/"), 'id="annotate-claim"')

    def test_admins_make_items_from_a_claims_filter(self):
        for n in range(3):
            support.claim_with_suggestion(n=20 + n)
        self.admin.post("/annotate/items/", {"many-show": "flagged", "many-article": "Lighthouse 2",
                                             "many-better_only": "on", "many-limit": 10})
        made = Item.objects.filter(created_by="admin", kind="pair").values_list("claim__article__title", flat=True)
        self.assertEqual(sorted(made), ["Lighthouse 20", "Lighthouse 21", "Lighthouse 22"])
