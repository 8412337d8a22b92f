"""In a real browser: an editor works through the flagged list by keyboard and dismisses
a flag; an admin starts a scan and watches it finish. Screenshots land in var/screenshots/."""
from __future__ import annotations

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import ClaimReview
from sideapp.models import ScanJob
from tests.browser_support import BrowserTestCase
from tests.pipeline_support import PipelineTestCase
from tests.users import cast


class EditorBrowserTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        _, self.claims = article_with_claims("Kell Bridge", [
            ClaimRow("The viaduct opened in 1931.", "not_supported", 0.10, ["History"],
                     cited_url="http://a.test/1", suggestion_url="http://b.test/1", better=True),
            ClaimRow("It has nine arches.", "not_supported", 0.30, ["Design"], cited_url="http://a.test/2"),
        ])
        self.log_in(self.users["editor"].username)

    def search_by_keyboard(self, words: str) -> None:
        self.page.goto(self.url("/claims/"))
        self.page.keyboard.press("/")
        self.page.keyboard.type(words)
        sent = []
        self.page.on("request", lambda request: sent.append(request.url) if "/claims/?" in request.url else None)
        with self.page.expect_response(lambda r: "/claims/?" in r.url) as answer:
            self.page.keyboard.press("Enter")
        self.assertEqual(answer.value.status, 200)
        self.page.wait_for_function("document.querySelectorAll('#claim-rows tr[data-href]').length === 1")
        self.page.wait_for_timeout(300)
        self.assertEqual(len(sent), 1, sent)  # Enter sends one request, not a change and a submit

    def test_an_editor_searches_moves_and_opens_a_claim_by_keyboard(self):
        self.search_by_keyboard("viaduct")
        self.assertIn("q=viaduct", self.page.url)
        self.screenshot("list-searched")
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("j")
        self.page.keyboard.press("o")
        self.page.wait_for_url(f"**/claims/{self.claims[0].pk}/")
        self.assertIn("not supported", self.page.inner_text("main"))
        self.screenshot("claim-page")
        self.page.go_back()
        self.page.wait_for_selector("#claim-rows tr[data-href]")
        self.assertEqual(self.page.input_value("input[name=q]"), "viaduct")
        self.assertEqual(self.page.locator("#claim-rows tr[data-href]").count(), 1)

    def test_an_editor_dismisses_a_flag_and_it_leaves_their_list(self):
        self.page.goto(self.url(f"/claims/{self.claims[0].pk}/"))
        self.page.select_option("#claim-reviews select[name=reason]", "source_supports")
        self.page.click("#claim-reviews button:has-text('Dismiss')")
        self.page.wait_for_selector("text=You dismissed the flag on this claim")
        self.screenshot("claim-dismissed")
        review = ClaimReview.objects.get()
        self.assertEqual((review.user, review.reason), (self.users["editor"], "source_supports"))
        self.page.goto(self.url("/claims/"))
        self.assertNotIn("The viaduct opened in 1931.", self.page.inner_text("#claim-rows"))
        self.assertIn("It has nine arches.", self.page.inner_text("#claim-rows"))


    def test_an_editor_dismisses_a_suggestion_in_place_and_it_moves_last_folded(self):
        claim = self.claims[0]
        claim.suggestions.create(rank=2, url="http://b.test/2", title="Second page", score=0.5, verdict="supported")
        self.page.set_viewport_size({"width": 1280, "height": 600})
        self.page.goto(self.url(f"/claims/{claim.pk}/"))
        first = self.page.locator("section.suggestion").first
        first.scroll_into_view_if_needed()
        scrolled = self.page.evaluate("window.scrollY")
        self.assertGreater(scrolled, 0)
        first.locator("input[name=note]").fill("a blog, not a record")
        first.locator("button:has-text('Dismiss')").click()
        self.page.wait_for_selector("text=Suggestion dismissed")
        self.assertEqual(self.page.evaluate("window.scrollY"), scrolled)  # no jump to the top
        cards = self.page.locator("section.suggestion")
        self.assertIn("Second page", cards.first.inner_text())
        last = cards.last
        self.assertIn("dismissed by you", last.inner_text())
        self.assertIn("a blog, not a record", last.inner_text())
        self.assertEqual(last.locator("text=Add as an additional citation").count(), 0)
        self.screenshot("suggestion-dismissed")


