"""Real concurrent PostgreSQL connections (one per thread) asking for and answering
items at once: no item goes over N, and no annotator votes twice on an item."""
from __future__ import annotations

import threading

from django.db import connection
from django.test import TransactionTestCase, override_settings

from sideapp.annotation import services
from sideapp.annotation.models import Assignment, Item, Vote
from sideapp.annotation.services import ScreenAnswer, VoteError
from tests import annotation_support as support
from tests.users import make_user

ANSWER = ScreenAnswer("b", "partial", "enough")


def run_at_once(functions) -> list:
    """Run each function in its own thread (so its own database connection), released
    together by a barrier; returns results or the exceptions raised."""
    barrier = threading.Barrier(len(functions))
    results: list = [None] * len(functions)

    def worker(n, fn):
        try:
            barrier.wait()
            results[n] = fn()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[n] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n, fn)) for n, fn in enumerate(functions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@override_settings(SIDE_ANNOTATION_VOTES_PER_ITEM=3, SIDE_ANNOTATION_GOLD_RATE=0.0)
class ConcurrentAssignmentTests(TransactionTestCase):
    def test_annotators_asking_at_once_never_push_an_item_over_n(self):
        support.bulk_items(2)
        people = [make_user(f"ann{n}", "annotator") for n in range(10)]
        got = run_at_once([lambda p=p: services.assignment_next(annotator=p) for p in people])
        self.assertFalse([g for g in got if isinstance(g, Exception)])
        self.assertEqual(sum(g is not None for g in got), 6)  # 2 items x 3
        for item in Item.objects.all():
            self.assertEqual(item.assignments.count(), 3)
            self.assertEqual(item.taken, 3)

    def test_answering_and_asking_at_once_keeps_every_item_within_n(self):
        support.bulk_items(4)
        people = [make_user(f"ann{n}", "annotator") for n in range(8)]

        def work(person):
            answered = 0
            while (a := services.assignment_next(annotator=person)) is not None:
                services.vote_cast(annotator=person, item_id=a.item_id, answer=ANSWER)
                answered += 1
            return answered

        got = run_at_once([lambda p=p: work(p) for p in people])
        self.assertFalse([g for g in got if isinstance(g, Exception)])
        self.assertEqual(sum(got), 12)
        for item in Item.objects.all():
            self.assertEqual(item.votes.count(), 3)
        self.assertEqual(Vote.objects.values("item", "annotator").distinct().count(), Vote.objects.count())

    def test_the_same_vote_posted_twice_at_once_is_stored_once(self):
        item = support.bulk_items(1)[0]
        person = make_user("ann", "annotator")
        services.assignment_next(annotator=person)
        got = run_at_once([lambda: services.vote_cast(annotator=person, item_id=item.pk, answer=ANSWER)] * 4)
        self.assertEqual(sum(isinstance(g, Vote) for g in got), 1)
        self.assertTrue(all(isinstance(g, (Vote, VoteError)) for g in got))
        self.assertEqual(Vote.objects.count(), 1)
        self.assertEqual(Assignment.objects.get().state, Assignment.State.ANSWERED)

    def test_one_annotator_in_two_tabs_gets_one_assignment_per_item(self):
        support.bulk_items(1)
        person = make_user("ann", "annotator")
        got = run_at_once([lambda: services.assignment_next(annotator=person)] * 4)
        self.assertFalse([g for g in got if isinstance(g, Exception)])
        self.assertEqual(Assignment.objects.count(), 1)
        self.assertEqual(Item.objects.get().taken, 1)
