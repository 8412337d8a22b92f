"""The admins' wikis page in a browser: at 390 px each wiki is a card whose id reads on one
line (it used to wrap one letter a line), at 1280 px a table whose id column does the same;
a wiki that never answered says why and offers no patrol. Screenshots of both widths land
in var/screenshots/wikis/."""
from __future__ import annotations

from sideapp.models import ScanItem, ScanJob, Wiki
from tests.browser_support import BrowserTestCase
from tests.users import cast

# The id's code element: how many line boxes it takes, and how wide it is.
ID_BOX = """() => Array.from(document.querySelectorAll('td.wiki-id code')).map(code => ({
  text: code.textContent, lines: code.getClientRects().length,
  height: code.getBoundingClientRect().height,
  lineHeight: parseFloat(getComputedStyle(code).lineHeight) || parseFloat(getComputedStyle(code).fontSize) * 1.6}))"""


class WikisPageBrowserTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        Wiki.objects.create(api_url="https://wiki.example.org/w/api.php", wikiid="examplewikiwithalongid",
                            name="An example wiki with a long name", patrol=True)
        bad = Wiki.objects.create(api_url="http://127.0.0.1:9/not/a/wiki/api.php", patrol=False)
        job = ScanJob.objects.create(wiki=bad, kind="titles", status="failed", params={"titles": ["X"]})
        ScanItem.objects.create(job=job, title="X", status="failed",
                                reason="the wiki at http://127.0.0.1:9/not/a/wiki/api.php did not answer")

    def open_at(self, width: int):
        self.page.set_viewport_size({"width": width, "height": 844})
        self.log_in(self.users["admin"].username)
        self.page.goto(self.url("/wikis/"))
        self.page.wait_for_load_state("networkidle")

    def assert_ids_on_one_line(self):
        for box in self.page.evaluate(ID_BOX):
            self.assertEqual(box["lines"], 1, box)
            self.assertLess(box["height"], 1.5 * box["lineHeight"], box)

    def test_at_390_px_each_wiki_is_a_card_with_its_id_on_one_line(self):
        self.open_at(390)
        self.screenshot("390", folder="wikis")
        self.assertLessEqual(self.page.evaluate("document.documentElement.scrollWidth"), 390)
        self.assert_ids_on_one_line()
        cards = self.page.locator("table.wikis tbody tr")
        self.assertEqual(cards.count(), 2)
        self.assertEqual(self.page.locator("table.wikis thead").evaluate("e => e.getBoundingClientRect().height"), 1)
        bad = cards.filter(has_text="not identified")
        self.assertIn("did not answer", bad.inner_text())
        self.assertEqual(bad.locator("button").count(), 0)
        good = cards.filter(has_text="An example wiki")
        self.assertEqual(good.evaluate("row => getComputedStyle(row).display"), "block")
        self.assertEqual(good.locator("td.wiki-id").evaluate(
            "cell => getComputedStyle(cell, '::before').content.includes('Id')"), True)

    def test_at_1280_px_the_table_keeps_each_id_on_one_line(self):
        self.open_at(1280)
        self.screenshot("1280", folder="wikis")
        self.assertLessEqual(self.page.evaluate("document.documentElement.scrollWidth"), 1280)
        self.assert_ids_on_one_line()
        self.assertTrue(self.page.locator("table.wikis thead").is_visible())