class AdminScanBrowserTests(BrowserTestCase, PipelineTestCase):
    def test_an_admin_starts_a_scan_and_watches_it_finish(self):
        users = cast()
        self.log_in(users["admin"].username)
        self.page.goto(self.url("/scans/"))
        self.page.fill("textarea[name=titles]", "Margaret Ellery")
        self.page.fill("input[name=wiki]", self.wiki.api_url)
        self.page.click("button:has-text('Scan')")
        self.page.wait_for_selector("#scan-status")
        self.screenshot("scan-queued")
        self.run_workers()
        self.page.wait_for_selector("#scan-status .status.done", timeout=30_000)
        self.screenshot("scan-done")
        job = ScanJob.objects.get()
        self.assertEqual(job.status, ScanJob.Status.DONE, job.reason)
        self.assertIn("Margaret Ellery", self.page.inner_text("#scan-status"))


class EditorWikiEditBrowserTests(BrowserTestCase):
    """Against the real test MediaWiki: apply a suggestion and see the new revision;
    copy an article's talk-page report."""

    def setUp(self):
        super().setUp()
        from tests.wiki_support import page_for_edits

        self.server, self.title = page_for_edits(self, "Side browser edit")
        self.users = cast()
        self.log_in(self.users["editor"].username)

    def test_an_editor_applies_a_suggestion_and_sees_the_new_revision(self):
        from sideapp.models import Claim
        from tests.edits_support import judged_not_supported, suggested

        claim = judged_not_supported(Claim.objects.get(article__title=self.title,
                                                       text__startswith="It is made of red stone"))
        suggested(claim, "https://example.org/stone", "Stone of the bridge", site_name="Bridge Stones")
        self.page.goto(self.url(f"/claims/{claim.pk}/"))
        self.page.click("text=Replace the failing citation")
        self.page.wait_for_selector("pre.diff")
        self.screenshot("apply-preview")
        self.page.click("button:has-text('Save this change on the wiki')")
        self.page.wait_for_selector("#saved-revision")
        self.screenshot("apply-saved")
        rev_id = int(self.page.inner_text("#saved-revision"))
        self.assertEqual(rev_id, self.server.current_revid(self.title))
        self.assertIn("https://example.org/stone", self.server.admin_site.pages[self.title].text(cache=False))

    def test_an_editor_copies_an_article_report(self):
        from sideapp.edits.models import AuditEntry
        from sideapp.models import Article

        article = Article.objects.get(title=self.title)
        self.page.goto(self.url(f"/articles/{article.pk}/report/"))
        self.assertFalse(AuditEntry.objects.exists())  # reading the report is not copying it
        with self.page.expect_response(lambda r: r.request.method == "POST"):
            self.page.click("button:has-text('Copy report')")
        copied = self.page.evaluate("navigator.clipboard.readText()")
        self.assertEqual(list(AuditEntry.objects.values_list("action", flat=True)), [AuditEntry.Action.REPORT])
        self.assertIn("← Claims of", self.page.inner_text("main"))  # and a way back
        self.screenshot("report")
        self.assertIn('{| class="wikitable', copied)
        self.assertEqual(copied.strip(), self.page.inner_text("#report").strip())


class CitedTwiceBrowserTests(BrowserTestCase):
    """A page that cites one source twice (issue 30): the claim page shows the claim's own
    ref, and the tag saved from Side editor's page lands on it, not on the other sentence."""

    def setUp(self):
        super().setUp()
        from tests.test_edits_saving import TWICE
        from tests.wiki_support import page_for_edits

        self.server, self.title = page_for_edits(self, "Side browser twice", text=TWICE)
        self.users = cast()
        self.log_in(self.users["editor"].username)

    def test_an_editor_tags_the_claims_own_use_of_a_page_cited_twice(self):
        from sideapp.models import Claim
        from tests.edits_support import judged_not_supported

        claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="In 1947"))
        self.page.goto(self.url(f"/claims/{claim.pk}/"))
        cited = self.page.inner_text(".card[data-side-cited]")
        self.assertIn("Notable alumni", cited)
        self.assertIn("a re-use of the named ref “ngc”", cited)
        self.assertNotIn("Alumni again", cited)
        self.screenshot("cited-twice-claim")
        self.page.click("text=Tag the citation")
        self.page.wait_for_selector("pre.diff")
        self.assertIn("Later life", self.page.inner_text("main"))
        self.screenshot("cited-twice-preview")
        self.page.click("button:has-text('Save this change on the wiki')")
        self.page.wait_for_selector("#saved-revision")
        text = self.server.admin_site.pages[self.title].text(cache=False)
        self.assertIn('council.<ref name="ngc"/>{{failed verification|date=', text)
        self.assertEqual(text.count("failed verification"), 1)
        self.page.set_viewport_size({"width": 390, "height": 844})
        self.page.goto(self.url(f"/claims/{claim.pk}/"))
        self.screenshot("cited-twice-claim-phone")
