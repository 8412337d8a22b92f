"""The suggest stage searches an article's waiting claims together: jobs of up to
SUGGEST_BATCH claims of one article, each claim in one job, the same suggestions as each
claim searched alone, and recovery sees every claim of a waiting job as alive."""
from __future__ import annotations

import hashlib
import tempfile

import django_rq
from django.test import TestCase, override_settings
from django.utils import timezone

from sideapp.claims.suggestions import claim_suggest, claims_suggest
from sideapp.claims.verification import verifier
from sideapp.models import Article, Claim, Revision, Source, SourceDocument, Suggestion, Wiki
from sideapp.pipeline import recovery, stages
from sideapp.pipeline.names import Queue
from tests.test_pipeline_queue_order import EmptyQueue, queued_jobs
from tests.verification_support import shared_checkpoint
from verifier_core.verification.model.cache import ScoreCache

PAGES = {
    "lighthouse": "The Kellhaven lighthouse was first lit in 1871. Its lamp was converted to electricity in 1936, "
                  "and the last keeper left the station when it was automated in 1988.",
    "rowing": "The Kellhaven Rowing Club races on the River Arle each May. It was founded in 1902 by ferrymen.",
    "railway": "The Arle Valley Railway opened in 1868 and closed to passengers in 1962. Its viaduct still stands.",
    "otters": "Otters returned to the River Arle in the 1990s, after the water was cleaned up.",
}
CLAIMS = ["The lighthouse was automated in 1988.", "The rowing club was founded in 1902.",
          "The railway closed to passengers in 1962.", "Otters came back to the river in the 1990s."]


def article_with_claims(title: str, texts: list[str], state: str = Claim.State.PENDING) -> list[Claim]:
    wiki, _ = Wiki.objects.get_or_create(api_url="http://127.0.0.1:1/api.php")
    article = Article.objects.create(wiki=wiki, title=title)
    revision = Revision.objects.create(article=article, rev_id=1, wikitext=" ".join(texts))
    return [Claim.objects.create(article=article, fingerprint=f"f{n}", text=text, first_revision=revision,
                                 last_revision=revision, flagged=True, verify_state=Claim.State.DONE,
                                 suggest_state=state, score=0.0, verdict="not_supported")
            for n, text in enumerate(texts)]


class SuggestDispatchTests(EmptyQueue, TestCase):
    def test_an_article_s_waiting_claims_go_in_jobs_of_up_to_suggest_batch_each_claim_in_one(self):
        many = article_with_claims("Kellhaven", [f"Claim number {n} of the article." for n in range(stages.SUGGEST_BATCH + 2)])
        few = article_with_claims("River Arle", ["One claim.", "Another claim."])
        with self.captureOnCommitCallbacks(execute=True):
            queued = stages.suggestions_dispatch(claim_ids=[c.pk for c in many + few])
        self.assertEqual(queued, len(many) + len(few))
        first, rest = [c.pk for c in many[:stages.SUGGEST_BATCH]], [c.pk for c in many[stages.SUGGEST_BATCH:]]
        self.assertCountEqual(queued_jobs(), [f"suggest_job{tuple(first)}", f"suggest_job{tuple(rest)}",
                                              f"suggest_job{tuple(c.pk for c in few)}"])
        self.assertEqual(set(Claim.objects.values_list("suggest_state", flat=True)), {Claim.State.QUEUED})

    def test_recovery_counts_every_claim_of_a_waiting_job_as_alive(self):
        claims = article_with_claims("Kellhaven", ["One claim.", "Another claim.", "A third claim."])
        with self.captureOnCommitCallbacks(execute=True):
            stages.suggestions_dispatch(claim_ids=[c.pk for c in claims])
        func = f"{stages.suggest_job.__module__}.{stages.suggest_job.__qualname__}"
        alive = recovery.rq_traces().alive
        self.assertTrue(all((func, c.pk) in alive for c in claims))
        self.assertEqual(len(django_rq.get_queue(Queue.VERIFY).get_jobs()), 1)

    def test_a_job_takes_the_article_s_claims_whose_own_jobs_still_wait_and_no_others(self):
        kellhaven = article_with_claims("Kellhaven", [f"Claim number {n} of the article." for n in range(stages.SUGGEST_BATCH + 1)])
        arle = article_with_claims("River Arle", ["One claim."])
        for claim in kellhaven + arle:  # verdicts come one by one: so do their searches' jobs
            with self.captureOnCommitCallbacks(execute=True):
                stages.suggestions_dispatch(claim_ids=[claim.pk])
        taken = stages._suggest_claims(kellhaven[0].pk)
        self.assertEqual([c.pk for c in taken], [c.pk for c in kellhaven[:stages.SUGGEST_BATCH]])
        self.assertEqual(queued_jobs(), [f"suggest_job({kellhaven[-1].pk},)", f"suggest_job({arle[0].pk},)"])

    def test_a_job_whose_claims_were_searched_already_does_nothing(self):
        claims = article_with_claims("Kellhaven", ["One claim.", "Another claim."], state=Claim.State.DONE)
        self.assertIsNone(stages._suggest_claims(*[c.pk for c in claims]))
        Claim.objects.filter(pk=claims[1].pk).update(suggest_state=Claim.State.QUEUED)
        self.assertEqual(stages._suggest_claims(*[c.pk for c in claims]), [claims[1]])


class SearchedTogetherTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.index = tempfile.TemporaryDirectory(prefix="side-test-sugg-")
        cls.settings_override = override_settings(SIDE_INDEX_DIR=cls.index.name,
                                                  SIDE_VERIFIER_DIR=str(shared_checkpoint()))
        cls.settings_override.enable()
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.settings_override.disable()
        cls.index.cleanup()

    def setUp(self):
        for name, text in PAGES.items():
            url = f"https://kellhaven.example/{name}"
            source = Source.objects.create(url=url, normalized_url=url, status=Source.Status.OK, title=name,
                                           fetched_at=timezone.now())
            SourceDocument.objects.create(source=source, title=name, text=text, fetched_at=timezone.now(),
                                          sha256=hashlib.sha256(text.encode()).hexdigest())
        self.claims = article_with_claims("Kellhaven", CLAIMS, state=Claim.State.QUEUED)
        shared = verifier()
        kept = shared.cache
        self.addCleanup(setattr, shared, "cache", kept)

    def stored(self, claim: Claim) -> list[tuple]:
        return [(s.rank, s.url, s.verdict, s.beats_current, s.evidence, s.score)
                for s in Suggestion.objects.filter(claim=claim).order_by("rank")]

    def test_claims_searched_together_get_the_suggestions_each_gets_alone(self):
        verifier().cache = ScoreCache()  # every pair read by the model, not served from an earlier run
        for claim in self.claims:
            claim_suggest(claim=claim)
        alone = [self.stored(claim) for claim in self.claims]
        verifier().cache = ScoreCache()
        done = claims_suggest(claims=[Claim.objects.get(pk=c.pk) for c in self.claims])
        self.assertEqual([c.suggest_state for c in done], [Claim.State.DONE] * len(self.claims))
        together = [self.stored(claim) for claim in self.claims]
        self.assertTrue(any(alone))
        for want, got in zip(alone, together):
            self.assertEqual([row[:-1] for row in got], [row[:-1] for row in want])
            for (*_, score_got), (*_, score_want) in zip(got, want):
                self.assertAlmostEqual(score_got, score_want, places=5)
