"""Passages, lexical signals, calibration thresholds, metrics and the disk cache."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from django.test import SimpleTestCase

from tests.verification_support import SOURCE_TOWER
from verifier_core.verification.evidence.passages import MAX_UNIT_WORDS, passages, sentence_units
from verifier_core.verification.judgement.calibration import VerdictHead, fit_head
from verifier_core.verification.judgement.verdicts import HIGH, LOW, Thresholds, fit_thresholds
from verifier_core.verification.language.lexical import PassageBm25, numbers, terms
from verifier_core.verification.model.cache import ScoreCache
from verifier_core.verification.model.data import Example
from verifier_core.verification.model.evaluation import cross_validate, share_of_groups
from verifier_core.verification.model.metrics import precision_at_recall, roc_auc


class PassageTests(SimpleTestCase):
    def test_passages_are_sentence_windows_with_offsets_into_the_text(self):
        found = passages(SOURCE_TOWER, max_words=20)
        self.assertGreater(len(found), 1)
        for p in found:
            self.assertEqual(SOURCE_TOWER[p.start : p.end], p.text)

    def test_consecutive_passages_overlap_so_no_sentence_is_cut_off(self):
        units = sentence_units(SOURCE_TOWER)
        found = passages(SOURCE_TOWER, max_words=20, units=units)
        covered = set()
        for p in found:
            covered.update(range(*p.units))
        self.assertEqual(covered, set(range(len(units))))
        for a, b in zip(found, found[1:]):
            self.assertLess(b.units[0], a.units[1] + 1)

    def test_lines_without_punctuation_are_units_of_their_own(self):
        units = sentence_units("Home\nVisit\nThe tower is tall. It opened in 1994.")
        self.assertEqual(len(units), 4)

    def test_a_run_on_blob_is_cut_into_bounded_units(self):
        blob = " ".join(["word"] * (MAX_UNIT_WORDS * 3 + 5))
        units = sentence_units(blob)
        self.assertEqual(len(units), 4)
        self.assertTrue(all(u.words <= MAX_UNIT_WORDS for u in units))

    def test_an_empty_text_has_no_passages(self):
        self.assertEqual(passages(""), [])


class LexicalTests(SimpleTestCase):
    def test_terms_are_stemmed_content_words(self):
        self.assertEqual(terms("The towers were opened"), ["tower", "open"])

    def test_numbers_ignore_thousands_separators(self):
        self.assertEqual(numbers("It cost 1,200 pounds in 1994."), {"1200", "1994"})

    def test_bm25_prefers_the_passage_sharing_rare_words(self):
        bm = PassageBm25([terms("the tower opened in 1994"), terms("tickets at the entrance"), terms("lunch and dinner")])
        scores = bm.scores(terms("When did the tower open?"))
        self.assertEqual(int(np.argmax(scores)), 0)


class CalibrationTests(SimpleTestCase):
    def head(self):
        return VerdictHead(["x"], [0.0], [1.0], [[1.0], [0.0], [-1.0]], [0.0, 0.0, 0.0], t_supported=0.7, t_not_supported=0.3)

    def test_verdicts_follow_the_two_thresholds_on_the_score(self):
        head = self.head()
        self.assertEqual(head.verdict(0.7), "supported")
        self.assertEqual(head.verdict(0.69), "partially_supported")
        self.assertEqual(head.verdict(0.3), "partially_supported")
        self.assertEqual(head.verdict(0.29), "not_supported")

    def test_the_score_rises_with_the_evidence_feature(self):
        scores = self.head().score(np.array([[-3.0], [0.0], [3.0]]))
        self.assertTrue(np.all(np.diff(scores) > 0))
        self.assertTrue(np.all((scores >= 0) & (scores <= 1)))

    def test_a_head_survives_a_round_trip_through_json(self):
        head = self.head()
        self.assertEqual(VerdictHead.from_dict(head.to_dict()), head)

    def test_the_supported_threshold_maximises_supported_vs_rest_accuracy(self):
        score = np.repeat([0.1, 0.2, 0.4, 0.5, 0.8, 0.9], 5)
        y = np.repeat([2, 2, 1, 1, 0, 0], 5)
        t = fit_thresholds(score, y)
        self.assertTrue(0.5 < t.supported <= 0.8)
        self.assertTrue(0.2 < t.not_supported <= 0.4)

    def test_not_supported_is_cut_where_its_precision_reaches_the_target(self):
        # Below 0.3 four claims in five are not supported; from 0.3 up, one in two.
        score = np.array([0.1] * 8 + [0.2] * 2 + [0.35] * 10 + [0.9] * 10)
        y = np.array([2] * 8 + [1] * 2 + [2, 1] * 5 + [0] * 10)
        t = fit_thresholds(score, y, target=0.8)
        self.assertTrue(0.2 < t.not_supported <= 0.35)
        chosen = score < t.not_supported
        self.assertGreaterEqual((y[chosen] == 2).mean(), 0.8)

    def test_no_not_supported_verdict_when_no_cut_is_precise_enough(self):
        score = np.linspace(0, 1, 40)
        y = np.tile([0, 1, 2, 0], 10)
        self.assertEqual(fit_thresholds(score, y, target=0.9).not_supported, 0.0)

    def test_every_verdict_carries_a_confidence(self):
        t = Thresholds(supported=0.6, not_supported=0.2, confident_supported=0.8)
        self.assertEqual(t.decide(0.1), ("not_supported", HIGH))
        self.assertEqual(t.decide(0.4), ("partially_supported", LOW))
        self.assertEqual(t.decide(0.7), ("supported", LOW))
        self.assertEqual(t.decide(0.9), ("supported", HIGH))

    def test_fit_head_learns_a_separable_problem(self):
        rng = np.random.RandomState(0)
        y = np.repeat([0, 1, 2], 30)
        X = (2 - y)[:, None] + rng.normal(0, 0.3, (90, 1))
        head = fit_head(X, y, list(range(90)), ["x"], C=1.0)
        pred = [head.verdict(s) for s in head.score(X)]
        accuracy = np.mean([p == ("supported", "partially_supported", "not_supported")[c] for p, c in zip(pred, y)])
        # The not_supported cut is chosen for precision, so a few edge claims stay partial.
        self.assertGreaterEqual(accuracy, 0.85)


class MetricTests(SimpleTestCase):
    def test_roc_auc_matches_known_values(self):
        self.assertEqual(roc_auc(np.array([True, True, False, False]), np.array([0.9, 0.8, 0.1, 0.2])), 1.0)
        self.assertEqual(roc_auc(np.array([True, False]), np.array([0.5, 0.5])), 0.5)
        self.assertTrue(np.isnan(roc_auc(np.array([True, True]), np.array([0.1, 0.2]))))

    def test_precision_at_recall_reads_the_list_from_the_lowest_score(self):
        score = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
        positive = np.array([False, True, True, False, True, False, False, True])
        # 15% of 4 positives needs one hit: the second row; precision 1/2.
        self.assertEqual(precision_at_recall(score, positive, 0.15), 0.5)
        self.assertEqual(precision_at_recall(score, positive, 0.5), 2 / 3)


def synthetic_claims(n_groups: int, per_group: int = 2) -> list[Example]:
    labels = ("supported", "partially_supported", "not_supported")
    return [Example(id=f"dev{g}-{k}", source="dev", claim="c", title="", section="", context="", page="p",
                    sentence_spans=[], label=labels[g % 3], supporting=[], group=f"g{g}")
            for g in range(n_groups) for k in range(per_group)]


class LearningCurveTests(SimpleTestCase):
    def test_a_share_of_the_training_claims_keeps_whole_groups(self):
        examples = synthetic_claims(40)
        rows = list(range(len(examples)))
        kept = share_of_groups(examples, rows, 0.25, np.random.RandomState(0))
        groups = {examples[i].group for i in kept}
        self.assertEqual(len(groups), 10)
        self.assertEqual(len(kept), 20)  # both claims of every kept group
        self.assertEqual(kept, share_of_groups(examples, rows, 0.25, np.random.RandomState(0)))

    def test_cross_validation_on_a_share_still_scores_every_fold(self):
        examples = synthetic_claims(60)
        y = np.array([("supported", "partially_supported", "not_supported").index(e.label) for e in examples])
        X = (2 - y)[:, None] + np.random.RandomState(0).normal(0, 0.2, (len(y), 1))
        full = cross_validate(X, examples, 5, 0, ["x"])
        part = cross_validate(X, examples, 5, 0, ["x"], train_share=0.5)
        self.assertEqual((full["folds"], part["folds"]), (5, 5))
        self.assertFalse(np.isnan(part["oof_score"]).any())
        self.assertGreater(part["metrics"]["supported_vs_rest_accuracy"]["mean"], 0.9)


class DiskCacheTests(SimpleTestCase):
    def test_a_disk_cache_survives_a_new_process_and_the_lru_evicts(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "scores.sqlite"
            first = ScoreCache(max_items=2, path=path)
            for key in ("a", "b", "c"):
                first.put(key, {"pair": key})
            self.assertEqual(len(first), 2)
            second = ScoreCache(max_items=2, path=path)
            self.assertEqual(second.get("a"), {"pair": "a"})
            self.assertIsNone(second.get("missing"))
