"""In a real browser: an annotator works with the keyboard alone; an admin reads the
results and downloads the CSV. Screenshots land in var/screenshots/."""
from __future__ import annotations

from django.test import override_settings

from sideapp.annotation.models import Vote, VoteRevision
from tests import annotation_support as support
from tests.browser_support import BrowserTestCase
from tests.users import cast


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class AnnotationBrowserTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        support.bulk_items(6, scores=[0.1, 0.3, 0.7])

    def sign_in(self, role: str) -> None:
        self.log_in(self.users[role].username)
        # The login form's navigation may still be under way: wait for its page.
        self.page.wait_for_selector("button:has-text('Log out')")

    def item_on_page(self) -> int:
        return int(self.page.locator("input[name=item]").get_attribute("value"))

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)

    def test_an_annotator_votes_undoes_and_skips_with_the_keyboard_alone(self):
        self.sign_in("annotator")
        self.page.goto(self.url("/annotate/"))
        self.assertEqual(self.page.locator("[data-side=A]").count(), 1)
        self.assertEqual(self.page.locator("[data-side=B]").count(), 1)
        self.screenshot("item")
        voted = []
        for answer in (["a", "1", "9"], ["b", "2", "7"], ["e", "2", "8"]):
            voted.append(self.item_on_page())
            self.keys(*answer, "Enter")
            self.page.wait_for_load_state()
            self.page.wait_for_function(f"document.querySelector('input[name=item]').value != '{voted[-1]}'")
        self.assertEqual(Vote.objects.count(), 3)
        self.keys("u")  # the last vote comes back, answers filled in
        self.page.wait_for_selector("input[name=vote]", state="attached")
        self.assertEqual(self.item_on_page(), voted[-1])
        self.assertTrue(self.page.locator("input[name=preference][value=equal]").is_checked())
        self.screenshot("undo")
        self.keys("n", "3", "9", "Enter")
        self.page.wait_for_function("!document.querySelector('input[name=vote]')")
        self.assertEqual(Vote.objects.get(item_id=voted[-1]).preference, "neither")
        self.assertEqual(VoteRevision.objects.count(), 1)
        skipped = self.item_on_page()
        self.keys("s", "ArrowDown", "Enter")  # the second reason: paywalled
        self.page.wait_for_function(f"!document.querySelector('input[name=item]') || "
                                    f"document.querySelector('input[name=item]').value != '{skipped}'")
        vote = Vote.objects.get(item_id=skipped)
        self.assertEqual((vote.preference, vote.skip_reason), ("skip", "paywalled"))
        self.assertEqual(Vote.objects.count(), 4)

    def test_show_full_text_loads_the_whole_source(self):
        self.sign_in("annotator")
        self.page.goto(self.url("/annotate/"))
        self.page.locator("[data-side=A] summary").click()
        self.page.wait_for_selector("[data-side=A] .full-text-body")
        self.assertIn("1862", self.page.locator("[data-side=A] .full-text-body").inner_text())

    def test_an_admin_reads_the_results_and_downloads_the_csv(self):
        self.sign_in("annotator")
        self.page.goto(self.url("/annotate/"))
        for _ in range(3):
            item = self.item_on_page()
            self.keys("b", "2", "7", "Enter")
            self.page.wait_for_function(f"document.querySelector('input[name=item]').value != '{item}'")
        self.page.goto(self.url("/"))
        self.page.locator("button", has_text="Log out").click()
        self.sign_in("admin")
        self.page.goto(self.url("/annotate/results/"))
        self.assertIn("Fleiss", self.page.content())
        self.screenshot("results")
        with self.page.expect_download() as download:
            self.page.locator("#export-csv").click()
        text = open(download.value.path(), encoding="utf-8").read()
        lines = text.strip().splitlines()
        self.assertTrue(lines[0].startswith("item,kind,claim_id"))
        self.assertEqual(len(lines), 4)
