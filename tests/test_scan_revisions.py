"""Storing revisions: identity of claims across revisions, nothing half-written."""
from __future__ import annotations

from datetime import datetime, timezone

from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Source, Wiki
from sideapp.pipeline.stages import revision_dispatch
from sideapp.scans.revisions import revision_store
from sideapp.scans.services import article_store
from sideapp.scans.wikiapi import PageData
from verifier_core.verification.judgement.reasons import RULES
from verifier_core.wikitext import types as wt


def page(rev_id: int, text: str = "irrelevant", title: str = "Lighthouse") -> PageData:
    return PageData(title=title, requested_title=title, page_id=7, rev_id=rev_id,
                    timestamp=datetime(2026, 1, rev_id % 28 + 1, tzinfo=timezone.utc),
                    wikitext=text, redirected_from=None, protection=())


def cite(index: int, url: str | None, raw: str = "", name: str | None = None) -> wt.Citation:
    return wt.Citation(index=index, kind="ref", raw=raw or f"{{{{cite web|url={url}}}}}",
                       ref_name=name, template="cite web", url=url, title=f"Page {index}")


def extraction(claims: list[tuple[str, list[int]]], citations: list[wt.Citation]) -> wt.Extraction:
    return wt.Extraction(
        title="Lighthouse", sections=[], citations=citations, plain_text="",
        claims=[wt.Claim(text=t, context="", section=["History"], citation_indices=idx,
                         needs_citation=not idx) for t, idx in claims],
    )


class RevisionStoreTests(TestCase):
    def setUp(self):
        self.wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        self.article = Article.objects.create(wiki=self.wiki, title="Lighthouse")
        self.citations = [cite(0, "https://example.org/a"), cite(1, "https://example.org/b", name="b")]

    def store(self, rev_id: int, claims, citations=None) -> Revision:
        return revision_store(article=self.article, page=page(rev_id),
                              extraction=extraction(claims, citations or self.citations))

    def test_it_links_a_named_citation_to_every_claim_that_reuses_it(self):
        self.store(1, [("The tower is 30 m tall.", [1]), ("It was lit in 1870.", [0, 1])])
        citation = Citation.objects.get(ref_name="b")
        self.assertEqual(citation.claims.count(), 2)
        self.assertEqual(Citation.objects.count(), 2)
        self.assertEqual(Source.objects.count(), 2)

    def test_it_keeps_claim_identity_when_a_new_revision_leaves_the_claim_unchanged(self):
        self.store(1, [("The tower is 30 m tall.", [0]), ("It was lit in 1870.", [1])])
        before = {c.text: c.pk for c in Claim.objects.all()}
        rev2 = self.store(2, [("The tower is 30 m tall.", [0]), ("It was first lit in 1871.", [1])])
        after = {c.text: c.pk for c in Claim.objects.all()}
        self.assertEqual(after["The tower is 30 m tall."], before["The tower is 30 m tall."])
        self.assertNotIn("It was first lit in 1871.", before)
        self.assertEqual(
            sorted(rc.claim.text for rc in RevisionClaim.objects.filter(revision=rev2)),
            ["It was first lit in 1871.", "The tower is 30 m tall."],
        )
        kept = Claim.objects.get(pk=before["The tower is 30 m tall."])
        self.assertEqual(kept.last_revision, rev2)
        self.assertNotEqual(kept.first_revision, rev2)

    def test_it_treats_a_claim_whose_citation_changed_as_a_new_claim(self):
        self.store(1, [("The tower is 30 m tall.", [0])])
        self.store(2, [("The tower is 30 m tall.", [1])])
        self.assertEqual(Claim.objects.filter(text="The tower is 30 m tall.").count(), 2)

    def test_it_keeps_a_citation_when_only_its_access_date_changes(self):
        self.store(1, [("A.", [0])], [cite(0, "https://example.org/a", "{{cite web|url=https://example.org/a|access-date=2020}}")])
        self.store(2, [("A.", [0])], [cite(0, "https://Example.org/a#top", "{{cite web|url=https://example.org/a|access-date=2024}}")])
        self.assertEqual(Citation.objects.count(), 1)
        self.assertIn("2024", Citation.objects.get().raw)
        self.assertEqual(Claim.objects.count(), 1)

    def test_a_new_revision_rewrites_only_the_rows_whose_text_changed(self):
        claims = [(f"The tower was painted in {1900 + n}.", [n % 2]) for n in range(20)]
        self.store(1, claims)
        changed = cite(0, "https://example.org/a", raw="{{cite web|url=https://example.org/a|title=Renamed}}")
        with CaptureQueriesContext(connection) as queries:
            rev2 = self.store(2, [*claims, ("A new keeper arrived in 1990.", [1])], [changed, self.citations[1]])
        updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
        rewritten = [sql for sql in updates if "CASE WHEN" in sql]  # bulk rewrites, one per table
        self.assertEqual(len(rewritten), 1)
        self.assertIn('"sideapp_citation"', rewritten[0])  # the citation whose text changed, alone
        self.assertIn("Renamed", Citation.objects.get(url="https://example.org/a").raw)
        self.assertEqual(Claim.objects.filter(last_revision=rev2).count(), 21)  # every claim moved on

    def test_it_records_a_claim_needing_a_citation_without_citations(self):
        self.store(1, [("Nobody knows who built it.", [])])
        claim = Claim.objects.get()
        self.assertTrue(claim.needs_citation)
        self.assertFalse(ClaimCitation.objects.exists())

    def test_it_keeps_repeated_identical_sentences_as_separate_claims(self):
        self.store(1, [("It closed.", [0]), ("It closed.", [0])])
        self.assertEqual(Claim.objects.count(), 2)

    def test_it_writes_nothing_when_storing_fails_halfway(self):
        broken = extraction([("Fine claim.", [0]), ("Broken claim.", [5])], self.citations)
        with self.assertRaises(IndexError):
            revision_store(article=self.article, page=page(1), extraction=broken)
        for model in (Revision, Claim, Citation, ClaimCitation, RevisionClaim):
            self.assertFalse(model.objects.exists(), model.__name__)
        self.article.refresh_from_db()
        self.assertIsNone(self.article.current_revision)

    def test_it_never_moves_the_current_revision_back_to_an_older_one(self):
        self.store(5, [("A.", [0])])
        self.store(3, [("A.", [0])])
        self.article.refresh_from_db()
        self.assertEqual(self.article.current_revision.rev_id, 5)

    def test_only_the_claims_of_the_current_revision_are_marked_current(self):
        self.store(1, [("A.", [0]), ("B.", [1])])
        self.store(2, [("A.", [0]), ("C.", [1])])
        self.store(0, [("D.", [0])])  # an older revision arriving late changes nothing
        current = dict(Claim.objects.values_list("text", "current"))
        self.assertEqual(current, {"A.": True, "B.": False, "C.": True, "D.": False})


