"""Making items, handing them out and taking votes (single connection; see
test_annotation_concurrency for the races)."""
from __future__ import annotations

import json
import random
import tempfile
from datetime import timedelta
from io import StringIO
from pathlib import Path
from unittest import mock

from django.core.management import call_command
from django.test import TestCase, override_settings
from django.utils import timezone

from sideapp.annotation import items, services
from sideapp.annotation.models import Assignment, Item, Kind, Vote, VoteRevision
from sideapp.annotation.results import results
from sideapp.annotation.selectors import export_rows
from sideapp.annotation.services import ScreenAnswer, VoteError
from tests import annotation_support as support
from tests.users import make_user

A_BETTER = ScreenAnswer("a", "enough", "partial")


def answer_for(assignment: Assignment, preference: str) -> ScreenAnswer:
    """The screen answer that means `preference` (wiki / suggested) for this assignment."""
    letter = "a" if (preference == "wiki") == assignment.wiki_left else "b"
    return ScreenAnswer(letter, "partial", "partial")


@override_settings(SIDE_ANNOTATION_PASSAGE_RATE=0.0)
class ItemCreationTests(TestCase):
    def test_an_item_is_made_once_per_claim_and_source_pair(self):
        claim = support.claim_with_suggestion()
        first = items.item_create(claim=claim)
        again = items.item_create(claim=claim)
        self.assertEqual(first.pk, again.pk)
        self.assertEqual(Item.objects.count(), 1)
        self.assertEqual(first.wiki_score, 0.2)
        self.assertIn("first lit in 1862", first.wiki_evidence["passage"])

    def test_a_suggestion_that_does_not_outscore_the_citation_makes_no_study_item(self):
        claim = support.claim_with_suggestion(wiki_score=0.9, suggested_score=0.5)
        self.assertIsNone(items.item_create(claim=claim))
        self.assertIsNotNone(items.item_create(claim=claim, better_only=False))

    @override_settings(SIDE_ANNOTATION_PASSAGE_RATE=1.0)
    def test_passage_controls_show_the_same_source_without_a_highlight(self):
        claim = support.claim_with_suggestion()
        items.item_create(claim=claim)
        control = Item.objects.get(kind=Kind.PASSAGE)
        self.assertEqual(control.wiki_source_id, control.suggested_source_id)
        self.assertEqual(control.suggested_evidence["sentence_spans"], [])
        self.assertNotEqual(control.wiki_evidence["passage"], control.suggested_evidence["passage"])

    def test_the_end_of_a_scan_makes_items_for_claims_whose_suggestion_is_better(self):
        better = support.claim_with_suggestion(n=1)
        worse = support.claim_with_suggestion(n=2, wiki_score=0.9, suggested_score=0.4)
        made = items.items_for_scan(claim_ids=[better.pk, worse.pk])
        self.assertEqual([i.claim_id for i in made], [better.pk])
        with override_settings(SIDE_ANNOTATION_AUTO_ITEMS="off"):
            self.assertEqual(items.items_for_scan(claim_ids=[better.pk]), [])

    def test_a_scan_job_that_ends_has_made_its_items(self):
        from sideapp.models import ScanItem, ScanJob
        from sideapp.pipeline.stages import scan_job_refresh

        claim = support.claim_with_suggestion(n=5)
        revision = claim.last_revision
        job = ScanJob.objects.create(wiki=claim.article.wiki, kind=ScanJob.Kind.TITLES, status=ScanJob.Status.RUNNING)
        ScanItem.objects.create(job=job, title=claim.article.title, status=ScanItem.Status.DONE,
                                article=claim.article, revision=revision)
        scan_job_refresh(job=job)
        job.refresh_from_db()
        self.assertEqual(job.status, ScanJob.Status.DONE)
        self.assertEqual(list(Item.objects.values_list("claim_id", flat=True)), [claim.pk])

    def test_a_failure_to_make_items_never_keeps_a_scan_from_ending(self):
        claim = support.claim_with_suggestion(n=6)
        with mock.patch("sideapp.annotation.items.items_create", side_effect=RuntimeError("boom")), \
                self.assertLogs("sideapp.annotation.items", "ERROR"):
            self.assertEqual(items.items_for_scan(claim_ids=[claim.pk]), [])

    def test_the_command_makes_items_and_honours_the_limit(self):
        for n in range(3):
            support.claim_with_suggestion(n=n, wiki_score=0.9, suggested_score=0.5)
        out = StringIO()
        call_command("create_annotation_items", stdout=out)
        self.assertEqual(Item.objects.count(), 0)
        call_command("create_annotation_items", "--from-suggestions", "--limit", "2", stdout=out)
        self.assertEqual(Item.objects.count(), 2)

    def test_gold_answers_are_set_by_admins(self):
        item = items.item_create(claim=support.claim_with_suggestion())
        gold = items.item_gold_set(item=item, preference="suggested")
        self.assertEqual((gold.kind, gold.gold_preference), ("gold", "suggested"))
        with self.assertRaises(ValueError):
            items.item_gold_set(item=item, preference="skip")


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=2, SIDE_ANNOTATION_GOLD_RATE=0.0)
class AssignmentTests(TestCase):
    def setUp(self):
        self.items = support.bulk_items(3)
        self.people = [make_user(f"ann{n}", "annotator") for n in range(5)]

    def test_the_next_item_has_the_fewest_votes_and_was_not_seen(self):
        first = services.assignment_next(annotator=self.people[0])
        services.vote_cast(annotator=self.people[0], item_id=first.item_id, answer=A_BETTER)
        second = services.assignment_next(annotator=self.people[1])
        self.assertNotEqual(second.item_id, first.item_id)  # fewest votes first
        seen = {first.item_id}
        for _ in range(2):
            nxt = services.assignment_next(annotator=self.people[0])
            self.assertNotIn(nxt.item_id, seen)
            seen.add(nxt.item_id)
            services.vote_cast(annotator=self.people[0], item_id=nxt.item_id, answer=A_BETTER)
        self.assertIsNone(services.assignment_next(annotator=self.people[0]))

    def test_an_open_assignment_is_shown_again_until_answered(self):
        first = services.assignment_next(annotator=self.people[0])
        self.assertEqual(services.assignment_next(annotator=self.people[0]).pk, first.pk)

    def test_no_item_is_handed_out_more_than_n_times(self):
        people = self.people + [make_user(f"more{n}", "annotator") for n in range(2)]
        taken = [services.assignment_next(annotator=p) for p in people]  # 7 asks, 3 items x 2 slots
        per_item = {}
        for a in filter(None, taken):
            per_item[a.item_id] = per_item.get(a.item_id, 0) + 1
        self.assertEqual(sorted(per_item.values()), [2, 2, 2])
        self.assertIsNone(taken[-1])

    def test_an_expired_assignment_gives_its_slot_back(self):
        item_ids = [services.assignment_next(annotator=p).item_id for p in self.people[:3]]
        later = timezone.now() + timedelta(hours=2)
        self.assertEqual(services.assignments_expire(now=later), 3)
        self.assertEqual(sum(Item.objects.values_list("taken", flat=True)), 0)
        self.assertEqual(len(item_ids), 3)

    def test_an_answer_after_expiry_is_taken_while_the_item_has_room(self):
        assignment = services.assignment_next(annotator=self.people[0])
        services.assignments_expire(now=timezone.now() + timedelta(hours=2))
        vote = services.vote_cast(annotator=self.people[0], item_id=assignment.item_id, answer=A_BETTER)
        self.assertEqual(Item.objects.get(pk=assignment.item_id).taken, 1)
        self.assertEqual(vote.preference in ('wiki', 'suggested'), True)

    def test_an_answer_after_expiry_is_refused_once_others_filled_the_item(self):
        assignment = services.assignment_next(annotator=self.people[0])
        services.assignments_expire(now=timezone.now() + timedelta(hours=2))
        Item.objects.filter(pk=assignment.item_id).update(taken=2)
        with self.assertRaises(VoteError):
            services.vote_cast(annotator=self.people[0], item_id=assignment.item_id, answer=A_BETTER)

    @override_settings(SIDE_ANNOTATION_GOLD_RATE=1.0)
    def test_gold_items_are_mixed_in_and_shown_to_everyone(self):
        gold = support.bulk_items(1, kind=Kind.GOLD, title="Gold")[0]
        for person in self.people:  # more people than N: gold items have no cap
            self.assertEqual(services.assignment_next(annotator=person).item_id, gold.pk)

    def test_the_screen_order_is_balanced_across_annotators(self):
        with override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=5):
            item = support.bulk_items(1, title="Balanced")[0]
            Item.objects.exclude(pk=item.pk).delete()
            orders = [services.assignment_next(annotator=p, rng=random.Random(7)).wiki_left for p in self.people[:4]]
        self.assertEqual(orders.count(True), 2)

    def test_a_vote_is_stored_in_source_terms(self):
        assignment = services.assignment_next(annotator=self.people[0])
        vote = services.vote_cast(annotator=self.people[0], item_id=assignment.item_id,
                                  answer=ScreenAnswer("a", "none", "enough"))
        wiki_is_a = assignment.wiki_left
        self.assertEqual(vote.preference, "wiki" if wiki_is_a else "suggested")
        self.assertEqual(vote.evidence_wiki, "none" if wiki_is_a else "enough")
        self.assertEqual(vote.guidelines_version, "2026-11-v1")
        with self.assertRaises(VoteError):
            services.vote_cast(annotator=self.people[0], item_id=assignment.item_id, answer=A_BETTER)

    def test_a_vote_needs_an_assignment(self):
        with self.assertRaises(VoteError):
            services.vote_cast(annotator=self.people[0], item_id=self.items[0].pk, answer=A_BETTER)

    def test_a_skip_is_kept_apart_and_frees_the_slot(self):
        assignment = services.assignment_next(annotator=self.people[0])
        vote = services.vote_cast(annotator=self.people[0], item_id=assignment.item_id,
                                  answer=ScreenAnswer("skip", skip_reason="paywalled"))
        self.assertEqual((vote.preference, vote.skip_reason, vote.evidence_wiki), ("skip", "paywalled", ""))
        self.assertEqual(Item.objects.get(pk=assignment.item_id).taken, 0)

    def test_revising_keeps_the_old_answer_and_reaches_only_the_last_ten_votes(self):
        many = support.bulk_items(12, title="Many")
        Item.objects.exclude(pk__in=[i.pk for i in many]).delete()
        person, votes = self.people[0], []
        for _ in range(12):
            a = services.assignment_next(annotator=person)
            votes.append(services.vote_cast(annotator=person, item_id=a.item_id, answer=A_BETTER))
        revised = services.vote_revise(annotator=person, vote_id=votes[-1].pk, answer=ScreenAnswer("neither", "none", "none"))
        self.assertEqual(revised.preference, "neither")
        old = VoteRevision.objects.get(vote=revised)
        self.assertIn(old.preference, ("wiki", "suggested"))
        with self.assertRaises(VoteError):
            services.vote_revise(annotator=person, vote_id=votes[0].pk, answer=A_BETTER)
        with self.assertRaises(VoteError):  # nor anyone else's
            services.vote_revise(annotator=self.people[1], vote_id=votes[-1].pk, answer=A_BETTER)

    def test_a_contradictory_answer_is_recognised(self):
        self.assertTrue(ScreenAnswer("a", "none", "enough").contradictory())
        self.assertTrue(ScreenAnswer("b", "enough", "none").contradictory())
        self.assertFalse(ScreenAnswer("a", "partial", "enough").contradictory())


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class ResultsAndExportTests(TestCase):
    def setUp(self):
        support.bulk_items(4, scores=[0.1, 0.5])
        self.people = [make_user(f"ann{n}", "annotator") for n in range(3)]
        for person in self.people:  # everyone prefers the suggested source on every item
            while (a := services.assignment_next(annotator=person)) is not None:
                services.vote_cast(annotator=person, item_id=a.item_id, answer=answer_for(a, "suggested"))

    def test_results_count_wins_buckets_and_agreement(self):
        data = results()
        self.assertEqual(data["votes"], 12)
        self.assertEqual((data["overall"]["suggested"].k, data["overall"]["suggested"].n), (12, 12))
        self.assertAlmostEqual(data["overall"]["sign_p"], 2 / 2 ** 12)
        self.assertEqual([b["items"] for b in data["buckets"]], [2, 0, 2, 0, 0])
        preference = data["agreement"][0]
        self.assertEqual(preference["full_items"], 4)
        self.assertIsNone(preference["fleiss"])  # one category only: undefined, not perfect
        self.assertEqual(data["evidence"][0]["labels"][1]["count"], 12)  # partial
        self.assertEqual(sum(r["total"] for r in data["calibration"]["rows"]), 8)
        self.assertEqual(len(data["annotators"]), 3)

    def test_exports_name_the_sources_not_the_screen(self):
        rows = list(export_rows())
        self.assertEqual(len(rows), 12)
        self.assertEqual({r["preference"] for r in rows}, {"suggested"})
        self.assertTrue(all(r["annotator"].startswith("ann-") for r in rows))
        self.assertTrue({"item", "kind", "claim_id", "shown_left", "evidence_wiki", "evidence_suggested",
                         "created_at", "seconds", "guidelines_version"} <= set(rows[0]))
        self.assertNotIn("ann0", json.dumps(rows))

    def test_export_judgements_writes_verify_jsonl_input_with_a_gold_verdict(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "judgements.jsonl"
            call_command("export_judgements", "--format", "verify-jsonl", "--output", str(out), stdout=StringIO())
            lines = [json.loads(line) for line in out.read_text().splitlines()]
        self.assertEqual(len(lines), 8)  # 4 items x 2 sources, each with a majority label
        first = lines[0]
        self.assertEqual(first["gold_verdict"], "partially_supported")
        self.assertTrue(first["claim"] and first["source"]["text"])
        self.assertEqual(Vote.objects.count(), 12)
