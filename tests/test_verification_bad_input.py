"""Bad input gives a clear verdict or a clear error, never a crash."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from django.test import SimpleTestCase

from tests.test_verification_scoring import CLAIM, CheckpointTestCase
from tests.verification_support import (
    SOURCE_GERMAN,
    SOURCE_HEIGHT_ONLY,
    SOURCE_RUSSIAN,
    SOURCE_TOWER,
    shared_checkpoint,
)
from verifier_core.verification import ClaimInput, Verifier, VerifierModelError
from verifier_core.verification.evidence.guard import MAX_SOURCE_CHARS


class BadSourceTests(CheckpointTestCase):
    def assertUnavailable(self, text, reason_part):
        verdict = self.verifier.score_source(CLAIM, text)
        self.assertEqual(verdict.verdict, "source_unavailable")
        self.assertEqual(verdict.score, 0.0)
        self.assertIsNone(verdict.evidence)
        self.assertIn(reason_part, verdict.reason)

    def test_an_empty_source_is_unavailable(self):
        self.assertUnavailable("", "no source text")
        self.assertUnavailable("   \n\t ", "no source text")
        self.assertUnavailable(None, "no source text")

    def test_a_source_with_too_little_text_is_unavailable(self):
        self.assertUnavailable("Subscribe to read.", "too little source text")

    def test_binary_junk_is_unavailable(self):
        junk = bytes(range(256)) * 64
        self.assertUnavailable(junk, "binary or garbled")
        self.assertUnavailable(junk.decode("latin-1"), "binary or garbled")

    def test_a_five_megabyte_source_is_unavailable_quickly(self):
        import time

        huge = ("The Harbour Tower is tall. " * 200_000)[: 5 * 1024 * 1024]
        started = time.time()
        self.assertUnavailable(huge, "too large")
        self.assertLess(time.time() - started, 2.0)
        self.assertGreater(len(huge), MAX_SOURCE_CHARS)

    def test_non_english_sources_are_unavailable(self):
        self.assertUnavailable(SOURCE_GERMAN, "not in English")
        self.assertUnavailable(SOURCE_RUSSIAN, "not in English")

    def test_an_english_page_with_a_foreign_menu_is_still_scored(self):
        page = "Главная | Новости | Контакты\n" + SOURCE_TOWER
        self.assertNotEqual(self.verifier.score_source(CLAIM, page).verdict, "source_unavailable")


class BadClaimTests(CheckpointTestCase):
    def test_an_empty_claim_is_unavailable_for_every_source(self):
        result = self.verifier.score_claim(ClaimInput("  "), [SOURCE_TOWER, SOURCE_TOWER])
        self.assertEqual(result.verdict, "source_unavailable")
        self.assertEqual(result.reason, "empty claim")
        self.assertEqual([s.verdict for s in result.sources], ["source_unavailable"] * 2)

    def test_a_claim_longer_than_the_token_budget_is_still_scored(self):
        # "truncate only the passage" fails on such claims; the claim is cut too.
        long_claim = ClaimInput(" ".join(["The Harbour Tower in Port Elsin is 212 metres tall."] * 30))
        verdict = self.verifier.score_source(long_claim, SOURCE_TOWER)
        self.assertIn(verdict.verdict, ("supported", "partially_supported", "not_supported"))

    def test_a_garbled_claim_is_unavailable(self):
        verdict = self.verifier.score_source(ClaimInput("\x00\x01\x02\x03\x04 \x05\x06"), SOURCE_TOWER)
        self.assertEqual(verdict.verdict, "source_unavailable")

    def test_a_source_that_breaks_the_pipeline_does_not_take_the_others_down(self):
        from unittest import mock

        real = self.verifier._source_verdict

        def flaky(claim, text, *rest):
            if "Tickets" in text:
                raise RuntimeError("boom")
            return real(claim, text, *rest)

        with mock.patch.object(self.verifier, "_source_verdict", side_effect=flaky), self.assertLogs("verifier_core", "ERROR"):
            result = self.verifier.score_claim(CLAIM, [SOURCE_TOWER, SOURCE_HEIGHT_ONLY])
        self.assertEqual(result.sources[0].verdict, "source_unavailable")
        self.assertIn("verification failed", result.sources[0].reason)
        self.assertNotEqual(result.sources[1].verdict, "source_unavailable")
        self.assertNotEqual(result.verdict, "source_unavailable")

    def test_no_sources_at_all_is_unavailable(self):
        self.assertEqual(self.verifier.score_claim(CLAIM, []).verdict, "source_unavailable")


class ModelDirectoryTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = Path(tempfile.mkdtemp(prefix="verifier-dirs-"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
        super().tearDownClass()

    def test_a_missing_model_directory_falls_back_and_says_so_in_every_verdict(self):
        verifier = Verifier.load(self.tmp / "does-not-exist")
        self.assertEqual(verifier.method, "bi-encoder-fallback")
        result = verifier.score_claim(CLAIM, [SOURCE_TOWER, ""])
        self.assertEqual(result.method, "bi-encoder-fallback")
        for verdict in result.sources:
            self.assertEqual(verdict.method, "bi-encoder-fallback")
            self.assertTrue(verdict.model_version.startswith("bi-encoder-fallback"))
        self.assertIn("fallback", result.sources[0].reason)
        self.assertIn(result.sources[0].verdict, ("supported", "partially_supported"))

    def test_a_corrupt_checkpoint_raises_a_clear_error(self):
        broken = self.tmp / "corrupt"
        shutil.copytree(shared_checkpoint(), broken)
        (broken / "model.safetensors").write_bytes(b"this is not a safetensors file")
        with self.assertRaises(VerifierModelError):
            Verifier.load(broken)

    def test_an_incomplete_checkpoint_raises_a_clear_error(self):
        partial = self.tmp / "incomplete"
        shutil.copytree(shared_checkpoint(), partial)
        (partial / "head.json").unlink()
        with self.assertRaisesRegex(VerifierModelError, "head.json"):
            Verifier.load(partial)

    def test_a_checkpoint_of_another_shape_raises_a_clear_error(self):
        other = self.tmp / "other-shape"
        shutil.copytree(shared_checkpoint(), other)
        config = (other / "encoder_config.json").read_text().replace('"num_hidden_layers": 6', '"num_hidden_layers": 4')
        (other / "encoder_config.json").write_text(config)
        with self.assertRaises(VerifierModelError):
            Verifier.load(other)
