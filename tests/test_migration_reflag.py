"""Migration 0014_edits24_reflag: claims judged before it move to the new lists, and the
stored reasons of sources that could not be read become sentences."""
from __future__ import annotations

import importlib

from django.apps import apps
from django.test import TestCase

from harness.claims import ClaimRow, article_with_claims
from sideapp.models import Citation, Claim, ClaimCitation, Source

migration = importlib.import_module("sideapp.migrations.0014_edits24_reflag")
DNS = "cannot resolve host 'gone.example': [Errno -2] Name or service not known"


class ReflagMigrationTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        _, claims = article_with_claims("Old Mill", [
            ClaimRow("It burned down.", "not_supported", 0.1, cited_url="https://a.example/1"),
            ClaimRow("It had six floors.", "source_unavailable", None, cited_url="https://gone.example/2"),
            ClaimRow("It had a wheel.", "partially_supported", 0.5, cited_url="https://a.example/3"),
            ClaimRow("It was painted.", "", None, needs_citation=True),
            ClaimRow("It is listed.", "supported", 0.9, cited_url="https://a.example/5"),
        ])
        cls.burned, cls.floors, cls.wheel, cls.painted, cls.listed = claims
        # As the rule before issue 24 left them: the unreadable source flagged, its reason raw.
        Claim.objects.filter(pk=cls.floors.pk).update(flagged=True, needs_look=False,
                                                      verify_reason=f"dns_error ({DNS})")
        gone = Source.objects.create(url="https://gone.example/2", normalized_url="https://gone.example/2",
                                     status="dns_error", reason=DNS)
        Citation.objects.filter(url=gone.url).update(source=gone)
        ClaimCitation.objects.filter(claim=cls.floors).update(reason=f"dns_error ({DNS})")
        Claim.objects.filter(pk=cls.wheel.pk).update(flagged=True, needs_look=False)

    def migrate(self) -> None:
        migration.reflag(apps, None)
        migration.reword(apps, None)

    def state(self, claim) -> tuple[bool, bool]:
        claim.refresh_from_db()
        return claim.flagged, claim.needs_look

    def test_it_moves_judged_claims_to_the_lists_of_the_new_rule(self):
        self.migrate()
        self.assertEqual(self.state(self.burned), (True, False))
        self.assertEqual(self.state(self.floors), (False, False))
        self.assertEqual(self.state(self.wheel), (False, True))
        self.assertEqual(self.state(self.painted), (True, False))
        self.assertEqual(self.state(self.listed), (False, False))

    def test_it_writes_unreadable_reasons_as_sentences(self):
        self.migrate()
        link = ClaimCitation.objects.get(claim=self.floors)
        self.assertEqual(link.reason, "the site's address could not be found")
        self.floors.refresh_from_db()
        self.assertEqual(self.floors.verify_reason, "the site's address could not be found")

    def test_a_claim_still_waiting_for_its_verdict_is_left_alone(self):
        Claim.objects.filter(pk=self.burned.pk).update(verify_state=Claim.State.PENDING, flagged=False)
        self.migrate()
        self.assertEqual(self.state(self.burned), (False, False))
