"""Pages known by their page id: a row found by id whatever its title, renamed when the page
moved (its old title kept), and migration 0016 folding the rows that moves made before
into one, judgements, votes, patrol rows and audit entries kept."""
from __future__ import annotations

import importlib
from datetime import timedelta

from django.apps import apps
from django.db import connection
from django.test import TestCase
from django.utils import timezone

from harness.claims import ClaimRow, add_claims
from sideapp.edits.audit import audit_record
from sideapp.models import Article, ArticleTitle, AuditEntry, Claim, PatrolEdit, PatrolRow, Revision, Wiki
from sideapp.claims.models import ClaimReview
from sideapp.scans.pages import article_for_page, article_of
from tests.users import make_user

migration = importlib.import_module("sideapp.migrations.0016_pages32_page_identity")


def page_row(wiki: Wiki, title: str, page_id: int | None, rev_id: int, texts: list[str]) -> tuple[Article, list[Claim]]:
    article = Article.objects.create(wiki=wiki, title=title, page_id=page_id)
    revision = Revision.objects.create(article=article, rev_id=rev_id, wikitext="")
    Article.objects.filter(pk=article.pk).update(current_revision=revision)
    article.refresh_from_db()
    claims = add_claims(article, revision, [ClaimRow(t, cited_url=f"https://s.example/{n}") for n, t in enumerate(texts)])
    return article, claims


class PageRowTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.wiki = Wiki.objects.create(api_url="http://pages.test/api.php", wikiid="pageswiki", name="Pages")

    def test_a_page_read_under_a_new_title_renames_its_row_and_keeps_the_old_title(self):
        article, _ = page_row(self.wiki, "Old name", 5, 10, ["It opened in 1931."])
        again = article_for_page(wiki=self.wiki, page_id=5, title="New name")
        self.assertEqual((again.pk, again.title), (article.pk, "New name"))
        self.assertEqual(Article.objects.get(pk=article.pk).title, "New name")
        self.assertEqual(list(ArticleTitle.objects.filter(article=article).values_list("title", flat=True)), ["Old name"])

    def test_a_row_made_before_page_ids_takes_the_id_of_its_page(self):
        article, _ = page_row(self.wiki, "Legacy", None, 10, ["It is red."])
        found = article_for_page(wiki=self.wiki, page_id=77, title="Legacy")
        self.assertEqual((found.pk, Article.objects.get(pk=article.pk).page_id), (article.pk, 77))

    def test_a_title_taken_by_another_page_is_that_pages_own_row(self):
        moved, _ = page_row(self.wiki, "Shared", 5, 10, ["It is red."])
        newer = article_for_page(wiki=self.wiki, page_id=6, title="Shared")  # a new page made under the old name
        self.assertNotEqual(newer.pk, moved.pk)
        self.assertEqual(article_of(wiki=self.wiki, page_id=None, title="Shared").pk, newer.pk)
        self.assertEqual(article_of(wiki=self.wiki, page_id=5).pk, moved.pk)

    def test_a_deleted_page_read_again_is_no_longer_deleted(self):
        article, _ = page_row(self.wiki, "Gone", 8, 10, ["It is red."])
        Article.objects.filter(pk=article.pk).update(deleted_at=timezone.now())
        self.assertIsNone(article_for_page(wiki=self.wiki, page_id=8, title="Gone").deleted_at)


class MovedRowsMigrationTests(TestCase):
    """Rows of one page id under two titles, as moves left them before 0016 (the unique
    constraint of 0017 is lifted inside the test's transaction to make them)."""

    @classmethod
    def setUpTestData(cls):
        cls.editor = make_user("mia_mover", "editor")

    def setUp(self):
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX article_unique_page")  # a partial unique index in PostgreSQL
        self.wiki = Wiki.objects.create(api_url="http://moves.test/api.php", wikiid="moveswiki", name="Moves")
        self.old, old_claims = page_row(self.wiki, "Old title", 12, 100, ["It opened in 1931.", "It is red."])
        self.new, new_claims = page_row(self.wiki, "New title", 12, 120, ["It opened in 1931.", "It is tall."])
        # The first claim is under both rows (one fingerprint); the others are each row's own.
        Claim.objects.filter(pk=new_claims[1].pk).update(fingerprint="tall")
        self.kept_claim = new_claims[0]
        self.review = ClaimReview.objects.create(claim=old_claims[0], user=self.editor, kind="dismissed",
                                                 reason="claim_fine")
        audit_record(user=self.editor, action=AuditEntry.Action.DISMISS, claim=old_claims[0], article=self.old,
                     detail="a judgement before the move")
        edit = PatrolEdit.objects.create(wiki=self.wiki, rcid=5, kind="edit", revid=100, title="Old title", page_id=12,
                                         timestamp=timezone.now() - timedelta(days=1))
        self.row = PatrolRow.objects.create(edit=edit, claim=old_claims[1], article=self.old)
        self.audits = AuditEntry.objects.count()

    def test_the_rows_of_one_page_id_become_the_row_of_its_newest_revision(self):
        migration.merge_moved_pages(apps, None)
        article = Article.objects.get(wiki=self.wiki, page_id=12)
        self.assertEqual((article.pk, article.title, article.current_revision.rev_id), (self.new.pk, "New title", 120))
        self.assertEqual(list(article.titles.values_list("title", flat=True)), ["Old title"])

    def test_judgements_patrol_rows_and_audit_entries_stay_with_the_page(self):
        migration.merge_moved_pages(apps, None)
        self.review.refresh_from_db()
        self.assertEqual(self.review.claim_id, self.kept_claim.pk)
        self.row.refresh_from_db()
        self.assertEqual(self.row.article_id, self.new.pk)
        self.assertEqual(AuditEntry.objects.count(), self.audits)
        self.assertFalse(AuditEntry.objects.filter(article=self.old.pk).exists())
        self.assertEqual(Claim.objects.filter(article=self.new).count(), 3)
