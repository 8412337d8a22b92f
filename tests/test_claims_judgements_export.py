"""Editors' overruled flags become labelled claims: `export_judgements --from editors`
writes the claims they verified by hand, or whose flag they dismissed because the source
supports them, with the source's text and the reason the app gave; admins see how often
each kind of reason is overruled."""
from __future__ import annotations

import json
import tempfile
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.test import TestCase
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.annotation import services
from sideapp.claims.reviews import claim_review_save
from sideapp.models import Citation, ClaimCitation
from tests import annotation_support as support
from tests.test_annotation_services import answer_for
from tests.users import CastMixin, make_user

FIGURE_REASON = "the source gives the year the viaduct opened as 1913, not 1931"


def export(*options: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "judgements.jsonl"
        call_command("export_judgements", "--output", str(out), *options, stdout=StringIO())
        return [json.loads(line) for line in out.read_text().splitlines()]


class EditorJudgementExportTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.article, claims = article_with_claims("Kell Bridge", [
            ClaimRow("The viaduct opened in 1931.", cited_url="http://a.test/1"),
            ClaimRow("It has nine arches.", cited_url="http://a.test/2"),
            ClaimRow("It was listed in 1985.", cited_url="http://a.test/3"),
            ClaimRow("Its piers are of granite."),
        ])
        cls.opened, cls.arches, cls.listed, cls.uncited = claims
        wiki_source, _ = support.sources()
        Citation.objects.filter(claims__in=[cls.opened, cls.arches]).update(source=wiki_source)
        ClaimCitation.objects.filter(claim=cls.opened).update(reason=FIGURE_REASON)
        cls.eve, cls.ed = make_user("eve", "editor"), make_user("ed", "editor")

    def test_claims_editors_say_their_source_supports_are_written_as_supported(self):
        claim_review_save(claim=self.opened, user=self.eve, kind="dismissed", reason="source_supports")
        claim_review_save(claim=self.opened, user=self.ed, kind="verified")
        claim_review_save(claim=self.arches, user=self.eve, kind="verified")
        rows = {row["id"]: row for row in export("--from", "editors")}
        self.assertEqual(set(rows), {f"claim{self.opened.pk}-editors", f"claim{self.arches.pk}-editors"})
        opened = rows[f"claim{self.opened.pk}-editors"]
        self.assertEqual((opened["claim"], opened["gold_verdict"], opened["votes"], opened["from"]),
                         ("The viaduct opened in 1931.", "supported", 2, "editors"))
        self.assertEqual((opened["source"]["text"], opened["reason"], opened["verifier_verdict"]),
                         (support.WIKI_TEXT, FIGURE_REASON, "not_supported"))
        self.assertEqual(opened["title"], "Kell Bridge")

    def test_other_dismissals_and_claims_without_a_readable_source_are_not_labels(self):
        claim_review_save(claim=self.opened, user=self.eve, kind="dismissed", reason="claim_fine")
        claim_review_save(claim=self.listed, user=self.eve, kind="verified")  # its source was never read
        claim_review_save(claim=self.uncited, user=self.eve, kind="verified")  # no citation at all
        self.assertEqual(export("--from", "editors"), [])

    def test_a_claim_with_two_citations_is_not_a_label_for_either(self):
        second = Citation.objects.create(article=self.article, fingerprint="second", kind="ref", raw="<ref/>",
                                         source=support.sources("-2")[0])
        ClaimCitation.objects.create(claim=self.arches, citation=second, position=1)
        claim_review_save(claim=self.arches, user=self.eve, kind="verified")
        self.assertEqual(export("--from", "editors"), [])

    def test_the_default_stays_annotators_and_all_writes_both(self):
        support.bulk_items(1, scores=[0.4])
        annotator = make_user("ann", "annotator")
        assignment = services.assignment_next(annotator=annotator)
        services.vote_cast(annotator=annotator, item_id=assignment.item_id, answer=answer_for(assignment, "wiki"))
        claim_review_save(claim=self.arches, user=self.eve, kind="verified")
        self.assertEqual({row.get("from", "annotators") for row in export()}, {"annotators"})
        self.assertEqual({row.get("from", "annotators") for row in export("--from", "all")}, {"annotators", "editors"})


class OverruledReasonsPageTests(CastMixin, TestCase):
    def test_admins_see_how_often_figure_reasons_and_other_flags_are_overruled(self):
        _, (opened, widened, arches) = article_with_claims("Kell Bridge", [
            ClaimRow("The viaduct opened in 1931.", cited_url="http://a.test/1"),
            ClaimRow("It was widened in 1960.", cited_url="http://a.test/2"),
            ClaimRow("It has nine arches.", cited_url="http://a.test/3"),
        ])
        ClaimCitation.objects.filter(claim__in=[opened, widened]).update(
            reason=FIGURE_REASON, reasons=[{"kind": "figure", "claimed": "1931", "given": "1913",
                                           "thing": "the year the viaduct opened"}])
        claim_review_save(claim=opened, user=self.users["editor"], kind="verified")
        claim_review_save(claim=arches, user=self.users["editor"], kind="dismissed", reason="claim_fine")
        page = self.client_for("admin").get(reverse("annotation:results"))
        rows = page.context["overruled"]
        self.assertEqual([(row.given, row.overruled) for row in rows], [(2, 1), (1, 0)])
        self.assertContains(page, "Flags editors overruled")
        self.assertContains(page, "50%")
        self.assertEqual(self.client_for("editor").get(reverse("annotation:results")).status_code, 403)
