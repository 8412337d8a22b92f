"""Save tokens issued by the server, against the real test MediaWiki (issue 41): a confirm
saves only with the token its own preview issued to its own user, for its claim and action;
the revision the "nobody edited since" check starts from is the token's; the public API
hands out no token anyone could save with."""
from __future__ import annotations

import time

from django.core import signing
from django.test import Client, TestCase
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.edits.saving import marker
from sideapp.edits.tokens import SALT, TOKEN_MAX_AGE
from sideapp.models import Claim
from tests.edits_support import judged_not_supported
from tests.test_edits_saving import TWICE
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, page_for_edits


class SaveTokenTests(OnSharedWikiWithBot, TestCase):
    def setUp(self):
        self.users = cast()
        _, self.title = page_for_edits(self, "Side token test", text=TWICE, bot=(self.bot_user, self.bot_password),
                                       SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
        claims = Claim.objects.filter(article__title=self.title)
        self.claim = judged_not_supported(claims.get(text__startswith="In 1947"))
        self.other = judged_not_supported(claims.get(text__startswith="Margaret"))
        self.base = self.server.current_revid(self.title)

    def editor(self, role: str = "editor") -> Client:
        client = Client()
        client.login(username=self.users[role].username, password=PASSWORD)
        return client

    def token_of(self, client: Client, claim: Claim) -> str:
        token = client.get(reverse("claim_tag", args=[claim.pk])).context["proposal"].token
        self.assertTrue(token)
        return token

    def assert_refused_and_unsaved(self, response, status: int, words: str) -> None:
        self.assertContains(response, words, status_code=status)
        self.assertContains(response, "Nothing was saved", status_code=status)
        self.assertEqual(self.server.current_revid(self.title), self.base)
        self.assertFalse(AuditEntry.objects.filter(status__in=["saved", "pending"]).exists())
        refused = AuditEntry.objects.get()
        self.assertEqual(refused.status, "refused")
        self.assertIn(words, refused.outcome)

    def test_another_claims_token_is_refused_in_words_and_nothing_is_saved(self):
        client = self.editor()
        other_token = self.token_of(client, self.other)
        response = client.post(reverse("claim_tag", args=[self.claim.pk]), {"confirm": "1", "token": other_token})
        self.assert_refused_and_unsaved(response, 400, f"for another claim (claim {self.other.pk})")

    def test_a_confirm_without_a_token_is_refused_in_words_and_nothing_is_saved(self):
        response = self.editor().post(reverse("claim_tag", args=[self.claim.pk]), {"confirm": "1"})
        self.assert_refused_and_unsaved(response, 400, "carries no save token")

    def test_another_users_token_is_refused_in_words_and_nothing_is_saved(self):
        token = self.token_of(self.editor("editor"), self.claim)
        response = self.editor("admin").post(reverse("claim_tag", args=[self.claim.pk]),
                                             {"confirm": "1", "token": token})
        self.assert_refused_and_unsaved(response, 403, "issued to another user")

    def test_a_token_with_a_higher_base_revision_written_in_is_refused(self):
        token = self.token_of(self.editor(), self.claim)
        payload = signing.loads(token, salt=SALT)
        forged_body = signing.dumps({**payload, "b": self.base + 1000}, salt="not the server's", compress=True)
        forged = forged_body.rsplit(":", 2)[0] + token[len(token.rsplit(":", 2)[0]):]  # the old signature kept
        response = self.editor().post(reverse("claim_tag", args=[self.claim.pk]), {"confirm": "1", "token": forged})
        self.assert_refused_and_unsaved(response, 400, "not issued by Side editor, or was changed")

    def test_a_token_older_than_its_lifetime_is_refused_in_words(self):
        token = self.token_of(self.editor(), self.claim)
        payload = signing.loads(token, salt=SALT)

        class IssuedLongAgo(signing.TimestampSigner):
            def timestamp(self):
                return signing.b62_encode(int(time.time()) - TOKEN_MAX_AGE - 60)

        old = IssuedLongAgo(salt=SALT).sign_object(payload, compress=True)  # signed by the server, 31 minutes ago
        response = self.editor().post(reverse("claim_tag", args=[self.claim.pk]), {"confirm": "1", "token": old})
        self.assert_refused_and_unsaved(response, 400, "This preview is more than 30 minutes old")

    def test_a_token_for_another_action_of_the_same_claim_is_refused(self):
        client = self.editor()
        token = self.token_of(client, self.claim)
        response = client.post(reverse("claim_correct", args=[self.claim.pk]), {"confirm": "1", "token": token})
        self.assert_refused_and_unsaved(response, 400, "for another change of this claim")

    def test_the_base_revision_checked_is_the_tokens_not_a_number_the_browser_sends(self):
        client = self.editor()
        token = self.token_of(client, self.claim)
        theirs = TWICE.replace("\n\n== Legacy ==", "\nShe retired in 1960.\n\n== Legacy ==")  # the claim's section
        self.server.edit(self.title, theirs, summary="a human edits the section")
        response = client.post(reverse("claim_tag", args=[self.claim.pk]),
                               {"confirm": "1", "token": token, "base_revision": str(self.base + 5)})
        self.assertContains(response, f"since revision {self.base}, which you saw", status_code=409)
        self.assertEqual(self.server.admin_site.pages[self.title].text(cache=False).strip(), theirs.strip())

    def test_a_preview_token_saves_once_for_its_own_user(self):
        client = self.editor()
        token = self.token_of(client, self.claim)
        self.assertNotEqual(token, self.token_of(client, self.claim))  # a nonce: two previews, two tokens
        saved = client.post(reverse("claim_tag", args=[self.claim.pk]), {"confirm": "1", "token": token})
        self.assertEqual(saved.status_code, 200, saved.content[-1500:])
        entry = AuditEntry.objects.get(status="saved")
        self.assertRegex(entry.token, r"^[0-9a-f]{64}$")  # the key is a digest of the signed token
        latest = next(iter(self.server.admin_site.pages[self.title].revisions(limit=1, prop="comment")))
        self.assertIn(marker(entry.token), latest["comment"])

    def test_the_public_api_hands_out_no_token(self):
        for client in (Client(), self.editor()):
            answer = client.get(f"/api/v1/claims/{self.claim.pk}/proposal", {"action": "tag"})
            self.assertEqual(answer.status_code, 200, answer.content[:500])
            data = answer.json()
            self.assertEqual(data["token"], "")
            self.assertEqual(data["base_revision"], self.base)
