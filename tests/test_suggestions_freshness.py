"""Suggested pages must still answer: one read longer ago than SIDE_SUGGESTION_MAX_AGE_DAYS
is read again before it is offered, and one that has died (the real fixture server
starts answering 404) is never offered and leaves every claim's suggestions."""
from __future__ import annotations

from datetime import timedelta

from django.test import TestCase, override_settings
from django.urls import reverse
from django.utils import timezone

from harness.demo import SOURCES_DIR
from harness.webserver import SourceServer
from sideapp.claims.suggestions import _answering
from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Source, Suggestion, Wiki
from sideapp.sources.services import source_fetch
from tests.edits_support import as_scanned
from tests.users import CastMixin
from verifier_core.fetch import normalise_url
from verifier_core.verification import SourceVerdict

PAGE = "avg-arle-wave.html"
OTHER = "awt-otters.html"
BOOK = "{{cite book |title=The Arle |isbn=978-0-00-000000-1}}"
WIKITEXT = f"The Arle Wave draws surfers every spring.<ref>{BOOK}</ref> Otters live on the river.<ref>{BOOK}</ref>\n"


@override_settings(SIDE_FETCH_ALLOWLIST=["127.0.0.1"], SIDE_FETCH_HOST_DELAY=0, SIDE_FETCH_RETRIES=0,
                   SIDE_FETCH_READ_TIMEOUT=2, SIDE_SUGGESTION_MAX_AGE_DAYS=30)
class StaleSuggestionTests(CastMixin, TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = SourceServer(SOURCES_DIR)
        cls.server.start()
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.server.stop()

    @classmethod
    def setUpTestData(cls):
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php")
        article = Article.objects.create(wiki=wiki, title="River Arle")
        revision = Revision.objects.create(article=article, rev_id=5, wikitext=WIKITEXT)
        article.current_revision = revision
        article.save()
        cls.wave = cls.page(PAGE, days_ago=40)
        cls.otters = cls.page(OTHER, days_ago=2)
        citation = Citation.objects.create(article=article, fingerprint="book", kind="ref", raw=BOOK)
        cls.claims = []
        for position, text in enumerate(["The Arle Wave draws surfers every spring.", "Otters live on the river."]):
            claim = Claim.objects.create(article=article, fingerprint=f"c{position}", text=text,
                                         first_revision=revision, last_revision=revision, current=True,
                                         verdict="source_unavailable", confidence="high", verify_state="done")
            RevisionClaim.objects.create(revision=revision, claim=claim, position=position)
            ClaimCitation.objects.create(claim=claim, citation=citation, verdict="source_unavailable",
                                         confidence="high")
            for rank, source in enumerate((cls.wave, cls.otters), start=1):
                text = source.document.text
                Suggestion.objects.create(claim=claim, rank=rank, url=source.url, title=source.title, source=source,
                                          score=0.8, verdict="supported", beats_current=True,
                                          evidence={"passage": text[:120], "start": 0, "end": 120})
            cls.claims.append(claim)
        as_scanned(revision)  # the fingerprints a scan gives them: an edit finds its claim by them

    @classmethod
    def page(cls, name: str, *, days_ago: float) -> Source:
        """A page of the fixture server, really fetched, then aged by `days_ago`."""
        url = cls.server.url(f"/pages/{name}")
        source = Source.objects.create(url=url, normalized_url=normalise_url(url))
        source_fetch(source=source)
        Source.objects.filter(pk=source.pk).update(fetched_at=timezone.now() - timedelta(days=days_ago))
        return Source.objects.select_related("document").get(pk=source.pk)

    def setUp(self):
        super().setUp()
        self.server.bring_back(PAGE)
        self.server.reset_counts()

    def preview(self, suggestion_url: str, claim: Claim | None = None):
        claim = claim or self.claims[0]
        suggestion = claim.suggestions.get(url=suggestion_url)
        return self.client_for("editor").get(reverse("suggestion_apply", args=[claim.pk, suggestion.pk]),
                                             {"mode": "add"})

    def test_the_claim_page_says_a_stale_page_is_read_again_before_it_is_offered(self):
        page = self.client_for("editor").get(reverse("claim_detail", args=[self.claims[0].pk]))
        self.assertContains(page, "The suggested page was last read 40 days ago; it is read again before it is offered.")
        self.assertEqual(self.server.hits(f"/pages/{PAGE}"), 0)  # the page itself reads nothing

    def test_a_stale_page_is_read_again_before_its_change_is_shown(self):
        response = self.preview(self.wave.url)
        self.assertEqual(response.status_code, 200, response.content[-1500:])
        self.assertContains(response, self.wave.url)
        self.assertEqual(self.server.hits(f"/pages/{PAGE}"), 1)
        self.assertLess(timezone.now() - Source.objects.get(pk=self.wave.pk).fetched_at, timedelta(minutes=1))

    def test_a_fresh_page_is_not_read_again(self):
        self.assertEqual(self.preview(self.otters.url).status_code, 200)
        self.assertEqual(self.server.hits(f"/pages/{OTHER}"), 0)

    def test_a_page_that_died_is_refused_and_leaves_every_claims_suggestions(self):
        self.server.take_down(PAGE)
        response = self.preview(self.wave.url)
        self.assertContains(response, "no longer answers", status_code=409)
        self.assertEqual(Source.objects.get(pk=self.wave.pk).http_status, 404)
        self.assertFalse(Suggestion.objects.filter(source=self.wave).exists())
        self.assertEqual(Suggestion.objects.filter(source=self.otters).count(), 2)
        other = self.client_for("editor").get(reverse("claim_detail", args=[self.claims[1].pk]))
        self.assertNotContains(other, self.wave.url)

    def test_the_suggestion_search_reads_stale_pages_again_and_passes_dead_ones_over(self):
        self.server.take_down(PAGE)
        Source.objects.filter(pk=self.otters.pk).update(fetched_at=timezone.now() - timedelta(days=45))
        otters = Source.objects.select_related("document").get(pk=self.otters.pk)
        verdict = SourceVerdict(score=0.8, verdict="supported", method="test", model_version="test")
        kept = _answering([(0, verdict), (1, verdict)], [(self.wave, self.wave.document), (otters, otters.document)])
        self.assertEqual([source.pk for source, _, _ in kept], [self.otters.pk])
        self.assertEqual((self.server.hits(f"/pages/{PAGE}"), self.server.hits(f"/pages/{OTHER}")), (1, 1))
