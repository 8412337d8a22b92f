"""Migration 0022_truth31_needs_look: claims called supported leave "Needs a look"; partial
support and unsure failures stay in it."""
from __future__ import annotations

import importlib

from django.apps import apps
from django.test import TestCase

from harness.claims import ClaimRow, article_with_claims
from sideapp.models import Claim

migration = importlib.import_module("sideapp.migrations.0022_truth31_needs_look")


class NeedsLookMigrationTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        _, claims = article_with_claims("Old Mill", [
            ClaimRow("It is listed.", "supported", 0.8, cited_url="https://a.example/1"),
            ClaimRow("It had a wheel.", "partially_supported", 0.5, cited_url="https://a.example/2"),
            ClaimRow("It burned down.", "not_supported", 0.1, cited_url="https://a.example/3"),
        ])
        cls.listed, cls.wheel, cls.burned = claims
        # As the rule before issue 31 left them: a supported claim of low confidence needs a look.
        Claim.objects.filter(pk__in=[cls.listed.pk, cls.wheel.pk]).update(needs_look=True, confidence="low")
        Claim.objects.filter(pk=cls.burned.pk).update(needs_look=False, flagged=True, confidence="high")

    def state(self, claim) -> tuple[bool, bool]:
        claim.refresh_from_db()
        return claim.flagged, claim.needs_look

    def test_supported_claims_leave_the_triage_queue_and_the_others_keep_their_lists(self):
        migration.quiet_supported(apps, None)
        self.assertEqual(self.state(self.listed), (False, False))
        self.assertEqual(self.state(self.wheel), (False, True))
        self.assertEqual(self.state(self.burned), (True, False))
