"""The gadget in real Chromium on the real local MediaWiki, installed through the wiki's own
pages (MediaWiki:Gadgets-definition and MediaWiki:Gadget-side-editor.js/.css), talking to
Side editor served by the live test server. Screenshots land in var/screenshots/."""
from __future__ import annotations

import re


from harness.demo import SOURCES_DIR
from harness.webserver import SourceServer
from sideapp.gadget.install import gadget_pages
from sideapp.models import Claim, ScanJob
from tests.api_support import PAGE, WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page
from tests.browser_support import BrowserTestCase
from tests.test_edits_saving import TWICE  # one page that cites one source twice
from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.judgement.reasons import words as reason_words

WIKI_USER, WIKI_PASSWORD = "Side gadget tester", "gadget-tester-password"


class GadgetTestCase(WikiConfigured, BrowserTestCase):
    way = "copy"  # the script and stylesheet kept on the wiki's own pages

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server.edit_interface(gadget_pages(cls.live_server_url, way=cls.way))
        cls.server.create_account(WIKI_USER, WIKI_PASSWORD)

    @classmethod
    def tearDownClass(cls):
        cls.server.edit_interface({"MediaWiki:Gadgets-definition": ""})  # the wiki as it was
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        forget_api_cache()
        self.title = fresh_title("Side gadget")
        self.article = scanned_page(self.server, self.title)
        self.stone = judge(Claim.objects.get(article=self.article, text__startswith="It is made"))
        self.span = judge(Claim.objects.get(article=self.article, text__startswith="Its span"), "partially_supported",
                          confidence="low", reason="the source backs part of it, not all")
        self.page.on("console", lambda message: self.console.append(message.text))
        self.console: list[str] = []

    def view(self, title: str | None = None, page=None) -> None:
        page = page or self.page
        page.goto(f"{self.server.index_url}?title={(title or self.title).replace(' ', '_')}")
        page.wait_for_selector("html[data-side-editor=ready], html[data-side-editor=failed]")
        self.assertEqual(page.get_attribute("html", "data-side-editor"), "ready", self.console)

    def wiki_log_in(self) -> None:
        self.page.goto(f"{self.server.index_url}?title=Special:UserLogin")
        self.page.fill("#wpName1", WIKI_USER)
        self.page.fill("#wpPassword1", WIKI_PASSWORD)
        with self.page.expect_navigation():
            self.page.click("#wpLoginAttempt")

    def latest(self) -> dict:
        result = self.server.admin_site.api("query", prop="revisions", titles=self.title,
                                            rvprop="ids|user|comment|content", rvslots="main", formatversion=2)
        revision = result["query"]["pages"][0]["revisions"][0]
        return {"revid": revision["revid"], "user": revision["user"], "comment": revision["comment"],
                "text": revision["slots"]["main"]["content"]}


