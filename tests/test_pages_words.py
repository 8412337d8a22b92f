"""Small words that were wrong, each on the page that showed it: which titles a scan reads,
one confirmation of a dismissal, answers and skips counted apart, ties as shares, Atom ids
that are IRIs, the app's own 403 at /admin/, and a wiki that never answered."""
from __future__ import annotations

import re
from xml.etree import ElementTree

from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from harness.claims import ClaimRow, article_with_claims
from sideapp.annotation import services as annotation
from sideapp.annotation.models import SkipReason
from sideapp.claims.models import ClaimReview
from sideapp.models import PatrolEdit, PatrolRow, ScanItem, ScanJob, Wiki
from sideapp.patrol.models import FeedToken
from tests import annotation_support
from tests.users import PASSWORD, CastMixin

ATOM = "{http://www.w3.org/2005/Atom}"


class ScanListWordsTests(CastMixin, TestCase):
    def scan(self, kind: str, **params) -> ScanJob:
        wiki, _ = Wiki.objects.get_or_create(api_url="http://wiki.test/api.php")
        return ScanJob.objects.create(wiki=wiki, kind=kind, params=params)

    def test_a_scan_of_titles_says_which_titles(self):
        self.scan("titles", titles=["Kell Bridge", "Old Mill"])
        self.scan("titles", titles=["A", "B", "C", "D", "E"])
        self.scan("category", category="Demo articles")
        page = self.client_for("admin").get(reverse("scan_list"))
        self.assertContains(page, "Titles: Kell Bridge and Old Mill")
        self.assertContains(page, "Titles: A, B, C and 2 more")
        self.assertContains(page, "Category: Demo articles")
        self.assertNotContains(page, "<td>Titles</td>", html=False)

    def test_the_scan_page_says_which_titles_too(self):
        job = self.scan("titles", titles=["Kell Bridge"])
        self.assertContains(self.client_for("admin").get(reverse("scan_detail", args=[job.pk])),
                            "Titles: Kell Bridge on")


class DismissalWordsTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        _, (cls.claim,) = article_with_claims("Kell Bridge", [ClaimRow("The viaduct opened in 1931.",
                                                                      cited_url="http://a.test/1")])

    def dismiss(self, role: str = "editor"):
        return self.client_for(role).post(reverse("claim_dismiss", args=[self.claim.pk]),
                                          {"reason": "source_supports", "note": "p. 4"}, HTTP_HX_REQUEST="true")

    def test_a_dismissal_is_confirmed_once_in_one_sentence(self):
        panel = self.dismiss().content.decode()
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", panel))
        self.assertEqual(text.count("dismissed"), 1, text)
        self.assertIn("You dismissed the flag on this claim on ", text)
        self.assertIn(": the source does support the claim, noting “p. 4”. It is hidden from your lists.", text)
        self.assertNotIn(" .", text)

    def test_other_editors_judgements_end_without_a_stray_space(self):
        ClaimReview.objects.create(claim=self.claim, user=self.users["admin"], kind="dismissed", reason="claim_fine")
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.claim.pk])).content.decode()
        item = re.search(r"<li>ada_admin dismissed the flag[^<]*</li>", page)
        self.assertIsNotNone(item, page)
        self.assertTrue(item.group(0).endswith(").</li>"), item.group(0))

    def test_without_htmx_the_page_opens_at_the_panel_that_says_it(self):
        response = self.client_for("editor").post(reverse("claim_dismiss", args=[self.claim.pk]),
                                                  {"reason": "claim_fine"}, follow=True)
        self.assertEqual(response.redirect_chain[-1][0], reverse("claim_detail", args=[self.claim.pk]) + "#claim-reviews")
        self.assertEqual(list(response.context["messages"]), [])
        self.assertContains(response, "You dismissed the flag on this claim on ", count=1)


class AnnotatorsTableTests(CastMixin, TestCase):
    def setUp(self):
        super().setUp()
        annotation_support.bulk_items(4)
        person = self.users["annotator"]
        for letter in ("a", "b", "equal"):
            item = annotation.assignment_next(annotator=person).item_id
            annotation.vote_cast(annotator=person, item_id=item, answer=annotation.ScreenAnswer(letter, "partial",
                                                                                                "partial"))
        item = annotation.assignment_next(annotator=person).item_id
        annotation.vote_cast(annotator=person, item_id=item,
                             answer=annotation.ScreenAnswer("skip", skip_reason=SkipReason.CLAIM_UNCLEAR))
        self.page = self.client_for("admin").get(reverse("annotation:results")).content.decode()

    def test_three_answers_and_a_skip_count_as_three_answers_and_one_skip(self):
        row = re.search(r"<th scope=\"row\">ann_annotator</th>(.*?)</tr>", self.page, re.S).group(1)
        self.assertEqual(re.findall(r'<td class="num">([^<]*)</td>', row)[:2], ["3", "1"])
        self.assertIn('<th scope="col" class="num">answers</th>', self.page)
        self.assertIn("3 answers and 1 skip on 4 pair items", self.page)

    def test_ties_and_neither_read_as_shares_like_the_wins_beside_them(self):
        buckets = self.page[self.page.index('id="buckets"'):self.page.index('id="evidence"')]
        self.assertIn("1 / 3 = 33%", buckets)
        self.assertIn("0 / 3 = 0%", buckets)
        self.assertNotIn("0.33", buckets)


