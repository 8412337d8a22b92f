"""Scoring without a trained checkpoint: bi-encoder cosine between claim and passages.

Used when models/verifier/ holds no checkpoint, so that the app still ranks sources;
every verdict it gives says so (method "bi-encoder-fallback"). The thresholds are the
supported-vs-rest accuracy and macro-F1 cuts on this path's max-cosine scores of the 349
WiCE `dev` claims (BM25 top-8 of 64-word passages; ROC-AUC 0.83, supported-vs-rest
accuracy 0.68 in-sample): coarse, as the zero-shot model itself is.
"""
from __future__ import annotations

import numpy as np

from verifier_core.verification.judgement.verdicts import Thresholds
from verifier_core.verification.model.cache import ScoreCache, cache_key

METHOD = "bi-encoder-fallback"
# Not fitted for precision (no labels on this path): its verdicts are all low confidence.
THRESHOLDS = Thresholds(supported=0.712, not_supported=0.489)
TOP_K = 8  # passages chosen by BM25 before the encoder sees them


def fallback_version() -> str:
    from verifier_core.encoder import ENCODER_NAME

    return f"{METHOD}:{ENCODER_NAME}"


def passage_cosines(claim: str, texts: list[str], cache: ScoreCache) -> np.ndarray:
    """Cosine of the claim with each text; embeddings are cached by text."""
    from verifier_core.encoder import encode

    version = fallback_version()
    keys = [cache_key(version, "emb", t) for t in [claim, *texts]]
    vectors = [cache.get(k) for k in keys]
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        fresh = encode([([claim, *texts])[i] for i in missing])
        for i, vec in zip(missing, fresh):
            vectors[i] = vec.tolist()
            cache.put(keys[i], vectors[i])
    matrix = np.array(vectors, dtype=np.float32)
    return matrix[1:] @ matrix[0] if texts else np.zeros(0)
