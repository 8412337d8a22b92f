"""One wiki, one identity: a wiki is known by what its siteinfo says, so the same wiki
reached at another address (the demo on another port) is the same row with the same
claims, and saving works from the new address; rows that already forked are merged
with their claims, reviews, votes and audit entries."""
from __future__ import annotations

import uuid

from django.apps import apps
from django.test import TestCase, override_settings
from django.urls import reverse

from harness.mediawiki import MediaWikiServer, shared_test_wiki
from sideapp.edits.models import AuditEntry
from sideapp.claims.models import ClaimReview
from sideapp.models import Article, Claim, Revision, RevisionClaim, ScanJob, Wiki
from sideapp.scans.merging import Models, wiki_merge
from sideapp.scans.services import scan_request
from sideapp.scans.wikis import client_for, saving_off_reason, wiki_for
from tests.edits_support import judged_not_supported
from tests.users import PASSWORD, cast

PAGE = """The Side identity bridge opened in 1931.<ref>{{cite web |url=http://127.0.0.1:9/opening |title=Opening}}</ref>
It is made of red stone.<ref>{{cite web |url=http://127.0.0.1:9/stone |title=Stone}}</ref>

== References ==
<references />
"""
DEAD = "http://127.0.0.1:9/api.php"
FAST = {"SIDE_WIKI_RETRIES": 1, "SIDE_WIKI_BACKOFF": 0.01}


def scan(wiki: Wiki, title: str) -> ScanJob:
    from sideapp.pipeline.stages import scan_job

    job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=[title], enqueue=False)
    for item in job.items.all():
        scan_job(item.pk)
    return job


@override_settings(**FAST)
class WikiIdentityTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = shared_test_wiki()
        # The same wiki (same files, same database) answering at a second address, as
        # the demo does when it runs again on other ports.
        cls.again = MediaWikiServer(cls.server.workdir, die_with_parent=True)
        cls.again.start()
        cls.addClassCleanup(cls.again.stop)

    def setUp(self):
        self.title = f"Side identity test {uuid.uuid4().hex[:8]}"
        self.server.edit(self.title, PAGE)

    def test_it_knows_a_wiki_by_its_siteinfo(self):
        wiki = wiki_for(api_url=self.server.api_url)
        self.assertEqual((wiki.wikiid, wiki.name), ("sidewiki", "Side Demo Wiki"))
        self.assertTrue(wiki.server.startswith("http://127.0.0.1"))
        self.assertIsNotNone(wiki.identified_at)

    def test_the_same_wiki_at_another_address_is_the_same_row_with_each_claim_once(self):
        first = wiki_for(api_url=self.server.api_url)
        scan(first, self.title)
        claims = set(Claim.objects.filter(current=True, article__title=self.title).values_list("pk", flat=True))
        second = wiki_for(api_url=self.again.api_url)
        self.assertEqual(second.pk, first.pk)
        self.assertEqual(second.api_url, self.again.api_url)
        self.assertEqual(Wiki.objects.count(), 1)
        job = scan(second, self.title)
        self.assertIn("already scanned", job.items.get().reason)
        again = set(Claim.objects.filter(current=True, article__title=self.title).values_list("pk", flat=True))
        self.assertEqual(again, claims)
        self.assertEqual(len(claims), 2)

    def test_a_wiki_that_does_not_answer_gets_a_row_until_it_does(self):
        wiki = wiki_for(api_url=DEAD)
        self.assertEqual((wiki.api_url, wiki.wikiid), (DEAD, ""))
        self.assertEqual(wiki_for(api_url=DEAD).pk, wiki.pk)

    def test_a_row_made_before_the_wiki_answered_merges_into_the_known_wiki(self):
        known = wiki_for(api_url=self.server.api_url)
        scan(known, self.title)
        early = Wiki.objects.create(api_url=self.again.api_url)  # no identity yet
        scan(early, self.title)
        self.assertEqual(Article.objects.filter(title=self.title).count(), 2)
        merged = wiki_for(api_url=self.again.api_url)
        self.assertEqual(merged.pk, known.pk)
        self.assertEqual(list(Wiki.objects.values_list("api_url", flat=True)), [self.again.api_url])
        article = Article.objects.get(title=self.title)
        self.assertEqual(Revision.objects.filter(article=article).count(), 1)
        self.assertEqual(Claim.objects.filter(article=article, current=True).count(), 2)

    def test_an_edit_is_saved_from_the_second_address_with_the_configured_account(self):
        first = wiki_for(api_url=self.server.api_url)
        scan(first, self.title)
        bot_user, bot_password = self.server.bot_password("Side editor bot", "bot-account-password")
        users = cast()
        self.client.login(username=users["editor"].username, password=PASSWORD)
        claim = judged_not_supported(Claim.objects.get(article__title=self.title,
                                                      text__startswith="The Side identity bridge"))
        with override_settings(SIDE_WIKI_API_URL=self.again.api_url, SIDE_WIKI_USERNAME=bot_user,
                               SIDE_WIKI_PASSWORD=bot_password):
            self.assertIsNone(saving_off_reason(first))
            self.assertEqual(client_for(first).config.api_url, self.again.api_url)
            url = reverse("claim_tag", args=[claim.pk])
            preview = self.client.get(url)
            saved = self.client.post(url, {"confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-1500:])
        self.assertIn("failed verification", self.server.admin_site.pages[self.title].text(cache=False))
        self.assertEqual(Wiki.objects.get().api_url, self.again.api_url)

    def test_another_wiki_says_before_anything_is_pressed_that_saving_is_off(self):
        other = Wiki.objects.create(api_url="http://wiki.elsewhere.test/w/api.php", wikiid="otherwiki", name="Other")
        with override_settings(SIDE_WIKI_API_URL=self.server.api_url, SIDE_WIKI_USERNAME="Bot@x",
                               SIDE_WIKI_PASSWORD="secret"):
            reason = saving_off_reason(other)
            self.assertIn("Saving is off for Other", reason)
            self.assertEqual(client_for(other).config.username, "")
        with override_settings(SIDE_WIKI_API_URL=self.server.api_url, SIDE_WIKI_USERNAME=""):
            self.assertIn("no wiki account is configured", saving_off_reason(wiki_for()))


class WikiMergeTests(TestCase):
    """The merge the migration runs on rows that forked before wikis had an identity."""

    def setUp(self):
        self.users = cast()
        self.keep = Wiki.objects.create(api_url="http://127.0.0.1:8100/api.php")
        self.drop = Wiki.objects.create(api_url="http://127.0.0.1:8089/api.php")

    def article(self, wiki: Wiki, rev_id: int) -> tuple[Article, Claim]:
        article = Article.objects.create(wiki=wiki, title="Kellhaven Lighthouse")
        revision = Revision.objects.create(article=article, rev_id=rev_id, wikitext="x")
        claim = Claim.objects.create(article=article, fingerprint="fp", text="It opened in 1931.",
                                     first_revision=revision, last_revision=revision, current=True)
        RevisionClaim.objects.create(revision=revision, claim=claim, position=0)
        Article.objects.filter(pk=article.pk).update(current_revision=revision)
        return article, claim

    def test_it_keeps_every_claims_reviews_and_audit_entries_on_one_row(self):
        _, kept_claim = self.article(self.keep, 7)
        _, copy_claim = self.article(self.drop, 7)
        editor, admin = self.users["editor"], self.users["admin"]
        ClaimReview.objects.create(claim=kept_claim, user=editor, kind="verified")
        ClaimReview.objects.create(claim=copy_claim, user=editor, kind="dismissed", reason="claim_fine")
        ClaimReview.objects.create(claim=copy_claim, user=admin, kind="dismissed", reason="claim_fine")
        AuditEntry.objects.create(user=admin, action="dismiss", claim=copy_claim, article=copy_claim.article)
        wiki_merge(Models.of(apps), keep=self.keep, drop=self.drop)
        self.assertEqual(list(Wiki.objects.values_list("pk", flat=True)), [self.keep.pk])
        claim = Claim.objects.get()
        self.assertEqual(claim.pk, kept_claim.pk)
        self.assertTrue(claim.current)
        self.assertEqual(sorted(ClaimReview.objects.filter(claim=claim).values_list("user__username", "kind")),
                         sorted([(editor.username, "verified"), (admin.username, "dismissed")]))
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.claim_id, entry.article_id), (claim.pk, claim.article_id))
        self.assertEqual(Revision.objects.count(), 1)

    def test_an_article_only_the_copy_has_moves_over_whole(self):
        _, claim = self.article(self.drop, 3)
        wiki_merge(Models.of(apps), keep=self.keep, drop=self.drop)
        self.assertEqual(Claim.objects.get().pk, claim.pk)
        self.assertEqual(Article.objects.get().wiki_id, self.keep.pk)

    def test_the_migration_merges_copies_of_one_address_and_leaves_other_wikis(self):
        migration = __import__("sideapp.migrations.0011_wiki_identity", fromlist=["merge_copies"])
        self.article(self.keep, 9)
        self.article(self.drop, 8)
        other = Wiki.objects.create(api_url="https://de.wikipedia.org/w/api.php")
        migration.merge_copies(apps, None)
        self.assertEqual(sorted(Wiki.objects.values_list("pk", flat=True)), sorted([self.drop.pk, other.pk]))
        article = Article.objects.get()
        self.assertEqual(article.current_revision.rev_id, 9)
        self.assertEqual(Claim.objects.get().current, True)