class ArticleStoreTests(TestCase):
    def test_rescanning_an_unchanged_revision_writes_nothing_new(self):
        wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        text = "The tower is 30 m tall.<ref>{{cite web|url=https://example.org/a|title=A}}</ref>"
        _, first, written = article_store(wiki=wiki, page=page(1, text))
        self.assertTrue(written)
        counts = [m.objects.count() for m in (Revision, Claim, Citation, Source, RevisionClaim)]
        _, again, written_again = article_store(wiki=wiki, page=page(1, text))
        self.assertFalse(written_again)
        self.assertEqual(again.pk, first.pk)
        self.assertEqual(counts, [m.objects.count() for m in (Revision, Claim, Citation, Source, RevisionClaim)])
        self.assertGreaterEqual(counts[1], 1)

    def test_rescanning_judges_again_only_claims_judged_under_older_rules(self):
        wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        text = ("The tower is 30 m tall.<ref>{{cite web|url=https://example.org/a|title=A}}</ref> "
                "It was lit in 1870.<ref>{{cite web|url=https://example.org/b|title=B}}</ref>")
        article_store(wiki=wiki, page=page(1, text))
        old, new = Claim.objects.order_by("pk")
        for rev_id in (1, 2):  # the revision already stored, and a new one keeping both claims
            with self.subTest(rev_id=rev_id):
                Claim.objects.filter(pk=old.pk).update(verify_state="done", method="cross-encoder:abc rules 2026-01-01")
                Claim.objects.filter(pk=new.pk).update(verify_state="done", method=f"cross-encoder:abc {RULES}")
                _, revision, _ = article_store(wiki=wiki, page=page(rev_id, text))
                revision_dispatch(revision=revision)
                states = dict(Claim.objects.values_list("pk", "verify_state"))
                self.assertEqual((states[old.pk], states[new.pk]), ("pending", "done"))


class ReviewsAcrossRevisionsTests(RevisionStoreTests):
    def test_a_revision_that_changes_the_claim_clears_editors_judgements(self):
        from sideapp.claims.models import ClaimReview
        from sideapp.claims.selectors import current_claims
        from tests.users import make_user

        self.store(1, [("The tower is 30 m tall.", [0]), ("It was lit in 1870.", [1])])
        editor = make_user("eve_editor", "editor")
        for claim in Claim.objects.all():
            ClaimReview.objects.create(claim=claim, user=editor, kind="dismissed", reason="claim_fine")
        self.store(2, [("The tower is 35 m tall.", [0]), ("It was lit in 1870.", [1])])
        judged = current_claims().filter(reviews__user=editor)
        self.assertEqual([c.text for c in judged], ["It was lit in 1870."])


class CheckedStatementStoreTests(TestCase):
    def setUp(self):
        wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        self.article = Article.objects.create(wiki=wiki, title="Lighthouse")
        self.citations = [cite(0, "https://example.org/a")]

    def store(self, rev_id: int, **statement) -> Claim:
        claim = wt.Claim(text="Ada Quill", context="", section=["Keepers"], citation_indices=[0], **statement)
        extracted = wt.Extraction(title="Lighthouse", sections=[], citations=self.citations, plain_text="",
                                  claims=[claim])
        revision_store(article=self.article, page=page(rev_id), extraction=extracted)
        return Claim.objects.get()

    def test_it_stores_the_statement_and_whether_it_is_checkable(self):
        claim = self.store(1, checked="Keepers of the light have included: Ada Quill")
        self.assertEqual((claim.statement, claim.checkable), ("Keepers of the light have included: Ada Quill", True))
        Claim.objects.update(verify_state=Claim.State.DONE, verdict="supported")
        again = self.store(2, checked="Keepers of the light have included: Ada Quill")
        self.assertEqual((again.pk, again.verify_state, again.verdict), (claim.pk, Claim.State.DONE, "supported"))

    def test_the_same_words_checked_as_another_statement_keep_their_row_and_are_verified_again(self):
        claim = self.store(1)
        Claim.objects.update(verify_state=Claim.State.DONE, verdict="supported")
        restated = self.store(2, checked="", checkable=False)
        self.assertEqual(restated.pk, claim.pk)
        self.assertEqual((restated.checkable, restated.verify_state), (False, Claim.State.PENDING))
