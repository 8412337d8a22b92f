"""Claims checked as a built statement, and claims that are not checkable on their own:
what is stored, verified, suggested, shown and offered for each."""
from __future__ import annotations

from django.test import SimpleTestCase, TestCase
from django.urls import reverse

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.reports import revision_claims
from sideapp.claims.suggestions import claim_suggest
from sideapp.claims.verification import NOT_CHECKABLE, claim_verify
from sideapp.models import Citation, RevisionClaim
from tests.annotation_support import WIKI_TEXT, article, claim_with_suggestion, sources
from tests.users import CastMixin
from verifier_core.verification import Verdict
from verifier_core.verification.judgement.verdicts import HIGH, LOW

STATEMENT = "The lighthouse was first lit in 1862 by the Trust."


def cited_claim(art, revision, source, *, text: str, checked: str = "", checkable: bool = True, n: int = 0) -> Claim:
    claim = Claim.objects.create(article=art, fingerprint=f"k{n}", text=text, checked=checked, checkable=checkable,
                                 first_revision=revision, last_revision=revision, current=True,
                                 verify_state=Claim.State.QUEUED)
    RevisionClaim.objects.create(revision=revision, claim=claim, position=n)
    citation = Citation.objects.create(article=art, fingerprint=f"kc{n}", kind="ref", raw="<ref/>",
                                       url=source.url, source=source)
    ClaimCitation.objects.create(claim=claim, citation=citation)
    return claim


class FlagRuleTests(SimpleTestCase):
    def test_a_claim_that_is_not_checkable_is_neither_flagged_nor_needs_a_look(self):
        for verdict, needs_citation in ((Verdict.NOT_SUPPORTED, False), ("", True), (Verdict.SOURCE_UNAVAILABLE, False)):
            self.assertEqual(Claim.flag_rule(verdict=verdict, confidence=HIGH, needs_citation=needs_citation,
                                             checkable=False), (False, False))


    def test_a_figure_hint_puts_a_claim_in_needs_a_look_but_never_flags_it(self):
        for verdict in (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED):
            self.assertEqual(Claim.flag_rule(verdict=verdict, confidence=LOW, needs_citation=False, hint=True),
                             (False, True))
        self.assertEqual(Claim.flag_rule(verdict=Verdict.SUPPORTED, confidence=LOW, needs_citation=False), (False, False))


class VerifyAndSuggestTests(TestCase):
    def setUp(self):
        self.art, self.revision = article("Harbour")
        self.source, _ = sources()

    def test_it_stores_no_verdict_for_a_claim_that_is_not_checkable_and_says_why(self):
        claim = claim_verify(claim=cited_claim(self.art, self.revision, self.source, text="Today", checkable=False))
        self.assertEqual((claim.verify_state, claim.verdict, claim.score), (Claim.State.DONE, "", None))
        self.assertEqual((claim.flagged, claim.needs_look, claim.suggest_state), (False, False, ""))
        self.assertEqual(claim.verify_reason, NOT_CHECKABLE)
        self.assertEqual(list(claim.claim_citations.values_list("verdict", flat=True)), [""])

    def test_it_verifies_the_built_statement_not_the_cited_words(self):
        claim = claim_verify(claim=cited_claim(self.art, self.revision, self.source, text="Trust", checked=STATEMENT))
        self.assertIn(claim.verdict, {v.value for v in Verdict})
        self.assertTrue(claim.parts)
        for part in claim.parts:  # the claim's parts are cut from the statement it was checked as
            self.assertIn(part["text"].strip(" ,."), STATEMENT)
        evidence = claim.claim_citations.get().evidence
        self.assertIn(evidence["passage"], WIKI_TEXT)

    def test_it_suggests_nothing_for_a_claim_that_is_not_checkable(self):
        claim = claim_with_suggestion(n=1)
        Claim.objects.filter(pk=claim.pk).update(checkable=False)
        claim.refresh_from_db()
        claim = claim_suggest(claim=claim)
        self.assertFalse(Suggestion.objects.filter(claim=claim).exists())
        self.assertEqual(claim.suggest_state, Claim.State.DONE)
        self.assertIn("not checkable on its own", claim.suggest_reason)

    def test_the_json_report_carries_the_statement_only_where_it_differs(self):
        cited_claim(self.art, self.revision, self.source, text="Trust", checked=STATEMENT, n=1)
        cited_claim(self.art, self.revision, self.source, text=STATEMENT, n=2)
        cited_claim(self.art, self.revision, self.source, text="Today", checkable=False, n=3)
        rows = {row["text"]: row for row in revision_claims(self.revision)}
        self.assertEqual((rows["Trust"]["checked"], rows["Trust"]["checkable"]), (STATEMENT, True))
        self.assertNotIn("checked", rows[STATEMENT])
        self.assertIs(rows["Today"]["checkable"], False)


class ClaimPageTests(CastMixin, TestCase):
    def setUp(self):
        super().setUp()
        self.built = claim_with_suggestion(n=2)
        Claim.objects.filter(pk=self.built.pk).update(text="Trust", checked=STATEMENT)
        self.lone = claim_with_suggestion(n=3)
        Claim.objects.filter(pk=self.lone.pk).update(text="Reprinted in", checkable=False, flagged=False,
                                                     verdict="", verify_reason=NOT_CHECKABLE)

    def test_the_claim_page_shows_the_statement_it_was_checked_as(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.built.pk])).content.decode()
        self.assertIn("checked as:", page)
        self.assertIn(STATEMENT, page)
        self.assertIn("Act on the wiki", page)

    def test_a_claim_that_is_not_checkable_offers_no_action(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.lone.pk])).content.decode()
        self.assertIn("not checkable on its own", page)
        for action in ("Act on the wiki", "Add as an additional citation", "Replace the failing citation",
                       "Dismiss the flag", reverse("claim_tag", args=[self.lone.pk])):
            self.assertNotIn(action, page)

    def test_no_edit_is_built_for_a_claim_that_is_not_checkable(self):
        spk = self.lone.suggestions.get().pk
        editor = self.client_for("editor")
        for url in (reverse("claim_tag", args=[self.lone.pk]),
                    reverse("suggestion_apply", args=[self.lone.pk, spk]) + "?mode=add"):
            response = editor.get(url)
            self.assertEqual(response.status_code, 409)
            self.assertIn("not checkable on its own", response.content.decode())

    def test_the_claims_list_has_its_own_filter_for_claims_that_are_not_checkable(self):
        editor = self.client_for("editor")
        own = editor.get(reverse("claim_list"), {"show": "uncheckable"})
        self.assertEqual(list(own.context["page"]), [Claim.objects.get(pk=self.lone.pk)])
        self.assertContains(own, "not checkable on its own")
        flagged = editor.get(reverse("claim_list"))
        self.assertNotIn(self.lone.pk, [c.pk for c in flagged.context["page"]])
