"""The demo's dead, moved, soft-404, usurped and rewritten citations end to end: the real
wiki, the cited-pages server, a real pywb archive on loopback, real workers, and an editor
in a real browser who reads which copy each verdict read and saves the archive edit.
Screenshots land in var/screenshots/ (archives/)."""
from __future__ import annotations

import uuid

from django.test import override_settings

from harness.demo import DEMO_CATEGORY, WIKI_DIR, read_wiki_file
from sideapp.claims.models import Claim, ClaimCitation
from sideapp.edits.models import AuditEntry
from sideapp.sources.models import ArchivedCopy
from tests.archive_support import SOURCES_HOST, WithArchiveOnLoopback
from tests.browser_support import BrowserTestCase
from tests.users import cast
from tests.wiki_support import demo_wiki, scan_titles
from tests.worker_support import run_burst_worker

MODEL_WORKER = "sideapp.pipeline.worker.SideModelWorker"


class ArchivedCopiesEndToEndTests(WithArchiveOnLoopback, BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.wiki = demo_wiki(cls.sources.base_url)
        # Its own copy of the demo article, so that the edits saved here touch no other test's page.
        cls.title = f"Kellhaven Harbour {uuid.uuid4().hex[:8]}"
        # Out of the demo category, which other tests count on holding the demo articles only.
        text = read_wiki_file(WIKI_DIR / "Kellhaven_Harbour.wiki", cls.sources.base_url)[1]
        cls.wiki.edit(cls.title, text.replace(f"[[Category:{DEMO_CATEGORY}]]", ""))
        cls.bot = cls.wiki.bot_password("Side editor bot", "bot-account-password")
        cls.env = {"SIDE_FETCH_ALLOWLIST": SOURCES_HOST, "SIDE_FETCH_HOST_DELAY": "0", "SIDE_FETCH_RETRIES": "0",
                   "SIDE_ARCHIVES": cls.archive.setting, "SIDE_ARCHIVE_RATE": "0"}

    def setUp(self):
        super().setUp()
        settings = override_settings(SIDE_FETCH_ALLOWLIST=[SOURCES_HOST], SIDE_FETCH_HOST_DELAY=0,
                                     SIDE_FETCH_RETRIES=0, SIDE_ARCHIVES=self.archive.setting, SIDE_ARCHIVE_RATE=0,
                                     SIDE_WIKI_API_URL=self.wiki.api_url, SIDE_WIKI_USERNAME=self.bot[0],
                                     SIDE_WIKI_PASSWORD=self.bot[1])
        settings.enable()
        self.addCleanup(settings.disable)
        self.users = cast()

    def run_pipeline(self) -> None:
        """Scan the article, then the workers until nothing waits: a verdict may ask for an
        archived copy (the fetch queue), and the claim is judged again once it is read."""
        scan_titles(self.wiki, self.title)
        for _round in range(3):
            for queues in (["fetch"], ["verify", "--worker-class", MODEL_WORKER]):
                done = run_burst_worker(*queues, timeout=600, **self.env)
                self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            if not Claim.objects.filter(article__title=self.title, verify_state__in=["pending", "queued"]).exists():
                return
        waiting = Claim.objects.filter(article__title=self.title, verify_state__in=["pending", "queued"])
        self.fail(f"claims still wait after three rounds of workers: {list(waiting.values_list('text', 'verify_state', 'verify_reason'))}"
                  f" copies: {list(ArchivedCopy.objects.values_list('source__url', 'state', 'reason'))}")

    def claim(self, start: str) -> Claim:
        return Claim.objects.get(article__title=self.title, text__startswith=start, current=True)

    def link(self, start: str) -> ClaimCitation:
        return ClaimCitation.objects.select_related("citation").get(claim=self.claim(start))

    def open_claim(self, start: str, shot: str) -> str:
        self.page.goto(self.url(f"/claims/{self.claim(start).pk}/"))
        self.screenshot(shot, "archives")
        return self.page.inner_text("main")

    def save_archive_edit(self, start: str, shot: str) -> None:
        self.open_claim(start, f"{shot}-claim")
        self.page.click("a[data-side-action=archive]")
        self.page.wait_for_selector("text=Add the archived copy as it was cited")
        self.screenshot(f"{shot}-preview", "archives")
        self.page.click("button:has-text('Save')")
        self.page.wait_for_selector("#saved-revision")
        self.screenshot(f"{shot}-saved", "archives")

    def wiki_text(self) -> str:
        return self.wiki.admin_site.pages[self.title].text(cache=False)

    def test_dead_and_changed_citations_are_checked_against_their_copies_and_rescued(self):
        self.run_pipeline()
        name = self.archive.archive.replay_prefix.split("//")[1].split("/")[0]
        archive = f"the web archive at {name}"
        cases = {  # claim -> (what became of the page, the copy read)
            "Harbour dues": ("gone", "21 November 2018"), "A passenger ferry": ("home", "1 June 2020"),
            "The lifeboat station": ("soft404", "18 May 2016"), "The fish market": ("usurped", "5 September 2019"),
            "In 2019 the harbour": ("live", "10 January 2020")}
        for start, (state, day) in cases.items():
            with self.subTest(start):
                link = self.link(start)
                self.assertEqual((link.verdict, link.page_state), ("supported", state), link.reason)
                self.assertEqual(link.copy["words"], f"{archive}'s copy of {day}")
                self.assertIn(f"read in {archive}'s copy of {day}", link.reason)
        self.assertIn("supported as cited; the page has changed since", self.link("In 2019 the harbour").reason)
        self.log_in(self.users["editor"].username)
        text = self.open_claim("Harbour dues", "dead-claim")
        self.assertIn(f"Read in {archive}'s copy of 21 November 2018; the page is gone (HTTP 404).", text)
        # A live page that still supports its claim is left alone: no archive edit.
        live = self.open_claim("Pilotage is compulsory", "live-claim")
        self.assertEqual(self.page.locator("a[data-side-action=archive]").count(), 0)
        self.assertIn("Read in the live page", live)
        self.assertEqual(self.link("Pilotage").page_state, "live")
        # A dead page no archive holds: {{dead link}} is offered instead.
        self.open_claim("Fireworks over the harbour", "no-copy-claim")
        self.assertIn("no web archive holds a copy", self.link("Fireworks").reason)
        self.assertEqual(self.page.inner_text("a[data-side-action=archive]"), "Tag the citation {{dead link}}")
        self.page.set_viewport_size({"width": 390, "height": 900})
        self.open_claim("Harbour dues", "dead-claim-phone")
        self.assertLessEqual(self.page.evaluate("document.documentElement.scrollWidth"), 390)
        self.page.set_viewport_size({"width": 1280, "height": 900})

        self.save_archive_edit("Harbour dues", "dead")
        self.save_archive_edit("A passenger ferry", "home")
        saved = self.wiki_text()
        copy = self.link("Harbour dues").copy["url"]
        self.assertIn(f"|access-date=21 November 2018 |archive-url={copy} |archive-date=21 November 2018 "
                      "|url-status=dead}}", saved)
        self.assertIn("|archive-date=1 June 2020 |url-status=dead}}", saved)
        self.assertIn("|url-status=live}}", saved)  # the article's own archived citation, untouched
        self.assertEqual(list(AuditEntry.objects.filter(action="archive").values_list("status", flat=True)),
                         ["saved", "saved"])
        # The usurped domain's proposal through the API: url-status=usurped, nothing saved.
        answer = self.client.get(f"/api/v1/claims/{self.claim('The fish market').pk}/proposal", {"action": "archive"})
        self.assertEqual(answer.status_code, 200, answer.content[:500])
        self.assertIn("|url-status=usurped}}", answer.json()["text"])
        self.assertEqual(ArchivedCopy.objects.filter(state="found").count(), 5)
