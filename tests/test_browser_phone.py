"""Every page holds at phone width: each role opens each of its pages in a 390 px wide
browser, nothing scrolls sideways (document.documentElement.scrollWidth <= 390), and no
radio button or check box wraps apart from its label. A screenshot of each page lands in
var/screenshots/phone/ (or $SIDE_SCREENSHOT_DIR/phone/) for CI to keep.

The table PAGES must name every page the app serves (a test below compares it with the
URL configuration), so a new page cannot ship without being looked at on a phone."""
from __future__ import annotations

from django.test import SimpleTestCase

from sideapp.annotation import services as annotation
from sideapp.corpus.models import CorpusImport
from sideapp.models import Article, Claim, PatrolEdit, PatrolRow, ScanJob, Suggestion
from tests import annotation_support
from tests.browser_support import BrowserTestCase
from tests.test_roles_every_page import app_routes
from tests.users import PASSWORD, cast
from tests.wiki_support import page_for_edits

WIDTH = 390
# route name -> (role that opens it, path with {placeholders} filled from the test's rows)
PAGES = {
    "home": ("editor", "/"),
    "claim_list": ("editor", "/claims/"),
    "patrol": ("editor", "/patrol/?show=all"),
    "claim_detail": ("editor", "/claims/{claim}/"),
    "suggestion_apply": ("editor", "/claims/{claim}/suggestions/{suggestion}/apply/?mode=replace"),
    "claim_tag": ("editor", "/claims/{claim}/tag/"),
    "claim_archive": ("editor", "/claims/{claim}/archive/"),
    "claim_correct": ("editor", "/claims/{claim}/correct/"),
    "article_report": ("editor", "/articles/{article}/report/"),
    "annotation:annotate": ("annotator", "/annotate/"),
    "annotation:recent": ("annotator", "/annotate/recent/"),
    "annotation:guidelines": ("annotator", "/annotate/guidelines/"),
    "scan_list": ("admin", "/scans/"),
    "scan_detail": ("admin", "/scans/{scan}/"),
    "corpus": ("admin", "/corpus/"),
    "corpus_import": ("admin", "/corpus/imports/{corpus_import}/"),
    "people": ("admin", "/people/"),
    "wiki_list": ("admin", "/wikis/"),  # issue 21's wikis page (on main; a 404 page until merged)
    "annotation:results": ("admin", "/annotate/results/"),
    "annotation:items": ("admin", "/annotate/items/"),
}
# Pages that are not routes of their own: the login page and the error pages.
EXTRA = [("anonymous", "login", "/login/"), ("editor", "not-found", "/claims/999999/"),
         ("editor", "not-allowed", "/scans/"), ("annotator", "home-annotator", "/"), ("admin", "home-admin", "/")]
# Routes that answer no page: POST-only actions, downloads and htmx fragments.
NOT_PAGES = {"scan_cancel", "scan_rerun", "claim_dismiss", "claim_verified", "claim_review_undo", "corpus_update",
             "annotation:undo", "annotation:item_gold", "annotation:export_csv", "annotation:export_jsonl",
             "annotation:full_text", "patrol_mark", "wiki_patrol"}

# Labels whose text runs over more than one line box, with their input.
SPLIT_LABELS = """() => Array.from(document.querySelectorAll('label')).filter(label =>
    label.querySelector('input[type=radio], input[type=checkbox]')).filter(label => {
  const range = document.createRange();
  range.selectNodeContents(label);
  const rects = Array.from(range.getClientRects()).filter(r => r.width > 0).sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -Infinity;
  for (const r of rects) {  // a box that starts below the line so far starts a new line
    if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
  }
  return lines > 1;
}).map(label => label.textContent.trim())"""


class PhoneTableTests(SimpleTestCase):
    def test_the_table_names_every_page_of_the_app(self):
        self.assertEqual(sorted(set(app_routes()) - set(PAGES) - NOT_PAGES), [])


class PhoneWidthBrowserTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        self.rows = self.make_rows()

    def make_rows(self) -> dict[str, int]:
        """A scanned article on the real test wiki with a suggestion, annotation items with
        a vote, a corpus import: every page has something to show."""
        _, title = page_for_edits(self, "Side phone page with a rather long title for a small screen")
        job = ScanJob.objects.get(items__title=title)
        claim = Claim.objects.get(article__title=title, text__startswith="It is made of red stone")
        suggestion = Suggestion.objects.create(
            claim=claim, rank=1, url="https://example.org/a/very/long/path/to/a/page/about/red-stone-bridges.html",
            title="Stone of the bridge", score=0.9, verdict="supported", beats_current=True)
        annotation_support.bulk_items(3)
        first = annotation.assignment_next(annotator=self.users["annotator"])
        annotation.vote_cast(annotator=self.users["annotator"], item_id=first.item_id,
                             answer=annotation.ScreenAnswer("a", "enough", "partial"))
        self.patrol_row(claim)
        record = CorpusImport.objects.create(name="sources-with-a-long-file-name.jsonl", upload="imports/x.jsonl",
                                             status=CorpusImport.Status.DONE, total=3, done=3)
        return {"claim": claim.pk, "suggestion": suggestion.pk, "article": Article.objects.get(title=title).pk,
                "scan": job.pk, "corpus_import": record.pk}

    @staticmethod
    def patrol_row(claim: Claim) -> None:
        """A citation added by an edit, as the patrol feed shows it."""
        from django.utils import timezone

        edit = PatrolEdit.objects.create(
            wiki=claim.article.wiki, rcid=1, kind="edit", revid=claim.last_revision.rev_id, parent_revid=1,
            title=claim.article.title, user="A wiki user with a rather long user name", timestamp=timezone.now(),
            comment="Added a source for the stone of the bridge, from the county's survey of listed buildings")
        PatrolRow.objects.create(edit=edit, claim=claim, citation=claim.citations.first(), article=claim.article)

    def open_as(self, role: str):
        context = self.browser.new_context(viewport={"width": WIDTH, "height": 844})
        self.addCleanup(context.close)
        page = context.new_page()
        page.set_default_timeout(15_000)
        if role != "anonymous":
            page.goto(self.url("/login/"))
            page.fill("input[name=username]", self.users[role].username)
            page.fill("input[name=password]", PASSWORD)
            with page.expect_navigation():
                page.keyboard.press("Enter")
        return page

    def visits(self) -> list[tuple[str, str, str]]:
        pages = [(role, name.replace("annotation:", "annotation-"), path.format(**self.rows))
                 for name, (role, path) in PAGES.items()]
        return pages + EXTRA

    def test_every_page_holds_at_390_px_for_its_role(self):
        pages = {role: self.open_as(role) for role in ("anonymous", "editor", "annotator", "admin")}
        too_wide = []
        for role, name, path in self.visits():
            page = self.page = pages[role]
            response = page.goto(self.url(path))
            self.assertLess(response.status, 500, path)
            page.wait_for_load_state("networkidle")
            width = page.evaluate("document.documentElement.scrollWidth")
            split = page.evaluate(SPLIT_LABELS)
            self.screenshot(f"{role}-{name}", folder="phone")
            if width > WIDTH or split:
                too_wide.append(f"{path} as {role}: {width} px wide; labels split from their box: {split}")
        self.maxDiff = None
        self.assertEqual(too_wide, [])
