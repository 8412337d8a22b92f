"""Passage encoders: the static (model2vec) and int8 paths, and an index that keeps the
vectors of one encoder only."""
import tempfile
from pathlib import Path
from unittest import TestCase

import numpy as np
from django.conf import settings

from tests.test_retrieval_support import DOCS
from verifier_core.encoder import ENCODER_NAME
from verifier_core.retrieval import (
    EncoderMismatchError, MiniLMEncoder, RetrievalEngine, StaticEncoder, make_encoder,
)
from verifier_core.retrieval.builder import build_index
from verifier_core.retrieval.corpus import CorpusReport


def static_encoder() -> StaticEncoder:
    # Distilled once into the data folder (about a minute on 2 cores), reused afterwards.
    return StaticEncoder(settings.SIDE_ENCODER_CACHE)


class StaticEncoderTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls.tmp.name) / "index"
        build_index(cls.root, DOCS, CorpusReport(documents=len(DOCS)), encoder=static_encoder())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_its_vectors_are_unit_rows_of_its_own_width(self):
        vectors = static_encoder().encode(["The Eiffel Tower is in Paris.", ""])
        self.assertEqual(vectors.shape, (2, 256))
        self.assertAlmostEqual(float(np.linalg.norm(vectors[0])), 1.0, places=4)

    def test_an_index_it_wrote_is_searched_with_it_when_opened_without_an_encoder(self):
        engine = RetrievalEngine.load(self.root)
        self.assertEqual(engine.manifest["encoder"]["name"], static_encoder().name)
        hits = engine.search("Which tower was completed in 1889 for the World's Fair?", mode="dense", k=1)
        self.assertEqual(hits[0].url, "https://www.paris-guide.example/eiffel")

    def test_minilm_refuses_an_index_of_static_vectors(self):
        with self.assertRaisesRegex(EncoderMismatchError, "Rebuild"):
            RetrievalEngine.load(self.root, encoder=MiniLMEncoder())


class EncoderChoiceTests(TestCase):
    def test_int8_vectors_carry_their_own_name_and_stay_close_to_fp32(self):
        fp32, int8 = make_encoder("minilm", device="cpu"), make_encoder("minilm-int8")
        self.assertEqual(fp32.name, ENCODER_NAME)
        self.assertNotEqual(int8.name, fp32.name)
        texts = [d.text for d in DOCS[:4]]
        cosines = (fp32.encode(texts) * int8.encode(texts)).sum(axis=1)
        self.assertGreater(float(cosines.min()), 0.9)  # measured: 0.94 at worst

    def test_an_unknown_encoder_is_refused_with_the_choices(self):
        with self.assertRaisesRegex(ValueError, "minilm-int8"):
            make_encoder("bert-huge")