def _patrol_rows() -> list[PatrolRow]:
    """Two claims an edit added, each with its citation: one patrol row each."""
    _, claims = article_with_claims("Kell Bridge", [ClaimRow(f"The viaduct opened in 193{n}.",
                                                             cited_url=f"http://a.test/{n}") for n in range(2)])
    edit = PatrolEdit.objects.create(wiki=claims[0].article.wiki, rcid=1, kind="edit", revid=2, parent_revid=1,
                                     title="Kell Bridge", user="Someone", timestamp=timezone.now())
    return [PatrolRow.objects.create(edit=edit, claim=claim, citation=claim.citations.first(), article=claim.article)
            for claim in claims]


class PatrolFeedIdTests(CastMixin, TestCase):
    def test_every_entry_id_is_a_tag_iri_that_names_its_row(self):
        rows = _patrol_rows()
        token = FeedToken.objects.create(user=self.users["editor"]).token
        feed = ElementTree.fromstring(Client().get(reverse("patrol_feed"), {"token": token}).content)
        ids = [entry.findtext(f"{ATOM}id") for entry in feed.iter(f"{ATOM}entry")]
        day = rows[0].created_at.strftime("%Y-%m-%d")
        self.assertEqual(sorted(ids), sorted(f"tag:testserver,{day}:side-editor/patrol/row/{row.pk}" for row in rows))
        self.assertTrue(feed.findtext(f"{ATOM}id").startswith("http://testserver/"))


class PatrolChangedSinceTests(CastMixin, TestCase):
    def test_a_row_whose_sentence_a_later_revision_changed_says_so(self):
        claims = [row.claim for row in _patrol_rows()]
        claims[0].__class__.objects.filter(pk=claims[0].pk).update(current=False)
        page = self.client_for("editor").get(reverse("patrol"), {"show": "all"}).content.decode()
        rows = {claim.text: page[page.index(claim.text) - 600:page.index(claim.text)] for claim in claims}
        self.assertIn("changed since", rows[claims[0].text])
        self.assertNotIn("changed since", rows[claims[1].text])


class AdminDoorTests(CastMixin, TestCase):
    def test_a_logged_in_person_who_is_not_staff_gets_the_apps_403_not_a_login_form(self):
        response = self.client_for("annotator").get("/admin/", follow=True)
        self.assertEqual(response.status_code, 403)
        self.assertContains(response, "Not allowed", status_code=403)
        self.assertContains(response, "are for staff accounts, and ann_annotator is not one", status_code=403)
        self.assertNotContains(response, 'name="password"', status_code=403)
        self.assertTemplateUsed(response, "error.html")

    def test_someone_not_logged_in_goes_to_the_apps_login_page(self):
        response = Client().get("/admin/", follow=True)
        self.assertEqual(response.redirect_chain[-1][0], "/login/?next=%2Fadmin%2F")
        self.assertTemplateUsed(response, "registration/login.html")

    def test_staff_reach_the_admin(self):
        User.objects.create_user("sam_staff", password=PASSWORD, is_staff=True, is_superuser=True)
        client = Client()
        client.login(username="sam_staff", password=PASSWORD)
        self.assertEqual(client.get("/admin/").status_code, 200)
        self.assertRedirects(client.get("/admin/login/"), "/admin/")


class UnidentifiedWikiTests(CastMixin, TestCase):
    def setUp(self):
        super().setUp()
        self.bad = Wiki.objects.create(api_url="http://127.0.0.1:9/nothing/api.php", patrol=False)
        self.good = Wiki.objects.create(api_url="http://wiki.test/api.php", wikiid="testwiki", name="Test Wiki",
                                        patrol=False)

    def page(self) -> str:
        return self.client_for("admin").get(reverse("wiki_list")).content.decode()

    def test_a_wiki_that_never_answered_says_what_went_wrong_and_offers_no_patrol(self):
        job = ScanJob.objects.create(wiki=self.bad, kind="titles", status="failed", params={"titles": ["X"]},
                                     reason="the article could not be scanned")
        ScanItem.objects.create(job=job, title="X", status="failed",
                                reason="the wiki at http://127.0.0.1:9/nothing/api.php did not answer after 3 tries")
        page = self.page()
        bad_row = page[page.index("not identified"):page.index("Test Wiki")]
        self.assertIn("The wiki at http://127.0.0.1:9/nothing/api.php did not answer after 3 tries.", bad_row)
        self.assertNotIn("Patrol its edits", bad_row)
        self.assertIn("can be patrolled once the wiki answers", bad_row)
        self.assertNotIn("(not identified yet)", page)
        self.assertEqual(page.count("Patrol its edits"), 1)  # the wiki that answered

    def test_a_wiki_not_tried_yet_says_so(self):
        self.assertIn("Side editor has not reached a wiki at this address yet", self.page())
