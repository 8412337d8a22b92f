"""Each citation named with its own verdict, in a browser: the gadget marks a claim that needs a
source after its {{citation needed}} tag with the supporting page found and the add action (its
dialog a word-level diff), hides supported checks until the reader shows all checks (and keeps
that choice), and a patrol row names the source that supports its claim."""
from __future__ import annotations

from django.utils import timezone

from sideapp.models import (Article, Citation, Claim, ClaimCitation, PatrolEdit, PatrolRow, Revision, Source,
                            SourceDocument, Suggestion, Wiki)
from tests.api_support import forget_api_cache, fresh_title, judge, scanned_page
from tests.browser_support import BrowserTestCase
from tests.test_api_cited import NEEDS
from tests.test_gadget_browser import GadgetTestCase
from tests.users import cast

PAINT = "Paint records of the Side test bridge show it was painted green in 1950."


def supporting_page(url: str, title: str, text: str) -> Source:
    source = Source.objects.create(normalized_url=url, url=url, status=Source.Status.OK, title=title,
                                   fetched_at=timezone.now())
    SourceDocument.objects.create(source=source, title=title, text=text, sha256=f"sha-{url}", fetched_at=timezone.now())
    return source


class CitedGadgetTests(GadgetTestCase):
    def setUp(self):
        BrowserTestCase.setUp(self)  # the page below, not GadgetTestCase's
        forget_api_cache()
        self.console: list[str] = []
        self.page.on("console", lambda message: self.console.append(message.text))
        self.title = fresh_title("Side cited gadget")
        self.article = scanned_page(self.server, self.title, NEEDS)
        claims = Claim.objects.filter(article=self.article)
        self.closed = judge(claims.get(text__startswith="The bridge was closed"), "supported",
                            reason="the source says it", quote="It closed to traffic in 1990.")
        self.span = judge(claims.get(text__startswith="Its span"), "partially_supported", confidence="low",
                          reason="the source backs part of it, not all")
        self.green = claims.get(text__startswith="It was painted green")
        Claim.objects.filter(pk=self.green.pk).update(verify_state="done", suggest_state="done", flagged=True,
                                                      verify_reason="needs a source: the claim has no citation")
        page = supporting_page("http://127.0.0.1:9/paint-records", "Bridge paint records", PAINT)
        Suggestion.objects.create(claim=self.green, rank=1, url=page.url, title="Bridge paint records", source=page,
                                  score=0.9, verdict="supported", evidence={
                                      "passage": PAINT, "sentences": [PAINT], "start": 0, "end": len(PAINT)})

    def marker(self, claim: Claim):
        return self.page.locator(f".side-editor-marker[data-side-claim='{claim.pk}']")

    def test_a_needs_a_source_marker_follows_its_tag_and_adds_the_source_found_as_a_word_diff(self):
        self.wiki_log_in()
        self.view()
        green = self.marker(self.green)
        self.assertEqual(green.get_attribute("data-side-verdict"), "needs_citation")
        self.assertIn("source found", green.inner_text())
        self.assertTrue(self.page.evaluate(  # right after the wiki's own [citation needed]
            "m => /citation needed/.test(m.previousElementSibling.textContent)", green.element_handle()))
        green.click()
        card = self.page.locator(".side-editor-card")
        self.assertIn("needs a source", card.inner_text())
        self.assertIn("A source found: Bridge paint records", card.inner_text())
        self.assertIn(PAINT, card.inner_text())
        self.screenshot("needs-source-card")
        card.locator("[data-side-action=add]").click()
        self.page.wait_for_selector(".side-editor-dialog .side-editor-diff ins")
        changed = " ".join(self.page.locator(".side-editor-diff-add ins").all_inner_texts())
        self.assertIn("paint-records", changed)
        self.assertNotIn("painted green", changed)  # the words around the new ref are not marked
        self.assertGreater(self.page.locator(".side-editor-diff-add").count(), 0)
        self.screenshot("needs-source-add-dialog")

    def test_supported_checks_are_hidden_until_the_reader_shows_all_checks_and_stay_shown(self):
        self.view()
        shown = {int(m.get_attribute("data-side-claim")) for m in self.page.locator(".side-editor-marker").all()}
        self.assertEqual(shown, {self.span.pk, self.green.pk})
        self.page.evaluate("document.querySelector('#t-side-editor a').click()")
        panel = self.page.locator(".side-editor-panel")
        self.assertIn("2 claims to look at, 1 supported", panel.inner_text())
        panel.get_by_label("Show all checks").check()
        self.assertEqual(self.marker(self.closed).get_attribute("data-side-verdict"), "supported")
        self.screenshot("all-checks")
        self.view()  # the choice is this reader's, kept
        self.assertEqual(self.marker(self.closed).count(), 1)
        self.page.evaluate("document.querySelector('#t-side-editor a').click()")
        self.page.locator(".side-editor-panel").get_by_label("Show all checks").uncheck()
        self.assertEqual(self.marker(self.closed).count(), 0)

    def test_on_a_phone_the_needs_a_source_card_is_a_bottom_sheet(self):
        context = self.browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        self.view(page=page)
        page.click(f".side-editor-marker[data-side-claim='{self.green.pk}']")
        box = page.locator(".side-editor-card").bounding_box()
        self.assertLessEqual(box["width"], 390)
        self.assertIn("Bridge paint records", page.locator(".side-editor-card").inner_text())
        page.screenshot(path=str(self.screenshot("unused").with_name("CitedGadgetTests-needs-source-390.png")))
        context.close()


