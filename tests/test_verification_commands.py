"""verify_jsonl and train_verifier, end to end through manage.py's command layer."""
from __future__ import annotations

import hashlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from unittest import skipUnless

from django.core.management import call_command
from django.test import SimpleTestCase

from tests.verification_support import (
    CLAIM_TOWER,
    SOURCE_TOWER,
    SOURCE_UNRELATED,
    TITLE_TOWER,
    read_jsonl,
    shared_checkpoint,
    write_jsonl,
)

WICE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wice"
HAVE_WICE = (WICE / "dev.jsonl").exists()


class VerifyJsonlTests(SimpleTestCase):
    """SimpleTestCase refuses database queries: the command must not need one."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = Path(tempfile.mkdtemp(prefix="verify-jsonl-"))
        cls.model = shared_checkpoint()
        rows = [
            {"id": "a", "claim": CLAIM_TOWER, "title": TITLE_TOWER, "section": "History", "source": {"url": "http://x", "title": "Guide", "text": SOURCE_TOWER}},
            {"id": "b", "claim": CLAIM_TOWER, "source": {"text": SOURCE_UNRELATED}},
            {"id": "c", "claim": CLAIM_TOWER, "source": {"text": ""}},
            {"id": "d", "claim": CLAIM_TOWER},
            "{not json",
            {"id": 5, "claim": "", "source": {"text": SOURCE_TOWER}},
            '["a list, not an object"]',
        ]
        write_jsonl(cls.tmp / "in.jsonl", rows)
        call_command("verify_jsonl", input=str(cls.tmp / "in.jsonl"), output=str(cls.tmp / "out.jsonl"), model=str(cls.model), stdout=io.StringIO(), stderr=io.StringIO())
        cls.out = read_jsonl(cls.tmp / "out.jsonl")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
        super().tearDownClass()

    def test_it_writes_one_line_per_input_line_with_the_contract_keys(self):
        self.assertEqual(len(self.out), 7)
        for row in self.out:
            self.assertEqual(set(row), {"id", "score", "verdict", "confidence", "reason", "reasons", "parts", "evidence"})
            self.assertIn(row["confidence"], ("high", "low"))
            self.assertTrue(row["reason"])
            self.assertTrue(row["reasons"] and all(r["kind"] for r in row["reasons"]))  # the reason as data
        self.assertEqual([r["id"] for r in self.out], ["a", "b", "c", "d", None, 5, None])

    def test_every_judged_claim_lists_its_parts_with_their_verdicts(self):
        parts = self.out[0]["parts"]
        self.assertEqual([p["text"] for p in parts], ["The Harbour Tower in Port Elsin is 212 metres tall", "and opened in 1994."])
        for part in parts:
            self.assertEqual(set(part), {"text", "score", "verdict", "evidence"})
            self.assertTrue(part["evidence"]["sentences"])  # each part of the tower claim has its own lines
            self.assertTrue(all(s in SOURCE_TOWER for s in part["evidence"]["sentences"]))

    def test_the_evidence_shows_every_parts_sentences_in_page_order(self):
        row = self.out[0]
        shown = row["evidence"]["sentences"]
        for part in row["parts"]:
            self.assertLessEqual(set(part["evidence"]["sentences"]), set(shown))
        self.assertEqual(shown, sorted(shown, key=SOURCE_TOWER.index))

    def test_a_supported_claim_gets_evidence_with_offsets_into_the_source(self):
        row = self.out[0]
        self.assertEqual(row["verdict"], "supported")
        ev = row["evidence"]
        self.assertEqual(set(ev), {"passage", "sentences", "start", "end"})
        self.assertEqual(SOURCE_TOWER[ev["start"] : ev["end"]], ev["passage"])
        self.assertTrue(all(s in SOURCE_TOWER for s in ev["sentences"]))

    def test_scores_are_higher_for_better_support(self):
        self.assertGreater(self.out[0]["score"], self.out[1]["score"])

    def test_bad_lines_become_source_unavailable(self):
        for row in self.out[2:]:
            self.assertEqual(row["verdict"], "source_unavailable")
            self.assertIsNone(row["evidence"])

    def test_explain_adds_method_and_reason(self):
        out = self.tmp / "explained.jsonl"
        call_command("verify_jsonl", input=str(self.tmp / "in.jsonl"), output=str(out), model=str(self.model), explain=True, stdout=io.StringIO(), stderr=io.StringIO())
        rows = read_jsonl(out)
        self.assertEqual(rows[0]["method"], "cross-encoder")
        self.assertEqual(rows[2]["reason"], "no source text")

    def test_without_a_checkpoint_it_warns_and_uses_the_fallback(self):
        out, err = self.tmp / "fallback.jsonl", io.StringIO()
        call_command("verify_jsonl", input=str(self.tmp / "in.jsonl"), output=str(out), model=str(self.tmp / "none"), explain=True, stdout=io.StringIO(), stderr=err)
        self.assertIn("bi-encoder-fallback", err.getvalue())
        self.assertTrue(all(r["method"] == "bi-encoder-fallback" for r in read_jsonl(out) if r["method"]))


@skipUnless(HAVE_WICE, f"needs the shared WiCE data at {WICE} (read-only, not in the repo)")
class TrainVerifierTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = Path(tempfile.mkdtemp(prefix="train-verifier-"))
        cls.first = cls._train(cls.tmp / "first")

    @classmethod
    def _train(cls, out: Path) -> Path:
        call_command("train_verifier", data=str(WICE), out=str(out), limit=8, folds=2, epochs=1, seed=3, stdout=io.StringIO())
        return out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
        super().tearDownClass()

    def test_it_writes_an_fp16_checkpoint_head_metrics_and_card(self):
        from safetensors import safe_open

        for name in ("model.safetensors", "config.json", "encoder_config.json", "head.json", "metrics.json", "MODEL_CARD.md"):
            self.assertTrue((self.first / name).exists(), name)
        self.assertLess((self.first / "model.safetensors").stat().st_size, 50 * 1024 * 1024)
        with safe_open(str(self.first / "model.safetensors"), "pt") as f:
            self.assertTrue(all(str(f.get_tensor(k).dtype) == "torch.float16" for k in list(f.keys())[:5]))
        card = (self.first / "MODEL_CARD.md").read_text()
        self.assertIn("--seed 3", card)
        self.assertIn("Cross-validated metrics", card)

    def test_the_trained_checkpoint_loads_and_scores(self):
        from verifier_core.verification import ClaimInput, Verifier

        verdict = Verifier.load(self.first).score_source(ClaimInput(CLAIM_TOWER, title=TITLE_TOWER), SOURCE_TOWER)
        self.assertEqual(verdict.method, "cross-encoder")
        self.assertIsNotNone(verdict.evidence)

    def test_training_is_deterministic_for_a_seed(self):
        second = self._train(self.tmp / "second")
        digest = lambda p: hashlib.sha256((p / "model.safetensors").read_bytes()).hexdigest()  # noqa: E731
        self.assertEqual(digest(self.first), digest(second))
        self.assertEqual(json.loads((self.first / "head.json").read_text()), json.loads((second / "head.json").read_text()))
