"""A page of fragments on the real MediaWiki, scanned and judged in-process
(`scan_article --sync --json`): the contract carries each built statement, and claims that
are not checkable on their own end with no verdict and no suggestion."""
from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command
from django.test import TransactionTestCase

from sideapp.models import Claim, Suggestion
from tests.wiki_support import NOWHERE, demo_wiki

FRAGMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "wikitext" / "fragments.wiki"
TITLE = "Kellhaven Lifeboat Station"


class ScanFragmentsTests(TransactionTestCase):
    def test_sync_json_carries_checked_statements_and_marks_claims_not_checkable(self):
        server = demo_wiki()
        server.edit(TITLE, FRAGMENTS.read_text(encoding="utf-8").replace("https://example.org/", NOWHERE))
        out = io.StringIO()
        call_command("scan_article", TITLE, wiki=server.api_url, sync=True, json=True, stdout=out)
        (report,) = [json.loads(line) for line in out.getvalue().splitlines()]
        claims = {c["text"]: c for c in report["claims"]}
        self.assertEqual(claims["Ada Quill"]["checked"], "The station's coxswains have included: Ada Quill")
        self.assertNotIn("checked", claims["Today, the station operates two all-weather lifeboats."])
        lone = claims["Reprinted in"]
        self.assertEqual((lone["checkable"], lone["verdict"], lone["flagged"], lone["suggestions"]),
                         (False, None, False, []))
        self.assertIn("not checkable on its own", lone["reason"])
        self.assertTrue(all(c["verdict"] for c in report["claims"] if c["checkable"]))
        stored = Claim.objects.get(text="Reprinted in")
        self.assertEqual((stored.verify_state, stored.needs_look), (Claim.State.DONE, False))
        self.assertFalse(Suggestion.objects.filter(claim=stored).exists())
