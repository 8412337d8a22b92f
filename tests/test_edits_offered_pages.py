"""The offer rule on the pages: the claim page offers only what the rule offers and says
why not; the apply and tag views refuse, in words, an edit that is not offered (and never
reach the wiki); the article report's best suggestion is one an editor could use."""
from __future__ import annotations

from django.test import TestCase
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Suggestion, Wiki
from tests.edits_support import as_scanned, assert_nothing_saved, confirmed, read_source
from tests.users import CastMixin

CITED = "https://www.gazette.example/news/bridge"
WIKITEXT = (
    f"The bridge opened in 1931.<ref>{{{{cite web |url={CITED} |title=Bridge}}}}</ref> "
    "It is made of red stone.<ref>{{cite book |title=Stones of the valley |isbn=978-0-00-000000-0}}</ref>\n"
)


class OfferedEditPagesTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php")  # nothing answers there
        cls.article = Article.objects.create(wiki=wiki, title="Kell Bridge")
        revision = Revision.objects.create(article=cls.article, rev_id=3, wikitext=WIKITEXT)
        cls.article.current_revision = revision
        cls.article.save()
        cls.opened = cls.claim(revision, 0, "The bridge opened in 1931.", "not_supported", 0.1)
        cls.cite(cls.opened, f"{{{{cite web |url={CITED} |title=Bridge}}}}", CITED, "not_supported", 0.1,
                 source=read_source(CITED, "A history of the gazette's town, with no word on the bridge."))
        cls.stone = cls.claim(revision, 1, "It is made of red stone.", "source_unavailable", None)
        cls.cite(cls.stone, "{{cite book |title=Stones of the valley |isbn=978-0-00-000000-0}}", "",
                 "source_unavailable", None)
        cls.same = cls.suggest(cls.opened, 1, "http://gazette.example/news/bridge/", 0.95)
        cls.dead = cls.suggest(cls.opened, 2, "https://dead.example/bridge", 0.9, status="http_error")
        cls.good = cls.suggest(cls.opened, 3, "https://history.example/bridge", 0.8)
        cls.beside = cls.suggest(cls.stone, 1, "https://stones.example/red", 0.7)
        as_scanned(revision)

    @classmethod
    def claim(cls, revision, position, text, verdict, score) -> Claim:
        claim = Claim.objects.create(article=cls.article, fingerprint=f"c{position}", text=text, first_revision=revision,
                                     last_revision=revision, verdict=verdict, score=score, confidence="high",
                                     verify_state="done", current=True, flagged=verdict == "not_supported")
        RevisionClaim.objects.create(revision=revision, claim=claim, position=position)
        return claim

    @classmethod
    def cite(cls, claim, raw, url, verdict, score, source=None) -> None:
        citation = Citation.objects.create(article=cls.article, fingerprint=f"c{claim.pk}", kind="ref", raw=raw, url=url,
                                           source=source)
        ClaimCitation.objects.create(claim=claim, citation=citation, verdict=verdict, score=score, confidence="high")

    @classmethod
    def suggest(cls, claim, rank, url, score, status="ok") -> Suggestion:
        return Suggestion.objects.create(claim=claim, rank=rank, url=url, title=f"Page {rank}", score=score,
                                         verdict="supported", beats_current=True,
                                         source=read_source(url, f"The text of {url} in full.", status=status))

    def apply_url(self, claim, suggestion) -> str:
        return reverse("suggestion_apply", args=[claim.pk, suggestion.pk])

    def test_a_post_to_tag_an_unread_citation_is_refused_in_words_and_nothing_is_saved(self):
        response = confirmed(self.client_for("editor"), reverse("claim_tag", args=[self.stone.pk]))
        self.assertContains(response, "Its source could not be read", status_code=409)
        self.assertNotContains(response, "Traceback", status_code=409)
        assert_nothing_saved(self)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.status, entry.action, entry.username), ("refused", "tag", self.users["editor"].username))
        self.assertIn("Its source could not be read", entry.outcome)

    def test_a_post_to_replace_a_citation_that_is_not_failing_is_refused(self):
        response = confirmed(self.client_for("editor"), self.apply_url(self.stone, self.beside), {"mode": "replace"})
        self.assertContains(response, "Only a citation that fails the claim is replaced", status_code=409)
        assert_nothing_saved(self)

    def test_the_page_already_cited_is_refused_for_preview_and_save(self):
        editor = self.client_for("editor")
        for response in (editor.get(self.apply_url(self.opened, self.same), {"mode": "add"}),
                         confirmed(editor, self.apply_url(self.opened, self.same), {"mode": "replace"})):
            self.assertContains(response, "the source the claim already cites", status_code=409)
        assert_nothing_saved(self)

    def test_the_claim_page_offers_only_what_the_rule_offers_and_says_why_not(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.opened.pk]))
        self.assertNotContains(page, self.apply_url(self.opened, self.same))
        self.assertNotContains(page, self.apply_url(self.opened, self.dead))
        self.assertContains(page, self.apply_url(self.opened, self.good) + "?mode=replace")
        self.assertContains(page, "Not offered as an edit: The suggested page is the source the claim already cites.")
        self.assertContains(page, "Not offered as an edit: The suggested page no longer answers")
        self.assertContains(page, reverse("claim_tag", args=[self.opened.pk]))

    def test_the_claim_page_of_an_unread_citation_offers_the_add_but_neither_tag_nor_replace(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.stone.pk]))
        self.assertContains(page, self.apply_url(self.stone, self.beside) + "?mode=add")
        self.assertNotContains(page, self.apply_url(self.stone, self.beside) + "?mode=replace")
        self.assertNotContains(page, reverse("claim_tag", args=[self.stone.pk]))
        self.assertContains(page, "is not offered: Its source could not be read")

    def test_a_citation_already_tagged_is_not_offered_the_tag_again(self):
        Citation.objects.filter(url=CITED).update(flags=["failed verification"])
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.opened.pk]))
        self.assertNotContains(page, reverse("claim_tag", args=[self.opened.pk]))
        self.assertContains(page, "already tagged")

    def test_the_reports_best_suggestion_is_the_first_an_editor_could_use(self):
        report = self.client_for("editor").get(reverse("article_report", args=[self.article.pk]),
                                               {"format": "wikitext"}).content.decode()
        self.assertIn("[https://history.example/bridge Page 3]", report)
        self.assertNotIn("gazette.example/news/bridge/", report)
        self.assertNotIn("dead.example", report)

    def test_the_preview_links_only_the_other_modes_that_are_offered(self):
        preview = self.client_for("editor").get(self.apply_url(self.stone, self.beside), {"mode": "add"})
        self.assertEqual(preview.status_code, 200, preview.content[-1500:])
        self.assertNotContains(preview, 'href="?mode=replace"')
        both = self.client_for("editor").get(self.apply_url(self.opened, self.good), {"mode": "add"})
        self.assertContains(both, 'href="?mode=replace"')
