"""In a real browser, everything that goes wrong reads as a sentence of the app: an htmx
action after the session ended (to the login page and back), a form from an out-of-date
page, a missing or forbidden page, an unexpected error, the wiki's own refusal of an edit,
and scans of a wiki that does not answer, of a category that does not exist and of an
empty one (run by a real RQ worker). Screenshots land in var/screenshots/."""
from __future__ import annotations

import uuid

from django.contrib.sessions.models import Session
from django.test import override_settings

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import ClaimReview
from sideapp.models import ScanJob
from tests.browser_support import BrowserTestCase
from tests.users import PASSWORD, cast
from tests.wiki_support import NOWHERE, demo_wiki, page_for_edits
from tests.worker_support import run_burst_worker

INTERNALS = ("Traceback", "ConnectionError", "HTTPConnectionPool", "Max retries", "DEBUG=True",
             "CSRF verification failed")


class FailureInWordsMixin:
    def assert_no_internals(self) -> str:
        text = self.page.inner_text("body")
        for internal in INTERNALS:
            self.assertNotIn(internal, text)
        return text


class EditorFailureBrowserTests(FailureInWordsMixin, BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        _, (self.claim,) = article_with_claims("Kell Bridge", [ClaimRow(
            "The viaduct opened in 1931.", cited_url="http://a.test/1", suggestion_url="http://b.test/1")])
        self.log_in(self.users["editor"].username)

    def test_an_htmx_action_after_the_session_ended_goes_to_log_in_and_back_to_the_page(self):
        page_path = f"/claims/{self.claim.pk}/"
        self.page.goto(self.url(page_path))
        Session.objects.all().delete()  # the session ends while the page is open
        self.page.click("text=I checked it: the claim is verified")
        self.page.wait_for_url("**/login/?next=*")
        self.assertEqual(self.page.locator("#claim-reviews").count(), 0)  # a whole page, not a card
        self.assertIn("you come back to the page you were on", self.page.inner_text("main"))
        self.screenshot("session-ended-login")
        self.page.fill("input[name=username]", self.users["editor"].username)
        self.page.fill("input[name=password]", PASSWORD)
        with self.page.expect_navigation():
            self.page.keyboard.press("Enter")
        self.assertEqual(self.page.url, self.url(page_path))  # the page, not the fragment's URL
        self.assertFalse(ClaimReview.objects.exists())

    def test_an_htmx_form_from_an_out_of_date_page_says_so_in_place(self):
        self.page.goto(self.url(f"/claims/{self.claim.pk}/"))
        self.context.clear_cookies(name="csrftoken")
        self.page.click("text=I checked it: the claim is verified")
        alert = self.page.wait_for_selector("#claim-reviews [role=alert]")
        self.assertIn("This form came from a page that is out of date", alert.inner_text())
        self.assertIn("Reload the page", alert.inner_text())
        self.assertEqual(self.page.locator("header.top").count(), 1)  # no second page inside the card
        self.assert_no_internals()
        self.screenshot("csrf-htmx")
        self.assertFalse(ClaimReview.objects.exists())
        self.page.click("#claim-reviews >> text=Reload the page")
        self.page.click("text=I checked it: the claim is verified")  # a fresh page works again
        self.page.wait_for_selector("text=You verified this claim by hand")

    def test_a_missing_page_and_a_forbidden_page_are_pages_of_the_app(self):
        self.page.goto(self.url("/claims/999999/"))
        self.assertEqual(self.page.inner_text("h1"), "Not found")
        self.assertIn("Log out eve_editor", self.page.inner_text("header"))
        self.screenshot("not-found")
        self.page.goto(self.url("/scans/"))
        self.assertEqual(self.page.inner_text("h1"), "Not allowed")
        self.assertIn("This page is for the role admin, which your account (eve_editor) does not have.",
                      self.page.inner_text("main"))
        self.page.click("text=Back to the start page")
        self.page.wait_for_url(self.url("/"))
        self.assert_no_internals()


@override_settings(ROOT_URLCONF="tests.error_urls")
class UnexpectedErrorBrowserTests(FailureInWordsMixin, BrowserTestCase):
    def test_an_unexpected_error_is_a_page_of_the_app_without_the_trace(self):
        self.log_in(cast()["editor"].username)
        self.page.goto(self.url("/fails/"))
        self.assertEqual(self.page.inner_text("h1"), "Something went wrong")
        self.assertNotIn("secret-detail-42", self.assert_no_internals())
        self.screenshot("server-error")


class AdminFormFailureBrowserTests(FailureInWordsMixin, BrowserTestCase):
    def test_a_plain_form_from_an_out_of_date_page_is_a_page_with_a_way_back(self):
        self.log_in(cast()["admin"].username)
        self.page.goto(self.url("/scans/"))
        self.context.clear_cookies(name="csrftoken")
        self.page.fill("textarea[name=titles]", "River Arle")
        self.page.click("button:has-text('Scan')")
        self.page.wait_for_selector("h1:has-text('The page was out of date')")
        self.assert_no_internals()
        self.screenshot("csrf-form")
        self.assertFalse(ScanJob.objects.exists())
        self.page.click("text=Reload the page")
        self.page.wait_for_url(self.url("/scans/"))


class ScanFailureBrowserTests(FailureInWordsMixin, BrowserTestCase):
    """The scan page ends in one status with its reason in words, whatever went wrong."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = demo_wiki(NOWHERE)

    def setUp(self):
        super().setUp()
        self.log_in(cast()["admin"].username)

    def start_scan(self, *, wiki: str, titles: str = "", category: str = "") -> str:
        self.page.goto(self.url("/scans/"))
        if category:
            self.page.check("input[name=kind][value=category]")
            self.page.fill("input[name=category]", category)
        else:
            self.page.fill("textarea[name=titles]", titles)
        self.page.fill("input[name=wiki]", wiki)
        self.page.click("button:has-text('Scan')")
        self.page.wait_for_selector("#scan-status")
        status = self.page.inner_text("#scan-status .scan-state")
        self.assertIn("Queued", status)
        self.assertNotIn("queued.", self.page.inner_text("main"))  # no flash left to outlive the state
        done = run_burst_worker("scan", SIDE_WIKI_RETRIES="2", SIDE_WIKI_BACKOFF="0.05")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.page.wait_for_selector("#scan-status:not([hx-trigger])", timeout=20_000)  # polling stopped
        return self.page.inner_text("#scan-status .scan-state")

    def test_a_wiki_that_does_not_answer_is_one_failed_status_and_a_sentence(self):
        state = self.start_scan(wiki="http://127.0.0.1:9/api.php", titles="Anything")
        self.assertIn("Failed", state)
        self.assertIn("The article could not be scanned: the wiki at http://127.0.0.1:9/api.php did not answer "
                      "after 2 tries (the connection to 127.0.0.1:9 was refused or dropped).", state)
        self.assertNotIn("Queued", state)
        self.assertNotIn("all 1 articles", self.assert_no_internals())
        self.assertEqual(self.page.locator("button:has-text('Retry what failed')").count(), 1)
        self.screenshot("scan-wiki-down")

    def assert_ended_without_a_list(self, state: str, status: str, sentence: str) -> None:
        """One status, its reason as a sentence, no empty table of articles, and no offer
        to scan "these articles" again: there were none."""
        self.assertIn(status, state)
        self.assertIn(sentence, state)
        self.assertNotIn("Waiting for the list of articles", self.assert_no_internals())
        self.assertEqual(self.page.locator("button:has-text('Scan these articles again')").count(), 0)
        self.assertEqual(self.page.locator("button:has-text('Ask the wiki again')").count(), 1)

    def test_a_category_that_does_not_exist_fails_with_the_reason_and_no_empty_table(self):
        name = f"No such category {uuid.uuid4().hex[:6]}"
        state = self.start_scan(wiki=self.server.api_url, category=name)
        self.assert_ended_without_a_list(
            state, "Failed", f"Category:{name} does not exist on the wiki: check the category's name.")
        self.screenshot("scan-category-missing")

    def test_an_empty_category_is_done_with_nothing_to_scan_and_no_empty_table(self):
        name = f"Side empty {uuid.uuid4().hex[:6]}"
        self.server.edit(f"Category:{name}", "No article is in this category.")
        state = self.start_scan(wiki=self.server.api_url, category=name)
        self.assert_ended_without_a_list(state, "Done", f"Nothing to scan: Category:{name} has no articles.")
        self.screenshot("scan-category-empty")


class WikiRefusalBrowserTests(FailureInWordsMixin, BrowserTestCase):
    """Against the real test MediaWiki: a protected page refuses the save; the editor reads
    why, what to do, and gets the change to make by hand."""

    def setUp(self):
        super().setUp()
        self.server, self.title = page_for_edits(self, "Side browser refusal", protect=True)
        self.log_in(cast()["editor"].username)

    def test_a_protected_page_refuses_the_save_in_words_with_a_way_back(self):
        from sideapp.models import Claim
        from tests.edits_support import judged_not_supported

        claim = judged_not_supported(Claim.objects.get(article__title=self.title,
                                                       text__startswith="It is made of red stone"))
        before = self.server.current_revid(self.title)
        self.page.goto(self.url(f"/claims/{claim.pk}/tag/"))
        self.page.click("button:has-text('Save this change on the wiki')")
        alert = self.page.wait_for_selector("main [role=alert]")
        self.assertIn("is protected on the wiki and the tool's account may not edit it", alert.inner_text())
        self.assertIn("Nothing was saved.", alert.inner_text())
        self.assertIn("{{failed verification", self.page.inner_text("#snippet"))
        self.assert_no_internals()
        self.screenshot("wiki-protected")
        self.assertEqual(self.server.current_revid(self.title), before)
        self.page.click("text=← Back to the claim")
        self.page.wait_for_url(self.url(f"/claims/{claim.pk}/"))
