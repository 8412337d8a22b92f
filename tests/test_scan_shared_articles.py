"""Every real article of ../shared/data/wikitext, loaded into the test wiki and scanned
through the same path a user's scan takes (mwclient -> extractor -> PostgreSQL)."""
from __future__ import annotations

import re

from django.test import TestCase

from harness.mediawiki import shared_test_wiki
from sideapp.models import Claim, ScanItem
from tests.test_wikitext_articles import GARBAGE, expected_occurrences
from tests.wiki_support import SHARED_WIKITEXT, item, scan_titles
from verifier_core.wikitext import extract, redirect_target


def title_of(stem: str) -> str:
    """File names use '-' or '_' for spaces ("Clint-Murchison-Sr..wiki")."""
    return "Shared " + re.sub(r"[-_]", " ", stem)


class SharedArticleScanTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.files = sorted(SHARED_WIKITEXT.glob("*.wiki"))
        if not cls.files:
            return
        cls.server = shared_test_wiki()
        cls.pages = {title_of(p.stem): p.read_text(encoding="utf-8") for p in cls.files}
        cls.server.load_pages(cls.pages, summary="Side tests: shared article")

    def setUp(self):
        if not self.files:
            self.skipTest(f"{SHARED_WIKITEXT} is not present: the shared articles are not "
                          "part of the repository, so these tests need ../shared beside it")

    def test_every_shared_article_scans_with_every_citation_and_clean_claims(self):
        job = scan_titles(self.server, *[t for t, text in self.pages.items() if not redirect_target(text)])
        for title, text in self.pages.items():
            if redirect_target(text):
                continue
            with self.subTest(article=title):
                scanned = item(job, title)
                self.assertEqual(scanned.status, ScanItem.Status.DONE, scanned.reason)
                revision = scanned.revision
                self.assertEqual(revision.citation_occurrences, expected_occurrences(revision.wikitext))
                plain = extract(revision.wikitext, title).plain_text
                for claim in Claim.objects.filter(revision_claims__revision=revision):
                    self.assertIn(claim.text, plain)
                    self.assertFalse([g for g in GARBAGE if g in claim.text], claim.text)

    def test_the_redirect_page_is_followed_to_its_target(self):
        redirects = {t: redirect_target(x) for t, x in self.pages.items() if redirect_target(x)}
        self.assertTrue(redirects)
        job = scan_titles(self.server, *redirects)
        for title, target in redirects.items():
            scanned = item(job, title)
            # The target is a real article that is not in the test wiki: a missing page.
            self.assertEqual(scanned.status, ScanItem.Status.FAILED)
            self.assertIn(f"redirects to {target!r}, which does not exist", scanned.reason)
            self.assertIsNone(scanned.revision)