class PatrolCitedTests(BrowserTestCase):
    """The demo's paraffin-lamp claim after a new user added a supporting second source."""

    def setUp(self):
        super().setUp()
        self.users = cast()
        wiki = Wiki.objects.create(api_url="http://wiki.test/api.php", name="Test wiki", wikiid="testwiki", patrol=True)
        article = Article.objects.create(wiki=wiki, title="Kellhaven Lighthouse")
        revision = Revision.objects.create(article=article, rev_id=200, wikitext="")
        claim = Claim.objects.create(
            article=article, fingerprint="lamp", text="The paraffin lamp was replaced by an electric lamp in 1931.",
            section=["History"], first_revision=revision, last_revision=revision, verdict="supported",
            confidence="high", verify_state="done", score=0.8, current=True,
            verify_reason="the source says it; “Gull Point light marks 150 years of guiding ships home” supports it; "
                          "“Plan your visit” supports no part of it")
        visit = Citation.objects.create(article=article, fingerprint="visit", url="http://127.0.0.1:9/klt-visit",
                                        title="Plan your visit")
        history = Citation.objects.create(article=article, fingerprint="avg-150", url="http://127.0.0.1:9/avg-150",
                                          title="Gull Point light marks 150 years of guiding ships home")
        ClaimCitation.objects.create(claim=claim, citation=visit, position=0, verdict="not_supported", confidence="high")
        ClaimCitation.objects.create(claim=claim, citation=history, position=1, verdict="supported", confidence="high")
        edit = PatrolEdit.objects.create(wiki=wiki, rcid=1, kind="edit", revid=200, parent_revid=199, user="Newcomer",
                                         title=article.title, timestamp=timezone.now(), status="checking")
        # The edit reused a named ref the page had: the row is that of the claim's first citation.
        self.row = PatrolRow.objects.create(edit=edit, claim=claim, citation=visit, article=article)
        self.log_in(self.users["editor"].username)

    def test_the_row_names_each_source_with_its_own_verdict(self):
        self.page.goto(self.url("/patrol/?show=all"))
        row = self.page.locator(f"#patrol-row-{self.row.pk}")
        cited = row.locator(".cited").all_inner_texts()
        self.assertEqual([" ".join(t.split()) for t in cited],
                         ["cited: Plan your visit — not supported",
                          "also cited: Gull Point light marks 150 years of guiding ships home — supported"])
        self.assertIn("“Gull Point light marks 150 years of guiding ships home” supports it", row.inner_text())
        self.screenshot("paraffin-row", folder="patrol")
        self.page.set_viewport_size({"width": 390, "height": 844})
        self.screenshot("paraffin-row-390", folder="patrol")
        # The same in the patrol API: the row's own source with its own verdict, and every source.
        answer = self.client.get("/api/v1/patrol", {"wiki_id": "testwiki", "all": "1"}).json()["rows"][0]
        self.assertEqual((answer["source"]["title"], answer["source"]["verdict"], answer["verdict"]),
                         ("Plan your visit", "not_supported", "supported"))
        self.assertEqual([(c["title"], c["verdict"], c["own"]) for c in answer["citations"]],
                         [("Plan your visit", "not_supported", True),
                          ("Gull Point light marks 150 years of guiding ships home", "supported", False)])
