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
    """The quote's passage and the sentences shown as support: the quote and every part's
    own sentences (`PartEvidence`), from anywhere on the page, in page order.

    `source_text[start:end] == passage`, and every sentence is the source text at its
    `sentence_spans` entry (offsets into the source text; a part's sentence may lie outside
    the passage). `quote`: the line quoted as saying it (at `quote_span`), "" when none.
    """

    passage: str
    sentences: list[str]
    start: int
    end: int
    sentence_spans: list[tuple[int, int]] = field(default_factory=list)
    quote: str = ""
    quote_span: tuple[int, int] | None = None

    def to_json(self) -> dict:
        # The verify_jsonl contract: exactly these keys.
        return {"passage": self.passage, "sentences": list(self.sentences), "start": self.start, "end": self.end}


@dataclass(frozen=True)
class PassageScore:
    start: int
    end: int
    score: float  # cross-encoder pair probability (or cosine in the fallback)


@dataclass(frozen=True)
class PartEvidence:
    """The sentences of a page that together hold one part of a claim (evidence/support.py),
    each the source text at its `sentence_spans` entry, in page order; none when no line
    holds enough of it."""

    sentences: list[str] = field(default_factory=list)
    sentence_spans: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"sentences": list(self.sentences)}


@dataclass(frozen=True)
class PartVerdict:
    """One part of a claim (a clause, a coordinated fact), how well the source backs it and
    the source's sentences that hold it."""

    text: str
    start: int  # offsets into the claim text
    end: int
    score: float
    verdict: str
    evidence: PartEvidence = field(default_factory=PartEvidence)

    def to_json(self) -> dict:
        return {"text": self.text, "score": round(self.score, 6), "verdict": str(self.verdict),
                "evidence": self.evidence.to_json()}


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
    reasons: list["Reason"] = field(default_factory=list)  # `reason` as data (judgement/reasons.py words it)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["evidence"] = self.evidence.to_json() if self.evidence else None
        data["reasons"] = [r.to_json() for r in self.reasons]
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
    reasons: list["Reason"] = field(default_factory=list)

class ReasonKind(StrEnum):
    """What a reason says. Its words are judgement/reasons.py's, rendered only for display."""

    FIGURE = "figure"  # the page contradicts the claim's figure: "the source gives ..., not ..."
    FIGURE_HINT = "figure_hint"  # the page gives another figure, perhaps of another thing: check
    ABSENT = "absent"  # no passage mentions these terms (in any form)
    PARTIAL = "partial"  # the source backs part of the claim; `part`: its weakest part, if named
    UNSURE = "unsure"  # partial, nothing to point at; `sentence`: the closest line
    NO_STATEMENT = "no_statement"  # the claim's words are there, no passage says it
    QUOTE = "quote"  # supported: `sentence` says it
    SUPPORTED = "supported"  # supported, no line to quote
    OFF_TOPIC = "off_topic"  # the source holds few of the claim's words
    GENERIC_PAGE = "generic_page"  # a site's front page cited for a fact
    FALLBACK = "fallback"  # scored without a trained checkpoint
    NOTE = "note"  # words given as they are: why a source is unavailable, what the app adds
    COPY = "copy"  # which copy of the page was read (the app's words: "read in the archived copy ...")


@dataclass(frozen=True)
class Reason:
    """One statement of a verdict's reason, as data: its kind, the claim part it is about, the
    terms or figures, and the page sentence it rests on with its offsets into the source text.
    `source`: the cited page's name when the statement speaks for one of several."""

    kind: str
    part: str = ""
    terms: tuple[str, ...] = ()
    claimed: str = ""  # the claim's figure, as the claim writes it
    given: str = ""  # the page's figure, as the page writes it
    thing: str = ""  # what the figures are of, in words ("the year the line reopened")
    sentence: str = ""
    start: int = -1
    end: int = -1
    text: str = ""  # NOTE only
    source: str = ""

    def to_json(self) -> dict:
        data = {k: v for k, v in asdict(self).items() if v not in ("", (), [], -1)}
        data["kind"] = str(self.kind)
        if self.terms:
            data["terms"] = list(self.terms)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Reason":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "terms" in known:
            known["terms"] = tuple(known["terms"])
        return cls(**known)


# The verdict head's classes, in the order of its probability columns.
LABELS = (Verdict.SUPPORTED.value, Verdict.PARTIALLY_SUPPORTED.value, Verdict.NOT_SUPPORTED.value)
