"""Claims tagged {{failed verification}} on the wiki: out of the flagged list (the tag is done),
but searched for better sources all the same, whatever the verifier makes of the cited page:
the "Tagged" list is where an editor comes looking for one."""
from __future__ import annotations

from django.test import SimpleTestCase, TestCase

from sideapp.claims.models import Claim
from sideapp.claims.verification import claim_verify
from tests.annotation_support import _source, article
from sideapp.models import Citation, ClaimCitation, RevisionClaim
from tests.test_claims_cited_verdicts import CLAIM, OTTERS, SAYS_IT
from verifier_core.verification import Verdict


def claim_citing(art, revision, source, *, n: int, tagged: bool) -> Claim:
    claim = Claim.objects.create(article=art, fingerprint=f"tagged-{n}", text=CLAIM, first_revision=revision,
                                 last_revision=revision, current=True, verify_state=Claim.State.QUEUED,
                                 tagged_revision=7 if tagged else None)
    RevisionClaim.objects.create(revision=revision, claim=claim, position=n)
    citation = Citation.objects.create(article=art, fingerprint=f"tagged-c{n}", kind="ref", raw="<ref/>",
                                       url=source.url, title=source.title, source=source)
    ClaimCitation.objects.create(claim=claim, citation=citation)
    return claim


class WantsSuggestionsTests(SimpleTestCase):
    def test_a_claim_tagged_on_the_wiki_wants_suggestions_whatever_its_verdict_unless_not_checkable(self):
        for verdict in (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.NOT_SUPPORTED, ""):
            self.assertTrue(Claim.wants_suggestions(verdict=verdict, flagged=False, needs_look=False, tagged=True))
            self.assertFalse(Claim.wants_suggestions(verdict=verdict, flagged=False, needs_look=False, tagged=True,
                                                     checkable=False))
        self.assertFalse(Claim.wants_suggestions(verdict=Verdict.SUPPORTED, flagged=False, needs_look=False))


class VerifiedTaggedClaimTests(TestCase):
    """The real verifier on claims whose citation carries the tag on the wiki."""

    @classmethod
    def setUpTestData(cls):
        art, revision = article("Kellhaven Lighthouse")
        otters = _source("https://example.org/otters", OTTERS, "Otters on the Arle")
        light = _source("https://example.org/light", SAYS_IT, "Gull Point light marks 150 years")
        cls.failing = claim_citing(art, revision, otters, n=0, tagged=True)
        cls.holding = claim_citing(art, revision, light, n=1, tagged=True)
        cls.untagged = claim_citing(art, revision, light, n=2, tagged=False)
        for claim in (cls.failing, cls.holding, cls.untagged):
            claim_verify(claim=claim)
            claim.refresh_from_db()

    def test_a_tagged_claim_leaves_the_flagged_list_but_waits_for_its_suggestion_search(self):
        self.assertEqual(self.failing.verdict, Verdict.NOT_SUPPORTED)
        self.assertEqual((self.failing.flagged, self.failing.needs_look), (False, False))
        self.assertEqual(self.failing.suggest_state, Claim.State.PENDING)

    def test_a_tagged_claim_its_page_supports_is_searched_too_and_an_untagged_one_is_not(self):
        self.assertEqual(self.holding.verdict, self.untagged.verdict)
        self.assertEqual(self.holding.verdict, Verdict.SUPPORTED)
        self.assertEqual(self.holding.suggest_state, Claim.State.PENDING)
        self.assertEqual(self.untagged.suggest_state, "")


class TaggedSuggestionsMigrationTests(TestCase):
    """Migration 0026: tagged claims checked before it wait for their suggestion search."""

    def test_tagged_checked_claims_never_searched_wait_for_the_search_and_others_are_left_alone(self):
        import importlib

        from django.apps import apps

        migration = importlib.import_module("sideapp.migrations.0029_trial_tagged_suggestions")
        art, revision = article("Kellhaven Lighthouse")
        light = _source("https://example.org/light", SAYS_IT, "Gull Point light marks 150 years")
        tagged, untagged, searched, waiting = (claim_citing(art, revision, light, n=n, tagged=n != 1) for n in range(4))
        Claim.objects.filter(pk__in=[tagged.pk, untagged.pk, searched.pk]).update(verify_state="done")
        Claim.objects.filter(pk=searched.pk).update(suggest_state="done")
        migration.tagged_wait_for_suggestions(apps, None)
        states = dict(Claim.objects.values_list("pk", "suggest_state"))
        self.assertEqual([states[c.pk] for c in (tagged, untagged, searched, waiting)], ["pending", "", "done", ""])
