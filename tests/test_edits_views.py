"""Editors' action pages without a wiki: roles, CSRF, escaping, the preview, the report,
and the audit log."""
from __future__ import annotations

from django.test import Client, TestCase, override_settings
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.edits.audit import audit_record
from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Suggestion, Wiki
from tests.edits_support import as_scanned, assert_nothing_saved, confirmed, read_source
from tests.users import PASSWORD, cast

WIKITEXT = (
    "The tower was lit in 1862.<ref name=hist>{{cite web |url=https://t.example/h |title=History}}</ref> "
    "It is 40 m tall. <script>alert(1)</script><ref name=hist/>\n"
)


class EditPagesTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php")
        cls.article = Article.objects.create(wiki=wiki, title="Tower <b>B</b>")
        revision = Revision.objects.create(article=cls.article, rev_id=7, wikitext=WIKITEXT)
        cls.article.current_revision = revision
        cls.article.save()
        citation = Citation.objects.create(article=cls.article, fingerprint="h", kind="ref", ref_name="hist",
                                           raw="{{cite web |url=https://t.example/h |title=History}}",
                                           url="https://t.example/h", title="History",
                                           source=read_source("https://t.example/h"))
        cls.claim = Claim.objects.create(
            article=cls.article, fingerprint="c", text="It is 40 m tall. <script>alert(1)</script>",
            first_revision=revision, last_revision=revision, verdict="not_supported", score=0.1,
            confidence="high", flagged=True, verify_state="done", current=True, section=["Height | {{x}}"])
        RevisionClaim.objects.create(revision=revision, claim=cls.claim, position=0)
        ClaimCitation.objects.create(claim=cls.claim, citation=citation, verdict="not_supported", score=0.1,
                                     confidence="high")
        cls.suggestion = Suggestion.objects.create(
            claim=cls.claim, rank=1, url="https://s.example/tall", title="Tall | towers <i>",
            score=0.9, verdict="supported", beats_current=True, source=read_source("https://s.example/tall"))
        as_scanned(revision)

    def setUp(self):
        self.users = cast()

    def as_user(self, role: str, **options) -> Client:
        client = Client(**options)
        client.login(username=self.users[role].username, password=PASSWORD)
        return client

    def urls(self) -> list[str]:
        return [
            reverse("suggestion_apply", args=[self.claim.pk, self.suggestion.pk]) + "?mode=replace",
            reverse("claim_tag", args=[self.claim.pk]),
            reverse("article_report", args=[self.article.pk]),
        ]

    def test_only_editors_and_admins_may_use_the_action_pages(self):
        for url in self.urls():
            anonymous = Client().get(url)
            self.assertEqual(anonymous.status_code, 302, url)
            self.assertIn(reverse("login"), anonymous["Location"])
            for role in ("annotator", "nobody"):
                self.assertEqual(self.as_user(role).get(url).status_code, 403, (url, role))
            for role in ("editor", "admin"):
                self.assertEqual(self.as_user(role).get(url).status_code, 200, (url, role))

    def test_an_annotator_cannot_save_an_edit(self):
        url = reverse("suggestion_apply", args=[self.claim.pk, self.suggestion.pk])
        response = self.as_user("annotator").post(url, {"mode": "add", "confirm": "1"})
        self.assertEqual(response.status_code, 403)
        assert_nothing_saved(self)

    def test_a_save_without_the_csrf_token_is_refused(self):
        url = reverse("suggestion_apply", args=[self.claim.pk, self.suggestion.pk])
        response = self.as_user("editor", enforce_csrf_checks=True).post(url, {"mode": "add", "confirm": "1"})
        self.assertEqual(response.status_code, 403)

    @override_settings(SIDE_WIKI_API_URL="http://127.0.0.1:9/api.php", SIDE_WIKI_USERNAME="Bot@side",
                       SIDE_WIKI_PASSWORD="x")
    def test_the_preview_shows_the_diff_escaped_with_a_confirm_form(self):
        url = reverse("suggestion_apply", args=[self.claim.pk, self.suggestion.pk])
        response = self.as_user("editor").get(url, {"mode": "replace"})
        self.assertContains(response, '<span class="diff-add">+The tower was lit', html=False)
        self.assertContains(response, "title=Tall &amp;#124; towers &amp;lt;i&amp;gt;")
        self.assertNotContains(response, "<script>alert(1)</script>")
        self.assertContains(response, 'name="confirm" value="1"', html=False)
        self.assertContains(response, 'name="mode" value="replace"', html=False)
        self.assertContains(response, "Copy wikitext")
        self.assertContains(response, "Replaced a citation that does not support the claim; "
                                      "source suggested by Side editor")

    @override_settings(SIDE_WIKI_API_URL="http://127.0.0.1:9/api.php", SIDE_WIKI_USERNAME="Bot@side",
                       SIDE_WIKI_PASSWORD="x")
    def test_a_suggested_address_that_is_not_a_web_address_is_refused_in_words_in_the_preview(self):
        odd = Suggestion.objects.create(
            claim=self.claim, rank=2, url="ftp://s.example/tall", title="Tall towers", score=0.9,
            verdict="supported", beats_current=True, source=read_source("ftp://s.example/tall"))
        url = reverse("suggestion_apply", args=[self.claim.pk, odd.pk])
        response = self.as_user("editor").get(url, {"mode": "add"})
        self.assertContains(response, "is not a web address (http or https)", status_code=409)
        self.assertNotContains(response, "Traceback", status_code=409)
        self.assertNotContains(response, 'name="confirm"', status_code=409)
        assert_nothing_saved(self)

    def test_a_suggestion_of_another_claim_is_a_404(self):
        other = Claim.objects.create(article=self.article, fingerprint="o", text="Other.",
                                     first_revision=self.article.current_revision,
                                     last_revision=self.article.current_revision)
        url = reverse("suggestion_apply", args=[other.pk, self.suggestion.pk])
        self.assertEqual(self.as_user("editor").get(url).status_code, 404)

    @override_settings(SIDE_WIKI_API_URL="http://127.0.0.1:9/api.php", SIDE_WIKI_USERNAME="Bot@side",
                       SIDE_WIKI_PASSWORD="x", SIDE_WIKI_RETRIES=1)
    def test_a_wiki_that_does_not_answer_is_reported_in_a_sentence(self):
        url = reverse("claim_tag", args=[self.claim.pk])
        response = confirmed(self.as_user("editor"), url)
        self.assertEqual(response.status_code, 502)
        self.assertContains(response, "did not answer", status_code=502)
        self.assertNotContains(response, "Traceback", status_code=502)
        assert_nothing_saved(self)

    def test_without_a_wiki_account_the_preview_and_the_save_say_what_to_configure(self):
        url = reverse("claim_tag", args=[self.claim.pk])
        with override_settings(SIDE_WIKI_API_URL=self.article.wiki.api_url, SIDE_WIKI_USERNAME=""):
            preview = self.as_user("editor").get(url)
            response = confirmed(self.as_user("editor"), url)
        self.assertContains(preview, "Saving is off")
        self.assertNotContains(preview, 'name="confirm"')
        self.assertContains(response, "SIDE_WIKI_USERNAME", status_code=409)
        assert_nothing_saved(self)

    def test_another_wiki_than_the_configured_one_says_saving_is_off_before_anything_is_pressed(self):
        page = self.as_user("editor").get(reverse("claim_detail", args=[self.claim.pk]))
        self.assertContains(page, "Saving is off for")

    def test_the_report_is_plain_wiki_markup_when_asked(self):
        url = reverse("article_report", args=[self.article.pk])
        response = self.as_user("editor").get(url, {"format": "wikitext"})
        self.assertEqual(response["Content-Type"], "text/plain; charset=utf-8")
        text = response.content.decode()
        self.assertIn('{| class="wikitable sortable"', text)
        self.assertIn("<nowiki>It is 40 m tall. &lt;script&gt;alert(1)&lt;/script&gt;</nowiki>", text)
        self.assertIn("| not supported", text)
        self.assertIn("[https://s.example/tall <nowiki>Tall | towers &lt;i&gt;</nowiki>]", text)
        self.assertIn("[[Special:Permalink/7|revision 7]]", text)

    def test_reading_the_report_writes_nothing_and_copying_it_writes_one_line(self):
        url = reverse("article_report", args=[self.article.pk])
        editor = self.as_user("editor")
        for _ in range(2):
            self.assertEqual(editor.get(url).status_code, 200)
        self.assertEqual(editor.get(url, {"format": "wikitext"}).status_code, 200)
        assert_nothing_saved(self)
        self.assertEqual(editor.post(url, HTTP_HX_REQUEST="true").status_code, 204)
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.action, entry.article, entry.user),
                         (AuditEntry.Action.REPORT, self.article, self.users["editor"]))
        self.assertEqual(entry.get_action_display(), "copied an article report")

    def test_the_report_page_leads_back_to_the_articles_claims(self):
        response = self.as_user("editor").get(reverse("article_report", args=[self.article.pk]))
        self.assertContains(response, "/claims/?show=all&amp;article=Tower+%3Cb%3EB%3C%2Fb%3E")
        self.assertContains(response, "← Claims of “Tower &lt;b&gt;B&lt;/b&gt;”")

    def test_the_report_page_has_a_copy_button_and_escapes(self):
        response = self.as_user("editor").get(reverse("article_report", args=[self.article.pk]))
        self.assertContains(response, 'data-copy="report"', html=False)
        self.assertNotContains(response, "<script>alert(1)</script>")

    def test_the_claim_page_offers_the_actions(self):
        response = self.as_user("editor").get(reverse("claim_detail", args=[self.claim.pk]))
        self.assertContains(response, reverse("suggestion_apply", args=[self.claim.pk, self.suggestion.pk]))
        self.assertContains(response, reverse("claim_tag", args=[self.claim.pk]))
        self.assertContains(response, "{{failed verification}}")

    def test_the_audit_log_records_an_action_with_the_claims_article(self):
        entry = audit_record(user=self.users["editor"], action=AuditEntry.Action.DISMISS,
                             claim=self.claim, detail="source does support it")
        self.assertEqual(entry.article, self.article)
        self.assertIn("eve_editor dismissed a flag", str(entry))
