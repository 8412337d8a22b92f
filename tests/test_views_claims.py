"""Editors browse flagged claims, weakest first, and read the evidence highlighted."""
from __future__ import annotations

from django.test import Client, SimpleTestCase, TestCase
from django.urls import reverse

from harness.claims import evidence
from sideapp.claims.selectors import evidence_parts
from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Suggestion, Wiki
from tests.users import CastMixin


class ClaimPagesTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        wiki = Wiki.objects.create(api_url="http://wiki.test/api.php")
        article = Article.objects.create(wiki=wiki, title="Lighthouse <b>A</b>")
        revision = Revision.objects.create(article=article, rev_id=1, wikitext="")
        article.current_revision = revision
        article.save()
        cls.claims = {}
        for n, (text, verdict, score, flagged) in enumerate([
            ("It was lit in 1862.", "supported", 0.93, False),
            ("It is 40 m tall. <script>alert(1)</script>", "not_supported", 0.12, True),
            ("It was painted red.", "partially_supported", 0.41, True),
        ]):
            claim = Claim.objects.create(article=article, fingerprint=str(n), text=text, first_revision=revision,
                                         last_revision=revision, verdict=verdict, score=score, flagged=flagged,
                                         verify_state="done", current=True, evidence=evidence("It is 31 m tall."))
            RevisionClaim.objects.create(revision=revision, claim=claim, position=n)
            cls.claims[verdict] = claim
        citation = Citation.objects.create(article=article, fingerprint="c", kind="ref", raw="x",
                                           url="https://example.org/a", title="The <i>history</i>")
        ClaimCitation.objects.create(claim=cls.claims["not_supported"], citation=citation, verdict="not_supported",
                                     score=0.12, evidence=evidence("It is 31 m tall."))
        Suggestion.objects.create(claim=cls.claims["not_supported"], rank=1, url="https://example.org/b",
                                  title="Better page", score=0.8, verdict="supported", beats_current=True,
                                  evidence=evidence("It is 31 m tall."))



    def test_flagged_claims_are_listed_weakest_first(self):
        response = self.client_for("editor").get(reverse("claim_list"))
        listed = list(response.context["page"])
        self.assertEqual(listed, [self.claims["not_supported"], self.claims["partially_supported"]])

    def test_only_editors_and_admins_may_browse_claims(self):
        self.assertEqual(self.client_for("admin").get(reverse("claim_list")).status_code, 200)
        for role in ("annotator", "nobody"):
            self.assertEqual(self.client_for(role).get(reverse("claim_list")).status_code, 403)
        claim = self.claims["supported"]
        self.assertEqual(self.client_for("annotator").get(reverse("claim_detail", args=[claim.pk])).status_code, 403)
        self.assertEqual(Client().get(reverse("claim_list")).status_code, 302)

    def test_the_filter_answers_htmx_with_the_rows_only(self):
        response = self.client_for("editor").get(reverse("claim_list"), {"show": "all"}, HTTP_HX_REQUEST="true")
        self.assertNotContains(response, "<html")
        self.assertContains(response, "It was lit in 1862.")

    def test_the_claim_page_escapes_wiki_text_and_highlights_the_supporting_sentence(self):
        claim = self.claims["not_supported"]
        response = self.client_for("editor").get(reverse("claim_detail", args=[claim.pk]))
        self.assertNotContains(response, "<script>alert(1)</script>")
        self.assertContains(response, "&lt;script&gt;alert(1)&lt;/script&gt;")
        self.assertContains(response, "The &lt;i&gt;history&lt;/i&gt;")
        self.assertContains(response, "<mark>It is 31 m tall.</mark>", html=False)
        self.assertContains(response, "better than the current citation")

    def test_an_unknown_claim_is_a_404(self):
        self.assertEqual(self.client_for("editor").get(reverse("claim_detail", args=[999999])).status_code, 404)


class EvidencePartsTests(SimpleTestCase):
    def test_it_cuts_the_passage_around_the_supporting_sentences(self):
        parts = evidence_parts(evidence("It is 31 m tall."))
        self.assertEqual(parts, [("The tower was first lit in 1862 by the Trust. ", False), ("It is 31 m tall.", True)])

    def test_it_ignores_spans_outside_the_passage_and_empty_evidence(self):
        bad = evidence("It is 31 m tall.") | {"sentence_spans": [[0, 5], [10, 2000]]}
        self.assertEqual(evidence_parts(bad), [(bad["passage"], False)])
        self.assertEqual(evidence_parts(None), [])
