"""Issue 41's trial on the demo itself: the demo's fish-market pages carry wiki markup in
their titles and site names (fixtures/sources/manifest.json), and the whole pipeline (real
workers, the shipped verifier, the real sources server and MediaWiki) flags the claims of
*Kellhaven Fish Market* and suggests those pages. Added and put in place through the app,
only their words reach the article, as the wiki's own parser reads it; the market hall's
figure, after a sentence that ends in `.{{sfn|...}}` and gives another length, is corrected
in its own sentence; and every save in the audit log is the revision the wiki holds, with
the save's marker in its summary."""
from __future__ import annotations

import html
import re
import uuid

from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from harness.demo import DEMO_CATEGORY, SOURCES_DIR, WIKI_DIR, read_wiki_file
from sideapp.edits.models import AuditEntry
from sideapp.edits.saving import marker
from sideapp.models import Claim
from tests.pipeline_support import SharedPipelineTestCase
from tests.users import PASSWORD, cast
from tests.wiki_parse_support import added, parsed, removed, words
from tests.wiki_support import BOT

SOUTH_QUAY = "South Quay, Kellhaven"
ROOF = "Its roof was restored in 1998"
AUCTION = "The Saturday auction begins"
HALL = "The market hall on South Quay is 64 metres long."
SFN_SENTENCE = "The old fish hall on North Quay was 30 metres long.{{sfn|Pascoe|1990|p=12}}"


def hostile(page: str) -> tuple[str, str]:
    """(title, site name) of a demo page, as its own HTML gives them."""
    head = (SOURCES_DIR / "pages" / page).read_text(encoding="utf-8")
    meta = {name: html.unescape(value) for name, value in re.findall(r'property="og:(\w+)" content="([^"]*)"', head)}
    return meta["title"], meta["site_name"]


class DemoPagesWithMarkupTests(SharedPipelineTestCase):
    @classmethod
    def setUpPipeline(cls) -> None:
        # Each run edits its own copy of the market's article, so the shared demo wiki keeps
        # the article as the demo ships it (the copy stays out of the demo's category, which
        # other tests count); South Quay (unedited) puts the pages with markup into the corpus.
        _, text = read_wiki_file(WIKI_DIR / "Kellhaven_Fish_Market.wiki", cls.base)
        text = text.replace(f"[[Category:{DEMO_CATEGORY}]]", "")
        cls.title = f"Kellhaven Fish Market {uuid.uuid4().hex[:8]}"
        cls.wiki.edit(cls.title, text)
        cls.job = cls.scan([SOUTH_QUAY, cls.title])
        cls.run_workers()

    def setUp(self):
        users = cast()
        self.editor = users["editor"]
        self.client = Client()
        self.client.login(username=self.editor.username, password=PASSWORD)
        bot_user, bot_password = self.wiki.bot_password(*BOT)
        settings = override_settings(SIDE_WIKI_API_URL=self.wiki.api_url, SIDE_WIKI_USERNAME=bot_user,
                                     SIDE_WIKI_PASSWORD=bot_password, SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)
        settings.enable()
        self.addCleanup(settings.disable)

    def tearDown(self):
        get_user_model().objects.all().delete()  # the tables outlive each test: cast() again next one

    def claim(self, start: str) -> Claim:
        return Claim.objects.get(article__title=self.title, text__startswith=start)

    def wiki_text(self) -> str:
        return self.wiki.admin_site.pages[self.title].text(cache=False)

    def save(self, url: str, **params) -> str:
        self.before = parsed(self.wiki, self.wiki_text())
        preview = self.client.get(url, params)
        self.assertEqual(preview.status_code, 200, preview.content[-1500:])
        saved = self.client.post(url, {**params, "confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-1500:])
        return self.wiki_text()

    def suggestion_of(self, claim: Claim, page: str):
        found = claim.suggestions.filter(url__endswith=f"/pages/{page}").first()
        self.assertIsNotNone(found, [(s.url, s.verdict) for s in claim.suggestions.all()] or claim.suggest_reason)
        self.assertEqual(found.verdict, "supported")
        return found

    def assert_only_words_reached_the_article(self, text: str, page: str, *, gone: str = "") -> None:
        """Only `page`'s address is new on the page; what went is a replaced page's link or
        what the wikitext `gone` (a tag the edit removes) brings."""
        after = parsed(self.wiki, text)
        new = added(self.before, after)
        self.assertEqual({link.rsplit("/", 1)[-1] for link in new.pop("externallinks", set())}, {page})
        self.assertEqual(new, {})  # no category, link, file, template, property or heading
        brought = parsed(self.wiki, gone) if gone else {}
        for kind, values in removed(self.before, after).items():
            if kind != "externallinks":
                self.assertLessEqual(values, brought.get(kind, set()), kind)
        self.assertEqual(after["psttext"].rstrip(), text.rstrip())  # no signature, no subst:
        for value in hostile(page):
            self.assertIn(words(value), after["text"])

    def assert_the_audit_says_what_the_wiki_holds(self) -> None:
        entry = AuditEntry.objects.filter(claim__article__title=self.title).first()
        self.assertEqual(entry.status, AuditEntry.Status.SAVED, entry.outcome)
        latest = next(self.wiki.admin_site.pages[self.title].revisions(prop="ids|comment", limit=1))
        self.assertEqual(entry.revision_id, latest["revid"])
        self.assertIn(marker(entry.token), latest["comment"])

    def test_the_demo_flags_the_markets_claims_and_suggests_the_pages_with_markup(self):
        self.assertEqual(self.claim(HALL[:20]).verdict, "not_supported")
        self.assertEqual(self.claim(ROOF).verdict, "not_supported")
        self.assertTrue(self.claim(AUCTION).needs_citation)
        for start in (ROOF, AUCTION):
            self.assertTrue(self.claim(start).flagged, start)
        self.suggestion_of(self.claim(ROOF), "kfm-market-history.html")
        self.suggestion_of(self.claim(AUCTION), "kfm-auction.html")

    def test_a_page_with_markup_added_to_a_claim_needing_a_source_reaches_the_article_as_its_words(self):
        claim = self.claim(AUCTION)
        suggestion = self.suggestion_of(claim, "kfm-auction.html")
        text = self.save(reverse("suggestion_apply", args=[claim.pk, suggestion.pk]), mode="add")
        self.assert_only_words_reached_the_article(text, "kfm-auction.html", gone="{{citation needed|date=April 2024}}")
        self.assertNotIn("{{citation needed", text)
        self.assert_the_audit_says_what_the_wiki_holds()

    def test_a_page_with_markup_put_in_place_of_the_failing_citation_reaches_the_article_as_its_words(self):
        claim = self.claim(ROOF)
        suggestion = self.suggestion_of(claim, "kfm-market-history.html")
        text = self.save(reverse("suggestion_apply", args=[claim.pk, suggestion.pk]), mode="replace")
        self.assert_only_words_reached_the_article(text, "kfm-market-history.html")
        self.assert_the_audit_says_what_the_wiki_holds()

    def test_the_halls_length_after_an_sfn_sentence_is_corrected_in_its_own_sentence(self):
        claim = self.claim(HALL[:20])
        text = self.save(reverse("claim_correct", args=[claim.pk]))
        self.assertIn(SFN_SENTENCE + " The market hall on South Quay is 46 metres long.", text)
        self.assertEqual(text.count("30 metres"), 1)
        self.assert_the_audit_says_what_the_wiki_holds()
