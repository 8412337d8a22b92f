"""Plain data in and out of the verifier. No behaviour beyond (de)serialising."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum


class Verdict(StrEnum):
    """The four verdicts (SemanticCite's), the one vocabulary of the library and the app,
    with their words: the only place that spells them out.

    A StrEnum: members compare equal to their values and serialise as them, so stored
    rows and JSON lines keep the plain strings of the verify_jsonl contract."""

    SUPPORTED = "supported"
    PARTIALLY_SUPPORTED = "partially_supported"
    NOT_SUPPORTED = "not_supported"
    SOURCE_UNAVAILABLE = "source_unavailable"

    @property
    def label(self) -> str:
        """The verdict in words, as editors read it."""
        return self.value.replace("_", " ")

    @property
    def default_reason(self) -> str:
        """The one-line reason shown under the verdict when the verifier gave none."""
        return _DEFAULT_REASONS[self]

    @classmethod
    def of(cls, value: str) -> "Verdict | None":
        """The verdict a stored value names, or None (an empty or unknown value)."""
        return cls._value2member_map_.get(value)

    @classmethod
    def words(cls, value: str) -> str:
        """Any stored verdict value in words (an unknown one as it is, never a raw code)."""
        verdict = cls.of(value)
        return verdict.label if verdict else str(value).replace("_", " ")


_DEFAULT_REASONS = {
    Verdict.SUPPORTED: "a passage of the source states it",
    Verdict.PARTIALLY_SUPPORTED: "the source backs part of it, not all",
    Verdict.NOT_SUPPORTED: "no passage of the source states it",
    Verdict.SOURCE_UNAVAILABLE: "the source could not be read",
}


SUPPORTED = Verdict.SUPPORTED
PARTIAL = Verdict.PARTIALLY_SUPPORTED
NOT_SUPPORTED = Verdict.NOT_SUPPORTED
UNAVAILABLE = Verdict.SOURCE_UNAVAILABLE
VERDICTS = tuple(Verdict)


class VerifierModelError(RuntimeError):
    """The model directory exists but cannot be used (corrupt, incomplete, wrong shape)."""


@dataclass(frozen=True)
class ClaimInput:
    """The claim as the app extracts it. The current model reads `text` and `title`
    (the title resolves "he" / "the band" to the article's subject); `context` and
    `section` travel with the claim for models that use them, and for display."""

    text: str
    context: str = ""
    title: str = ""  # the wiki article's title
    section: str = ""


@dataclass(frozen=True)
class Evidence:
    """The best passage and the sentences in it that carry the support.

    `source_text[start:end] == passage`, and every sentence is a substring of the
    passage at `sentence_spans` (offsets into the source text as well).
    """

    passage: str
    sentences: list[str]
    start: int
    end: int
    sentence_spans: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict:
        # The verify_jsonl contract: exactly these keys.
        return {"passage": self.passage, "sentences": list(self.sentences), "start": self.start, "end": self.end}


@dataclass(frozen=True)
class PassageScore:
    start: int
    end: int
    score: float  # cross-encoder pair probability (or cosine in the fallback)


@dataclass(frozen=True)
class PartVerdict:
    """One part of a claim (a clause, a coordinated fact) and how well the source backs it."""

    text: str
    start: int  # offsets into the claim text
    end: int
    score: float
    verdict: str

    def to_json(self) -> dict:
        return {"text": self.text, "score": round(self.score, 6), "verdict": str(self.verdict)}


@dataclass
class SourceVerdict:
    score: float  # in [0, 1], higher = better supported; 0.0 when unavailable
    verdict: str
    method: str  # "cross-encoder" | "bi-encoder-fallback"
    model_version: str
    reason: str | None = None  # why a source is unavailable, or a note on the method
    evidence: Evidence | None = None
    passage_scores: list[PassageScore] = field(default_factory=list)
    probabilities: dict[str, float] = field(default_factory=dict)
    features: dict[str, float] = field(default_factory=dict)  # what the verdict head saw
    confidence: str = "low"  # "high" | "low" (verdicts.Thresholds.decide); low = needs a look
    parts: list[PartVerdict] = field(default_factory=list)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["evidence"] = self.evidence.to_json() if self.evidence else None
        return data


@dataclass
class ClaimVerdict:
    """A claim judged on the union of its citations' evidence; each keeps its own score."""

    score: float
    verdict: str
    method: str
    model_version: str
    sources: list[SourceVerdict]
    evidence: list[Evidence] = field(default_factory=list)  # from every source that contributed
    reason: str | None = None
    confidence: str = "low"
    parts: list[PartVerdict] = field(default_factory=list)

# The verdict head's classes, in the order of its probability columns.
LABELS = (Verdict.SUPPORTED.value, Verdict.PARTIALLY_SUPPORTED.value, Verdict.NOT_SUPPORTED.value)
