"""Verification engine: does a cited source support a claim, and where is the evidence?

Public API (everything else in this package is internal):

    from verifier_core.verification import ClaimInput, Verifier, get_verifier
    verifier = get_verifier()            # one per process; models/verifier/ or SIDE_VERIFIER_DIR
    verifier.score_source(ClaimInput(text, context, title, section), source_text) -> SourceVerdict
    verifier.score_claim(claim, [source_text, ...]) -> ClaimVerdict
    verifier.rerank(claim, candidate_texts) -> [(index, SourceVerdict)], best first
    verifier.model_version

Importing this package does not import torch; loading a Verifier does.

Inside, by concern (docs/architecture.md): `model` (the cross-encoder, its training and
cache), `language` (terms, figures, units, mentions), `evidence` (passages, sentences,
parts, the quote, each part's own lines) and `judgement` (features, the verdict head and rules, reasons).
"""
from verifier_core.verification.scoring import Verifier, default_model_dir, get_verifier
from verifier_core.verification.types import (
    NOT_SUPPORTED,
    PARTIAL,
    SUPPORTED,
    UNAVAILABLE,
    VERDICTS,
    ClaimInput,
    ClaimVerdict,
    Evidence,
    PassageScore,
    Reason,
    ReasonKind,
    SourceVerdict,
    Verdict,
    VerifierModelError,
)

__all__ = [
    "NOT_SUPPORTED",
    "PARTIAL",
    "SUPPORTED",
    "UNAVAILABLE",
    "VERDICTS",
    "ClaimInput",
    "ClaimVerdict",
    "Evidence",
    "PassageScore",
    "Reason",
    "ReasonKind",
    "SourceVerdict",
    "Verdict",
    "Verifier",
    "VerifierModelError",
    "default_model_dir",
    "get_verifier",
]
