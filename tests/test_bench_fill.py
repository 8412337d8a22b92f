"""The editors' pages benchmark writes its claims in PostgreSQL (bench/bulkfill.py): the rows
must be what the ORM would have written, or the benchmark measures another table."""
from __future__ import annotations

from django.db import models
from django.test import TestCase

from bench.bench_editor_pages import VERDICTS, fill
from bench.bulkfill import insert_select
from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import Claim, ClaimCitation, ClaimReview, RevisionClaim, Suggestion


def columns(row: models.Model, leave_out: set[str]) -> dict:
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if f.attname not in leave_out}


class BulkFillTests(TestCase):
    def test_a_row_written_by_insert_select_holds_every_default_the_orm_writes(self):
        _, [saved] = article_with_claims("Kell Bridge", [ClaimRow("The viaduct opened in 1931.", section=["History"])])
        given = {"article_id": "c.article_id", "fingerprint": "'copy'", "text": "c.text", "section": "c.section",
                 "first_revision_id": "c.first_revision_id", "last_revision_id": "c.last_revision_id",
                 "verdict": "c.verdict", "score": "c.score", "confidence": "c.confidence", "current": "c.current",
                 "flagged": "c.flagged", "needs_look": "c.needs_look", "verify_state": "c.verify_state",
                 "evidence": "c.evidence"}

        written = insert_select(Claim, given, "FROM sideapp_claim c WHERE c.id = %s", [saved.pk])

        self.assertEqual(written, 1)
        copy = Claim.objects.get(fingerprint="copy")
        self.assertEqual(columns(copy, {"id", "fingerprint"}), columns(saved, {"id", "fingerprint"}))
        self.assertEqual(Claim.objects.filter(search="viaduct").count(), 2)  # its generated words too

    def test_a_column_the_caller_names_that_the_model_lacks_is_refused_in_words(self):
        with self.assertRaisesMessage(ValueError, "Claim has no columns ['colour']"):
            insert_select(Claim, {"colour": "'red'"}, "FROM sideapp_claim c")

    def test_the_benchmark_fill_flags_each_claim_by_the_rule_and_links_its_rows(self):
        pks = fill(1000)  # 2 claims in each of 500 articles

        claims = Claim.objects.all()
        self.assertEqual(len(pks), 1000)
        self.assertEqual(set(claims.values_list("verdict", flat=True)), set(VERDICTS))
        for claim in claims.only("verdict", "needs_citation", "flagged", "needs_look", "current", "score"):
            rule = Claim.flag_rule(verdict=claim.verdict, confidence="high", needs_citation=claim.needs_citation)
            self.assertEqual((claim.flagged, claim.needs_look), rule)
            self.assertTrue(claim.current)
            self.assertTrue(0 <= claim.score <= 1)
        self.assertEqual(RevisionClaim.objects.count(), 1000)
        # Claim 0 of each article needs a source (n % 17 == 0); the others cite a page.
        self.assertEqual(ClaimCitation.objects.count(), claims.filter(needs_citation=False).count())
        self.assertEqual(claims.filter(needs_citation=True).count(), 500)
        self.assertEqual(Suggestion.objects.count(), 500)  # n % 3 == 0: claim 0 of each
        self.assertTrue(Suggestion.objects.filter(beats_current=True).exists())
        self.assertTrue(0 < ClaimReview.objects.count() < 100)  # about one claim in 20
        self.assertTrue(Claim.objects.filter(search="viaduct").exists())
