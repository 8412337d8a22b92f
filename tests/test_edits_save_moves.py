"""Edits read and save a page by its id, against the real test MediaWiki (issue 41): a page
moved between the preview and the confirm is refused in words with nothing saved (never
followed through its redirect), and a page moved before the preview is edited as itself."""
from __future__ import annotations

from django.test import Client, TestCase
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.models import Claim
from tests.edits_support import judged_not_supported
from tests.test_edits_saving import TWICE
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, page_for_edits


class MovedPageTests(OnSharedWikiWithBot, TestCase):
    def setUp(self):
        self.users = cast()
        _, self.title = page_for_edits(self, "Side move test", text=TWICE, bot=(self.bot_user, self.bot_password),
                                       SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
        self.claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="In 1947"))
        self.assertTrue(self.claim.article.page_id)
        self.client = Client()
        self.client.login(username=self.users["editor"].username, password=PASSWORD)
        self.url = reverse("claim_tag", args=[self.claim.pk])
        self.moved_to = f"{self.title} (moved)"

    def move(self) -> None:
        self.server.admin_site.pages[self.title].move(self.moved_to, reason="a test moves it", no_redirect=False)

    def text_of(self, title: str) -> str:
        return self.server.admin_site.pages[title].text(cache=False)

    def test_a_page_moved_between_preview_and_save_is_refused_in_words_and_nothing_is_saved(self):
        token = self.client.get(self.url).context["proposal"].token
        self.move()
        revisions = self.server.current_revid(self.moved_to)
        response = self.client.post(self.url, {"confirm": "1", "token": token})
        self.assertContains(response, f"The page was moved since you saw it: “{self.title}” is now titled "
                                      f"“{self.moved_to}”", status_code=409)
        self.assertContains(response, "Nothing was saved", status_code=409)
        self.assertEqual(self.server.current_revid(self.moved_to), revisions)
        self.assertNotIn("failed verification", self.text_of(self.moved_to))
        self.assertIn("#REDIRECT", self.text_of(self.title).upper())
        self.assertFalse(AuditEntry.objects.filter(status__in=["saved", "pending"]).exists())
        self.assertIn("was moved", AuditEntry.objects.get(status="refused").outcome)

    def test_a_page_moved_before_the_preview_is_edited_as_itself_not_through_its_redirect(self):
        self.move()
        preview = self.client.get(self.url)
        self.assertEqual(preview.context["proposal"].title, self.moved_to)
        saved = self.client.post(self.url, {"confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-1500:])
        self.assertIn("{{failed verification|date=", self.text_of(self.moved_to))
        self.assertNotIn("failed verification", self.text_of(self.title))
