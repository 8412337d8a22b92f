"""The patrol page in a browser: new rows arrive without a reload, j/k/o move and open as
on the claims list, "mark patrolled" takes the row out of the view in place. The rows are
made directly (the watcher and the pipeline that make them are tested in test_patrol_wiki)."""
from __future__ import annotations

from django.utils import timezone

from sideapp.models import Article, Citation, Claim, ClaimCitation, PatrolEdit, PatrolRow, Revision, Wiki
from sideapp.patrol import views
from tests.browser_support import BrowserTestCase
from tests.users import cast

_rcid = iter(range(1, 10_000))


def patrol_row(wiki: Wiki, text: str, *, verdict: str = "not_supported", user: str = "Alice") -> PatrolRow:
    article, _ = Article.objects.get_or_create(wiki=wiki, title="River Arle")
    rcid = next(_rcid)
    revision = Revision.objects.create(article=article, rev_id=100 + rcid, wikitext=text)
    citation = Citation.objects.create(article=article, fingerprint=f"c{rcid}", url=f"https://example.org/{rcid}",
                                       title="The River Arle and its catchment")
    claim = Claim.objects.create(article=article, fingerprint=f"f{rcid}", text=text, section=["Course"],
                                 first_revision=revision, last_revision=revision, verdict=verdict,
                                 verify_state="done", score=0.2, verify_reason="the source does not say it")
    ClaimCitation.objects.create(claim=claim, citation=citation)
    edit = PatrolEdit.objects.create(wiki=wiki, rcid=rcid, kind="edit", revid=revision.rev_id,
                                     parent_revid=revision.rev_id - 1, title=article.title, user=user,
                                     timestamp=timezone.now(), status="checking")
    return PatrolRow.objects.create(edit=edit, claim=claim, citation=citation, article=article)


class PatrolPageBrowserTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.users = cast()
        self.wiki = Wiki.objects.create(api_url="http://wiki.test/api.php", name="Test wiki", wikiid="testwiki",
                                        patrol=True)
        self.first = patrol_row(self.wiki, "A colony of pink flamingos nests on its salt marshes.")
        self.log_in(self.users["editor"].username)

    def test_a_new_row_appears_without_a_reload_and_the_keys_keep_their_row(self):
        self.patch_poll(1)
        self.page.goto(self.url("/patrol/"))
        self.page.keyboard.press("j")
        self.assertIn("current", self.page.get_attribute(f"#patrol-row-{self.first.pk}", "class"))
        later = patrol_row(self.wiki, "The river was first bridged by the Romans in 43 AD.", user="Bob")
        self.page.wait_for_selector(f'[data-revid="{later.edit.revid}"]', timeout=10_000)
        self.assertIn("current", self.page.get_attribute(f"#patrol-row-{self.first.pk}", "class"))
        self.assertIn("Bob", self.page.inner_text(f"#patrol-row-{later.pk}"))
        self.screenshot("desktop", folder="patrol")
        self.page.keyboard.press("j")  # the kept row is the last now: j stays on it
        with self.page.expect_navigation():
            self.page.keyboard.press("o")
        self.assertIn(f"/claims/{self.first.claim_id}/", self.page.url)

    def test_mark_patrolled_removes_the_row_in_place(self):
        self.page.goto(self.url("/patrol/"))
        self.page.click(f"#patrol-row-{self.first.pk} button")
        self.page.wait_for_selector(f"#patrol-row-{self.first.pk}", state="detached")
        self.assertTrue(self.first.marks.filter(user=self.users["editor"]).exists())

    def patch_poll(self, seconds: int) -> None:
        previous = views.POLL_SECONDS
        views.POLL_SECONDS = seconds
        self.addCleanup(setattr, views, "POLL_SECONDS", previous)