@override_settings(**FAST)
class WikiPagesTests(TestCase):
    def setUp(self):
        self.users = cast()
        self.client.login(username=self.users["admin"].username, password=PASSWORD)

    def test_an_admin_adds_a_wiki_that_answers_and_it_is_audited(self):
        server = shared_test_wiki()
        response = self.client.post(reverse("wiki_list"), {"api_url": server.api_url}, follow=True)
        self.assertContains(response, "Side Demo Wiki is known at")
        self.assertContains(response, "<code>sidewiki</code>", html=True)
        self.assertEqual(AuditEntry.objects.get().action, AuditEntry.Action.WIKI_ADD)

    def test_a_wiki_that_does_not_answer_is_refused_in_words_and_nothing_is_stored(self):
        response = self.client.post(reverse("wiki_list"), {"api_url": DEAD})
        self.assertContains(response, "Side editor could not read this wiki")
        self.assertFalse(Wiki.objects.exists())

    def test_lists_name_the_wiki_only_when_there_are_several(self):
        one = Wiki.objects.create(api_url="http://one.test/api.php", wikiid="one", name="Wiki One")
        article = Article.objects.create(wiki=one, title="A")
        revision = Revision.objects.create(article=article, rev_id=1, wikitext="x")
        Claim.objects.create(article=article, fingerprint="f", text="It opened in 1931.", current=True,
                             first_revision=revision, last_revision=revision, verify_state="done",
                             verdict="supported", confidence="high", score=0.9)
        single = self.client.get(reverse("claim_list"), {"show": "all"})
        self.assertNotContains(single, "<th>Wiki</th>", html=True)
        Wiki.objects.create(api_url="http://two.test/api.php", wikiid="two", name="Wiki Two")
        several = self.client.get(reverse("claim_list"), {"show": "all"})
        self.assertContains(several, "<th>Wiki</th>", html=True)
        self.assertContains(several, "<td>Wiki One</td>", html=True)
