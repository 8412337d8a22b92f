"""The edit flow against the real test MediaWiki: preview, confirm, saved revision; an edit
conflict between preview and save; a named ref re-used elsewhere survives; the tag flow;
a bot password that does not log in."""
from __future__ import annotations

import itertools
import time
import uuid

from datetime import datetime, timezone
from unittest import mock

from django.test import Client, TestCase, override_settings
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.models import Claim, ClaimCitation, ScanJob, Suggestion, Wiki
from sideapp.scans.wikiapi import EditConflict, WikiClient
from sideapp.scans.wikis import client_for
from tests.edits_support import confirmed, contradicted, judged_not_supported, suggested
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, scan_titles

PAGE = """The Side test bridge opened in 1931.<ref name="opening">{{cite web |url=http://127.0.0.1:9/opening |title=Opening}}</ref> It is made of red stone.<ref>{{cite web |url=http://127.0.0.1:9/stone |title=Stone}}</ref>

== Later ==
The bridge was closed to traffic in 1990.<ref name="opening" />

== References ==
<references />
"""
NEW_URL = "https://example.org/bridge-history"
_numbers = itertools.count()


class WikiEditFlowTests(OnSharedWikiWithBot, TestCase):
    def setUp(self):
        self.users = cast()
        self.client.login(username=self.users["editor"].username, password=PASSWORD)
        self.title = f"Side edit test {uuid.uuid4().hex[:8]} {next(_numbers)}"
        self.server.edit(self.title, PAGE)
        settings = override_settings(SIDE_WIKI_API_URL=self.server.api_url, SIDE_WIKI_USERNAME=self.bot_user,
                                     SIDE_WIKI_PASSWORD=self.bot_password, SIDE_WIKI_RETRIES=2,
                                     SIDE_WIKI_BACKOFF=0.1)
        settings.enable()
        self.addCleanup(settings.disable)
        scan_titles(self.server, self.title)

    def claim(self, start: str) -> Claim:
        """The scanned claim, judged as a verification that found its source read and not
        supporting it leaves it (no verifier run: tested on its own)."""
        return judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith=start))

    def suggest(self, claim: Claim) -> Suggestion:
        return suggested(claim, NEW_URL, "History of the bridge")

    def wiki_text(self) -> str:
        page = self.server.admin_site.pages[self.title]
        return page.text(cache=False)

    def last_comment(self) -> str:
        result = self.server.admin_site.api("query", prop="revisions", titles=self.title, rvprop="comment",
                                            formatversion=2)
        return result["query"]["pages"][0]["revisions"][0]["comment"]

    def test_a_confirmed_replacement_is_saved_with_the_summary_and_the_reused_ref_survives(self):
        claim = self.claim("The Side test bridge opened")
        url = reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk])
        preview = self.client.get(url, {"mode": "replace"})
        self.assertContains(preview, NEW_URL)
        saved = self.client.post(url, {"mode": "replace", "confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-2000:])
        rev_id = self.server.current_revid(self.title)
        self.assertContains(saved, f'<strong id="saved-revision">{rev_id}</strong>', html=False)
        self.assertContains(saved, f"oldid={rev_id}")
        text = self.wiki_text()
        self.assertIn("opened in 1931.<ref>{{cite web |url=" + NEW_URL, text)
        # The other use of "opening" took over its definition, so it still renders.
        self.assertIn('traffic in 1990.<ref name="opening">{{cite web |url=http://127.0.0.1:9/opening', text)
        self.assertRegex(self.last_comment(), "^Replaced a citation that does not support the claim; "
                                              f"source suggested by Side editor; asked by {self.users['editor'].username} "
                                              r"\(side-editor [0-9a-f]{12}\)$")
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.action, entry.revision_id, entry.user, entry.status, entry.username),
                         ("apply_replace", rev_id, self.users["editor"], "saved", self.users["editor"].username))
        self.assertTrue(ScanJob.objects.filter(params__titles=[self.title]).exists())

    def test_an_added_citation_goes_after_the_claims_own_ref(self):
        claim = self.claim("It is made of red stone")
        url = reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk])
        self.assertEqual(confirmed(self.client, url, {"mode": "add"}).status_code, 200)
        text = self.wiki_text()
        self.assertIn("|title=Stone}}</ref><ref>{{cite web |url=" + NEW_URL, text)
        self.assertIn("Added a citation that supports the claim", self.last_comment())

    def test_an_added_source_that_supports_the_claim_takes_its_failed_verification_off_in_the_same_edit(self):
        tag = "{{failed verification|date=May 2026}}"
        self.server.edit(self.title, PAGE.replace("|title=Stone}}</ref>", "|title=Stone}}</ref>" + tag),
                         summary="a human tags it")
        scan_titles(self.server, self.title)
        claim = self.claim("It is made of red stone")
        url = reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk])
        preview = self.client.get(url, {"mode": "add"})
        proposal = preview.context["proposal"]
        self.assertEqual((proposal.untag_offered, proposal.untag), (True, True))  # on: the new source supports it
        self.assertContains(preview, 'name="untag" value="1" checked')
        self.assertNotIn(tag, proposal.change.new)
        kept = self.client.get(url, {"mode": "add", "untag": "0"}).context["proposal"]
        self.assertIn("|title=Stone}}</ref>" + tag + "<ref>{{cite web |url=" + NEW_URL, kept.change.new)
        self.assertNotEqual(kept.token, proposal.token)
        saved = self.client.post(url, {"mode": "add", "confirm": "1", "untag": "1", "token": proposal.token})
        self.assertEqual(saved.status_code, 200, saved.content[-2000:])
        text = self.wiki_text()
        self.assertIn("|title=Stone}}</ref><ref>{{cite web |url=" + NEW_URL, text)
        self.assertNotIn("failed verification", text)
        self.assertIn("Added a citation that supports the claim and removed the {{failed verification}} tag",
                      self.last_comment())

    def test_a_claim_with_no_failing_tag_is_not_asked_about_one(self):
        claim = self.claim("It is made of red stone")
        preview = self.client.get(reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk]), {"mode": "add"})
        self.assertFalse(preview.context["proposal"].untag_offered)
        self.assertNotContains(preview, 'name="untag"')

    def test_an_edit_of_another_section_between_preview_and_save_is_kept_beside_ours(self):
        claim = self.claim("It is made of red stone")
        url = reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk])
        token = self.client.get(url, {"mode": "replace"}).context["proposal"].token
        theirs = PAGE + "\nSomeone else's new paragraph.\n"
        their_rev = self.server.edit(self.title, theirs, summary="a human edit")
        response = self.client.post(url, {"mode": "replace", "confirm": "1", "token": token})
        self.assertEqual(response.status_code, 200, response.content[-1500:])
        text = self.wiki_text()
        self.assertIn("Someone else's new paragraph.", text)
        self.assertIn("made of red stone.<ref>{{cite web |url=" + NEW_URL, text)
        self.assertGreater(self.server.current_revid(self.title), their_rev)

    def test_an_edit_of_the_same_section_between_preview_and_save_is_reported_and_kept(self):
        claim = self.claim("It is made of red stone")
        url = reverse("suggestion_apply", args=[claim.pk, self.suggest(claim).pk])
        token = self.client.get(url, {"mode": "replace"}).context["proposal"].token
        theirs = PAGE.replace("It is made of red stone.", "It is made of red sandstone.")
        their_rev = self.server.edit(self.title, theirs, summary="a human edit")
        response = self.client.post(url, {"mode": "replace", "confirm": "1", "token": token})
        self.assertContains(response, "edit conflict", status_code=409)
        self.assertContains(response, "nothing was saved", status_code=409)
        self.assertContains(response, f"revision {their_rev}", status_code=409)
        self.assertEqual(self.server.current_revid(self.title), their_rev)
        self.assertEqual(self.wiki_text().strip(), theirs.strip())
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.status, entry.revision_id), ("refused", None))
        self.assertIn("edit conflict", entry.outcome)

    def test_the_tag_flow_previews_then_saves_failed_verification(self):
        claim = self.claim("It is made of red stone")
        url = reverse("claim_tag", args=[claim.pk])
        preview = self.client.get(url)
        self.assertContains(preview, "{{failed verification|date=")
        self.assertEqual(confirmed(self.client, url).status_code, 200)
        text = self.wiki_text()
        self.assertRegex(text, r"\|title=Stone\}\}</ref>\{\{failed verification\|date=[A-Z][a-z]+ \d{4}\}\}")
        self.assertIn("Tagged a citation that does not support the claim", self.last_comment())
        self.assertEqual(AuditEntry.objects.get().action, "tag")

    def test_the_correct_figure_flow_changes_the_claims_figure_to_its_sources_and_nothing_else(self):
        claim = self.claim("The Side test bridge opened in 1931")
        contradicted(claim, claimed="1931", given="1932", thing="the year the Side test bridge opened")
        page = self.client.get(reverse("claim_detail", args=[claim.pk]))
        self.assertContains(page, "Change “1931” to “1932”")
        url = reverse("claim_correct", args=[claim.pk])
        ClaimCitation.objects.filter(claim=claim).update(evidence={"sentences": ["The bridge opened in 1932."]})
        preview = self.client.get(url)
        self.assertContains(preview, "The text to write in place of “1931” in the claim&#x27;s sentence:")
        self.assertContains(preview, "<blockquote class=\"evidence\">The bridge opened in 1932.</blockquote>", html=False)
        self.assertEqual(confirmed(self.client, url).status_code, 200)
        self.assertEqual(self.wiki_text().strip(), PAGE.replace("opened in 1931.", "opened in 1932.").strip())
        self.assertIn("Corrected a figure to what its cited source gives: 1931 → 1932", self.last_comment())
        self.assertEqual(AuditEntry.objects.get().action, "correct")

    def test_a_bot_password_that_does_not_log_in_is_a_sentence(self):
        claim = self.claim("It is made of red stone")
        with override_settings(SIDE_WIKI_PASSWORD="wrong-password-wrong-password-xx"):
            response = confirmed(self.client, reverse("claim_tag", args=[claim.pk]))
        self.assertContains(response, "refused the login", status_code=502)
        self.assertNotIn("failed verification", self.wiki_text())

    def test_a_protected_page_is_refused_in_a_sentence_with_the_change_to_make_by_hand(self):
        self.server.protect(self.title)
        scan_titles(self.server, self.title)  # protecting wrote a (null) revision: scan it
        claim = self.claim("It is made of red stone")
        before = self.server.current_revid(self.title)
        response = confirmed(self.client, reverse("claim_tag", args=[claim.pk]))
        self.assertContains(response, f"The page “{self.title}”", status_code=502)
        self.assertContains(response, "is protected on the wiki and the tool&#x27;s account may not edit it",
                            status_code=502)
        self.assertContains(response, "Nothing was saved", status_code=502)
        self.assertContains(response, "{{failed verification", status_code=502)  # the change, to make by hand
        self.assertContains(response, "Back to the claim", status_code=502)
        self.assertNotContains(response, "protectedpage)", status_code=502)
        self.assertEqual(self.server.current_revid(self.title), before)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.status, entry.revision_id), ("failed", None))
        self.assertIn("protected", entry.outcome)

    def test_a_blocked_account_is_refused_in_a_sentence(self):
        name = f"Side blocked bot {uuid.uuid4().hex[:6]}"
        user, password = self.server.bot_password(name, "bot-account-password")
        self.server.block(name)
        claim = self.claim("It is made of red stone")
        with override_settings(SIDE_WIKI_USERNAME=user, SIDE_WIKI_PASSWORD=password):
            response = confirmed(self.client, reverse("claim_tag", args=[claim.pk]))
        self.assertContains(response, "The tool&#x27;s account is blocked from editing on the wiki", status_code=502)
        self.assertContains(response, "An admin of the wiki can lift the block", status_code=502)
        self.assertNotIn("failed verification", self.wiki_text())

    def test_anonymous_and_annotators_cannot_save(self):
        claim = self.claim("It is made of red stone")
        url = reverse("claim_tag", args=[claim.pk])
        self.assertEqual(Client().post(url, {"confirm": "1"}).status_code, 302)
        annotator = Client()
        annotator.login(username=self.users["annotator"].username, password=PASSWORD)
        self.assertEqual(annotator.post(url, {"confirm": "1"}).status_code, 403)
        self.assertNotIn("failed verification", self.wiki_text())

    def test_the_wiki_itself_refuses_a_save_on_a_stale_base_revision(self):
        """The second line of defence: an edit landing between our check and the save."""
        base_rev = self.server.current_revid(self.title)
        client = client_for(Wiki.objects.get(api_url=self.server.api_url), interactive=True)
        base_stamp = client.latest_revision(self.title)[1]
        # MediaWiki's timestamps have one-second resolution: the human edit must land in a
        # later second than the base revision for the wiki to see a conflict at all.
        time.sleep(1.1)
        self.server.edit(self.title, PAGE.replace("red stone", "grey granite"), summary="a human edit")
        ours = PAGE.replace("red stone", "yellow brick")
        with mock.patch.object(WikiClient, "latest_revision", return_value=(base_rev, base_stamp)):
            with self.assertRaisesRegex(EditConflict, "nothing was saved"):
                client.edit(self.title, ours, "test", baserevid=base_rev,
                            starttimestamp=datetime.now(timezone.utc))
        self.assertIn("grey granite", self.wiki_text())