class GadgetReaderTests(GadgetTestCase):
    def test_markers_stand_on_exactly_the_claims_with_findings_and_open_a_card(self):
        self.view()
        markers = self.page.locator(".side-editor-marker")
        self.assertEqual(sorted(int(m.get_attribute("data-side-claim")) for m in markers.all()),
                         sorted([self.stone.pk, self.span.pk]))
        stone = self.page.locator(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        self.assertEqual(stone.get_attribute("data-side-verdict"), "not_supported")
        self.assertIn("unsupported", stone.inner_text())  # words, not colour alone
        # Right after the claim's own footnote marker.
        self.assertTrue(self.page.evaluate(
            "m => m.previousElementSibling.matches('sup.reference')", stone.element_handle()))
        stone.focus()  # Tab reaches it; focus opens the card
        card = self.page.locator(".side-editor-card")
        self.assertIn("not supported", card.inner_text())
        self.assertIn("the source gives 1932, not 1931", card.inner_text())
        self.assertIn("The bridge opened in 1932.", card.inner_text())
        self.assertIn("The cited source says:", card.inner_text())  # its own figure's line, no near miss
        self.assertEqual(card.locator("[data-side-action]").count(), 0)  # logged out: no actions
        self.assertEqual(card.locator("a:has-text('Open in Side editor')").get_attribute("href"),
                         f"{self.live_server_url}/claims/{self.stone.pk}/")
        self.screenshot("card-desktop")
        self.page.keyboard.press("Escape")
        self.assertEqual(self.page.locator(".side-editor-card").count(), 0)
        self.assertEqual(self.page.evaluate("document.activeElement.dataset.sideClaim"), str(self.stone.pk))
        self.page.keyboard.press("Enter")
        self.assertEqual(self.page.locator(".side-editor-card").count(), 1)

    def test_a_footnote_link_still_jumps_to_its_footnote(self):
        self.view()
        self.page.click("sup.reference a >> nth=1")
        self.page.wait_for_function("location.hash.indexOf('#cite_note-') === 0")
        self.assertEqual(self.page.locator(".side-editor-card").count(), 0)

    def test_on_a_phone_the_card_is_a_sheet_at_the_bottom(self):
        context = self.browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        self.view(page=page)
        page.click(f".side-editor-marker[data-side-claim='{self.span.pk}']")
        box = page.locator(".side-editor-card").bounding_box()
        self.assertLessEqual(box["width"], 390)
        self.assertAlmostEqual(box["y"] + box["height"], 844, delta=2)
        self.assertIn("partially supported", page.locator(".side-editor-card").inner_text())
        page.screenshot(path=str(self.screenshot("unused").with_name("GadgetReaderTests-card-390.png")), full_page=False)
        context.close()

    def test_text_from_the_api_never_becomes_markup(self):
        Claim.objects.filter(pk=self.stone.pk).update(verify_reason='<img src=x onerror="window.pwned=1">bold')
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        self.assertIn('<img src=x onerror="window.pwned=1">bold', self.page.locator(".side-editor-card").inner_text())
        self.assertEqual(self.page.locator(".side-editor-card img").count(), 0)
        self.assertIsNone(self.page.evaluate("window.pwned"))

    def test_the_card_shows_one_line_per_part_with_the_lines_of_its_source_that_hold_it(self):
        parts = [{"text": "It is made of red stone", "score": 0.2, "verdict": "not_supported",
                  "evidence": {"sentences": ["The bridge is built of <b>grey</b> granite."]}},
                 {"text": "and opened in 1931", "score": 0.1, "verdict": "not_supported",
                  "evidence": {"sentences": []}}]
        self.stone.claim_citations.update(parts=parts)
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        card = self.page.locator(".side-editor-card")
        rows = card.locator(".side-editor-part")
        self.assertEqual(rows.count(), 2)
        self.assertIn("It is made of red stone: not supported", rows.nth(0).inner_text())
        self.assertIn("no line of the source holds it", rows.nth(1).inner_text())
        self.assertEqual(card.locator(".side-editor-part-line").all_inner_texts(),
                         ["The bridge is built of <b>grey</b> granite."])  # text, never markup
        self.assertEqual(card.locator("b").count(), 0)
        self.assertIn("The bridge opened in 1932.", card.inner_text())  # the quote stays

    def test_only_the_wikis_origin_may_read_the_api(self):
        self.view()
        url = f"{self.live_server_url}/api/v1/findings?wiki_id=sidewiki&page_id={self.article.page_id}"
        read = "u => fetch(u, {credentials: 'omit'}).then(r => r.status, e => 'blocked')"
        self.assertEqual(self.page.evaluate(read, url), 200)
        other = SourceServer(SOURCES_DIR, host="127.0.0.2")
        try:
            self.page.goto(other.start() + "/pages/klt-history.html")
            self.assertEqual(self.page.evaluate(read, url), "blocked")
        finally:
            other.stop()


class GadgetEditorTests(GadgetTestCase):
    def open_tag_dialog(self) -> None:
        self.wiki_log_in()
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        self.page.click(".side-editor-card [data-side-action=tag]")
        self.page.wait_for_selector(".side-editor-dialog pre.side-editor-diff")

    def test_a_wiki_user_tags_a_failing_citation_as_their_own_edit(self):
        before = self.latest()["revid"]
        self.open_tag_dialog()
        self.assertIn("{{failed verification", self.page.inner_text(".side-editor-dialog"))
        self.screenshot("tag-dialog")
        with self.page.expect_navigation():
            self.page.click("[data-side-confirm]")
        latest = self.latest()
        self.assertGreater(latest["revid"], before)
        self.assertEqual(latest["user"], WIKI_USER)
        self.assertEqual(latest["comment"], "Tagged a citation that does not support the claim; checked with Side editor")
        self.assertRegex(latest["text"], r"red stone\.<ref>\{\{cite web \|url=http://127.0.0.1:9/stone \|title=Stone\}\}"
                                         r"</ref>\{\{failed verification\|date=\w+ \d{4}\}\}")
        self.assertEqual(latest["text"].count("failed verification"), 1)
        self.assertEqual(re.sub(r"\{\{failed verification\|date=\w+ \d{4}\}\}", "", latest["text"]).strip(), PAGE.strip())
        self.assertTrue(ScanJob.objects.filter(items__title=self.title).exclude(pk__in=[]).count() >= 2)

    def test_an_edit_made_in_between_is_a_conflict_and_nothing_is_saved(self):
        self.open_tag_dialog()
        theirs = self.server.edit(self.title, PAGE + "\nSomeone else's paragraph.\n", summary="a human edit")
        self.page.click("[data-side-confirm]")
        self.page.wait_for_selector(".side-editor-dialog .side-editor-problem:has-text('Edit conflict')")
        self.assertIn("Nothing was saved", self.page.inner_text(".side-editor-dialog"))
        self.assertEqual(self.latest()["revid"], theirs)
        self.assertNotIn("failed verification", self.latest()["text"])
        self.screenshot("conflict")

    def test_on_a_page_citing_one_source_twice_the_tag_lands_on_the_claims_own_citation(self):
        title = fresh_title("Side gadget twice")
        article = scanned_page(self.server, title, TWICE)
        claim = judge(Claim.objects.get(article=article, text__startswith="In 1947"))
        self.wiki_log_in()
        self.view(title)
        self.page.click(f".side-editor-marker[data-side-claim='{claim.pk}']")
        self.page.click(".side-editor-card [data-side-action=tag]")
        self.page.wait_for_selector(".side-editor-dialog .side-editor-diff")
        self.assertIn('<ref name="ngc"/>{{failed verification', self.page.inner_text(".side-editor-dialog"))
        self.screenshot("tag-dialog-cited-twice")
        with self.page.expect_navigation():
            self.page.click("[data-side-confirm]")
        # The reloaded page asks Side editor for its findings and a check: let those answer
        # before the test's database goes away under them.
        self.page.wait_for_selector("html[data-side-editor=ready], html[data-side-editor=failed]")
        self.page.wait_for_load_state("networkidle")
        text = self.server.admin_site.pages[title].text(cache=False)
        self.assertRegex(text, r'council\.<ref name="ngc"/>\{\{failed verification\|date=\w+ \d{4}\}\}')
        self.assertEqual(text.count("failed verification"), 1)

    def test_a_dead_citation_read_in_its_archived_copy_is_marked_and_rescued_as_the_readers_edit(self):
        stone = judge(self.stone, "supported", reason="the source says it", quote="It is made of red stone.")
        copy = "http://127.0.0.1:9/web/20190312000000/http://127.0.0.1:9/stone"
        words = "the web archive at 127.0.0.1:9's copy of 12 March 2019"
        stone.claim_citations.update(page_state="gone", copy={
            "read": "copy", "archive": "127.0.0.1:9", "timestamp": "20190312000000", "url": copy, "words": words})
        self.wiki_log_in()
        self.view()  # supported, yet marked by default: its page is dead and its copy can be written in
        marker = f".side-editor-marker[data-side-claim='{stone.pk}']"
        self.assertIn("in archived copy", self.page.inner_text(marker))
        self.page.click(marker)
        self.assertIn(f"Read in {words}.", self.page.inner_text(".side-editor-card"))
        self.page.click(".side-editor-card [data-side-action=archive]")
        self.page.wait_for_selector(".side-editor-dialog pre.side-editor-diff")
        self.assertIn(f"|archive-url={copy}", self.page.inner_text(".side-editor-dialog"))
        self.screenshot("archive-dialog")
        with self.page.expect_navigation():
            self.page.click("[data-side-confirm]")
        latest = self.latest()
        self.assertEqual(latest["user"], WIKI_USER)
        self.assertIn(f"{{{{cite web |url=http://127.0.0.1:9/stone |title=Stone |archive-url={copy} "
                      "|archive-date=12 March 2019 |url-status=dead}}</ref>", latest["text"])
        self.assertEqual(latest["text"].count("archive-url"), 1)

    def test_a_wiki_user_corrects_a_figure_to_the_sources_as_their_own_edit(self):
        figure = Reason(ReasonKind.FIGURE, claimed="120 metres", given="130 metres", thing="the bridge's span")
        span = judge(self.span, reason=reason_words([figure]), reasons=[figure.to_json()])
        self.wiki_log_in()
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{span.pk}']")
        button = ".side-editor-card [data-side-action=correct]"
        self.assertEqual(self.page.inner_text(button), "Change “120 metres” to “130 metres”")
        self.page.click(button)
        self.page.wait_for_selector(".side-editor-dialog pre.side-editor-diff")
        self.screenshot("correct-dialog")
        with self.page.expect_navigation():
            self.page.click("[data-side-confirm]")
        latest = self.latest()
        self.assertEqual(latest["user"], WIKI_USER)
        self.assertTrue(latest["comment"].startswith("Corrected a figure to what its cited source gives: "
                                                     "120 metres → 130 metres"))
        self.assertEqual(latest["text"].strip(), PAGE.replace("span is 120 metres", "span is 130 metres").strip())

    def test_a_logged_in_user_sees_the_actions_the_card_offers(self):
        self.wiki_log_in()
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{self.span.pk}']")
        self.assertEqual(self.page.locator(".side-editor-card [data-side-action]").count(), 0)  # partial: none
        self.page.keyboard.press("Escape")
        self.page.click(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        self.assertEqual([b.get_attribute("data-side-action") for b in
                          self.page.locator(".side-editor-card [data-side-action]").all()], ["tag"])


class SiteGadgetTests(GadgetTestCase):
    way = "site"  # the gadget's page loads the script from Side editor

    def test_a_stale_page_offers_a_check_and_shows_its_progress(self):
        self.server.edit(self.title, PAGE.replace("120 metres", "125 metres"))
        self.view()
        self.page.click(f".side-editor-marker[data-side-claim='{self.stone.pk}']")
        self.assertIn("this revision is newer", self.page.inner_text(".side-editor-card"))
        self.page.click(".side-editor-card .side-editor-check")
        self.page.wait_for_selector(".side-editor-panel:has-text('reading the page 0/1')")
        self.screenshot("check-progress")
        job = ScanJob.objects.filter(items__title=self.title).order_by("-pk").first()
        from sideapp.pipeline.stages import scan_job

        scan_job(job.items.get().pk)
        article = type(self.article).objects.get(pk=self.article.pk)
        judge(Claim.objects.get(article=article, current=True, text__startswith="It is made"))
        ScanJob.objects.filter(pk=job.pk).update(status="done")
        self.page.wait_for_selector(".side-editor-panel:has-text('finished checking revision')", timeout=20_000)
        # The new revision's findings, not the answer the browser kept from before the check.
        self.assertIn(f"finished checking revision {self.latest()['revid']}", self.page.inner_text(".side-editor-panel"))
        self.assertEqual(self.page.locator(".side-editor-marker").count(), 1)
