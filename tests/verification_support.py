"""Small hand-written claims, sources and checkpoints for the verification tests (no WiCE
text). Holds no tests itself; named test_verification_* to sit with the tests it serves."""
from __future__ import annotations

import atexit
import json
import shutil
import tempfile
import unittest
from functools import lru_cache
from pathlib import Path

from django.test import SimpleTestCase

CLAIM_TOWER = "The Harbour Tower in Port Elsin is 212 metres tall and opened in 1994."
TITLE_TOWER = "Harbour Tower"

SOURCE_TOWER = """Harbour Tower | City Guide
Home
Visit
The Harbour Tower is an observation tower in Port Elsin. It stands 212 metres tall on the old quay.
The tower opened to visitors in 1994 after four years of construction.
Tickets can be bought at the entrance. The lifts run every ten minutes.
The cafe on the top floor serves lunch and dinner, and the view reaches the islands on clear days.
"""

SOURCE_HEIGHT_ONLY = """Tall structures of the coast
The Harbour Tower in Port Elsin stands 212 metres tall, which makes it the tallest building on the coast.
Its concrete core was poured in a single continuous operation that lasted a month.
Engineers chose concrete because of the strong winds that blow in from the sea most of the year.
"""

SOURCE_OPENING_ONLY = """Port Elsin timeline
1994: the Harbour Tower opened to visitors after four years of construction.
1996: a new ferry line linked Port Elsin with the islands.
2001: the old fish market became a museum of the sea, with a collection of boats and nets.
"""

SOURCE_UNRELATED = """Growing tomatoes at home
Tomatoes need at least six hours of sun a day and a steady supply of water.
Plant them deep, so that roots grow along the buried stem, and feed them every two weeks.
Pinch out the side shoots of tall varieties to keep the plants tidy and the fruit large.
"""

SOURCE_GERMAN = (
    "Die Stadt liegt am Ufer des Flusses und hat eine lange Geschichte, die nicht mit der von "
    "anderen Städten zu vergleichen ist. Der Turm ist auch ein beliebtes Ziel für Besucher. "
) * 10

SOURCE_RUSSIAN = "Город расположен на берегу реки и имеет долгую историю. Башня открылась в 1994 году. " * 10


def write_jsonl(path: Path, rows: list) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write((row if isinstance(row, str) else json.dumps(row)) + "\n")


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def make_checkpoint(out: Path, quantize: bool = False) -> Path:
    """An untrained cross-encoder (it starts where the bi-encoder is) with a hand-set
    verdict head that rewards word and number coverage: a valid checkpoint in seconds,
    whose behaviour the tests can reason about."""
    from verifier_core.encoder import base_model_dir
    from verifier_core.verification.judgement.calibration import VerdictHead
    from verifier_core.verification.judgement.features import FEATURE_NAMES
    from verifier_core.verification.model.cross_encoder import build_model, save_model

    model = build_model(base_model_dir())
    save_model(model, out, {"max_length": 192, "top_k": 4, "passage_words": 64, "quantize": quantize})
    n = len(FEATURE_NAMES)
    weight = {"cov_page": 10.0, "cov_numbers": 3.0, "tok_mean": 1.0}
    supported = [weight.get(name, 0.0) for name in FEATURE_NAMES]
    head = VerdictHead(
        feature_names=list(FEATURE_NAMES),
        mean=[0.0] * n,
        scale=[1.0] * n,
        coef=[supported, [0.0] * n, [-w for w in supported]],
        intercept=[-9.0, 0.0, 5.0],
        t_supported=0.75,
        t_not_supported=0.3,
    )
    (out / "head.json").write_text(json.dumps(head.to_dict()))
    return out


@lru_cache(maxsize=1)
def shared_checkpoint() -> Path:
    """One untrained checkpoint for the whole test run (writing 45 MB takes a moment)."""
    tmp = Path(tempfile.mkdtemp(prefix="verifier-ckpt-"))
    atexit.register(shutil.rmtree, tmp, True)
    return make_checkpoint(tmp / "model")


def fixture_page(name: str):
    """A demo source page (fixtures/sources/pages, written for this project) as the fetcher
    reads it: title, text and metadata."""
    from verifier_core.fetch.extract import extract

    path = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "pages" / name
    kind = "pdf" if name.endswith(".pdf") else "text" if name.endswith(".txt") else "html"
    return extract(kind, path.read_bytes(), "utf-8", f"http://sources.test/pages/{name}")


class ShippedVerifierTestCase(SimpleTestCase):
    """Tests of the committed models/verifier/ (skipped where a clone has none)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        from verifier_core.verification import Verifier, default_model_dir

        if not (default_model_dir() / "model.safetensors").exists():
            raise unittest.SkipTest(f"no committed checkpoint in {default_model_dir()}")
        cls.verifier = Verifier.load(default_model_dir())

