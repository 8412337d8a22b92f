"""The verifier the app calls: load once per process, score citations, rerank.

    verifier = Verifier.load(Path("models/verifier"))        # or get_verifier()
    verdict = verifier.score_source(ClaimInput("...", title="..."), source_text)
    claim_verdict = verifier.score_claim(claim, [text_a, text_b])

A source's score is the calibrated head's over features of its best passages (the
cross-encoder's max over passages is one of them); a claim with several citations is
judged on the union of their evidence, and each citation keeps its own verdict.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from dataclasses import replace
from pathlib import Path

from verifier_core.verification.evidence.engine import PreparedSource, cross_encode_many, prepare_source
from verifier_core.verification.evidence.guard import as_text, claim_problem, source_problem
from verifier_core.verification.evidence.parts import UNTRAINED, WordModel
from verifier_core.verification.evidence.quote import select_evidence
from verifier_core.verification.evidence.support import parts_with_evidence, shown_evidence
from verifier_core.verification.judgement.calibration import VerdictHead
from verifier_core.verification.judgement.features import content_words, word_support_from_pieces
from verifier_core.verification.judgement.judge import Judgement, judge
from verifier_core.verification.judgement.reasons import is_generic_page, words
from verifier_core.verification.judgement.verdicts import HIGH
from verifier_core.verification.model import fallback
from verifier_core.verification.model.cache import ScoreCache, cache_key
from verifier_core.verification.types import (
    UNAVAILABLE,
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

log = logging.getLogger(__name__)
CROSS_ENCODER = "cross-encoder"
REQUIRED_FILES = ("model.safetensors", "config.json", "encoder_config.json", "head.json")
WORD_MODEL_FILE = "parts.json"  # the claim-parts word model (optional: older checkpoints lack it)
_lock = threading.Lock()
_shared: dict[str, "Verifier"] = {}


def default_model_dir() -> Path:
    """SIDE_VERIFIER_DIR, else models/verifier/ at the project root."""
    env = os.environ.get("SIDE_VERIFIER_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models" / "verifier"


def get_verifier(model_dir: Path | None = None, *, quantize: bool | None = None) -> "Verifier":
    """The process's one Verifier for `model_dir` (loaded on first use); `quantize` as
    `Verifier.load` takes it (None: as the checkpoint's config says)."""
    folder = str(Path(model_dir or default_model_dir()).resolve())
    key = f"{folder}|{quantize}"
    with _lock:
        if key not in _shared:
            _shared[key] = Verifier.load(Path(folder), quantize=quantize)
        return _shared[key]


def _model_version(model_dir: Path) -> str:
    digest = hashlib.sha256()
    for name in (*REQUIRED_FILES, WORD_MODEL_FILE):
        if (model_dir / name).exists():
            digest.update((model_dir / name).read_bytes())
    return f"{CROSS_ENCODER}:{digest.hexdigest()[:12]}"


class Verifier:
    def __init__(self, *, model, tokenizer, head: VerdictHead | None, config: dict, model_version: str,
                 cache: ScoreCache | None = None, word_model: WordModel = UNTRAINED):
        self.model, self.tokenizer, self.head, self.word_model = model, tokenizer, head, word_model
        self.config = config
        self.model_version = model_version
        self.method = CROSS_ENCODER if model is not None else fallback.METHOD
        self.top_k = int(config.get("top_k", 4))
        self.max_length = int(config.get("max_length", 192))
        self.max_words = int(config.get("passage_words", 64))
        self.cache = cache if cache is not None else ScoreCache()  # an empty one is falsy (len 0)

    @classmethod
    def load(cls, model_dir: Path | None = None, *, cache: ScoreCache | None = None, quantize: bool | None = None) -> "Verifier":
        """The trained verifier in `model_dir`; the bi-encoder fallback when it holds no
        checkpoint. A directory with a broken checkpoint raises VerifierModelError."""
        model_dir = Path(model_dir or default_model_dir())
        if not (model_dir / "model.safetensors").exists():
            log.warning("no verifier checkpoint in %s: using the bi-encoder fallback", model_dir)
            return cls(model=None, tokenizer=None, head=None, config={"top_k": fallback.TOP_K}, model_version=fallback.fallback_version(), cache=cache)
        try:
            return cls._load_checkpoint(model_dir, cache, quantize)
        except VerifierModelError:
            raise
        except Exception as exc:  # any failure here means the files are unusable
            raise VerifierModelError(f"verifier checkpoint in {model_dir} is unusable: {exc}") from exc

    @classmethod
    def _load_checkpoint(cls, model_dir: Path, cache, quantize):
        from verifier_core.encoder import load_encoder
        from verifier_core.verification.model.cross_encoder import load_model

        missing = [n for n in REQUIRED_FILES if not (model_dir / n).exists()]
        if missing:
            raise VerifierModelError(f"verifier checkpoint in {model_dir} is incomplete: missing {missing}")
        head = VerdictHead.from_dict(json.loads((model_dir / "head.json").read_text()))
        model, config = load_model(model_dir)
        version = _model_version(model_dir)
        if quantize if quantize is not None else config.get("quantize", False):
            model = _quantize(model)
            version += ":int8"  # int8 scores differ a little: never share cache entries
        tokenizer, _ = load_encoder()  # the checkpoint keeps the base model's vocabulary
        words = model_dir / WORD_MODEL_FILE  # older checkpoints have none: the untrained word model
        word_model = WordModel.from_dict(json.loads(words.read_text())) if words.exists() else UNTRAINED
        return cls(model=model, tokenizer=tokenizer, head=head, config=config, model_version=version, cache=cache,
                   word_model=word_model)

    # --- public API --------------------------------------------------------------

    def score_source(self, claim: ClaimInput, source_text: str, url: str | None = None,
                     meta: dict | None = None) -> SourceVerdict:
        return self.score_claim(claim, [source_text], urls=[url], metas=[meta]).sources[0]

    def score_claim(self, claim: ClaimInput, sources: list[str], urls: list[str | None] | None = None,
                    metas: list[dict | None] | None = None) -> ClaimVerdict:
        """Each source scored on its own, and the claim on the union of all of them; `urls`
        (parallel to `sources`, optional) let a generic front page be named as such; `metas`
        (parallel too, optional: each page's "title", "site_name", "date", "authors") count
        as the page's text for what it mentions."""
        generic = [is_generic_page(u) for u in (urls or [])] + [False] * len(sources)
        problem = claim_problem(claim.text if claim else None)
        texts = [as_text(s) for s in sources]
        if problem:
            unavailable = [self._unavailable(problem) for _ in texts]
            return ClaimVerdict(0.0, UNAVAILABLE, self.method, self.model_version, unavailable, reason=problem,
                                confidence=HIGH, reasons=[Reason(ReasonKind.NOTE, text=problem)])
        metas = list(metas or []) + [None] * (len(texts) - len(metas or []))
        prepared = [self._guarded(self._prepare, claim, t, m) for t, m in zip(texts, metas)]
        verdicts = [p if isinstance(p, SourceVerdict) else self._guarded(self._source_verdict, claim, t, p, g)
                    for p, t, g in zip(prepared, texts, generic)]
        usable = [p for p, v in zip(prepared, verdicts) if isinstance(p, PreparedSource) and v.verdict != UNAVAILABLE]
        if not usable:
            reason = "; ".join(sorted({v.reason for v in verdicts if v.reason})) or "no sources"
            return ClaimVerdict(0.0, UNAVAILABLE, self.method, self.model_version, verdicts, reason=reason,
                                confidence=HIGH, reasons=[Reason(ReasonKind.NOTE, text=reason)])
        # The best-supporting source's evidence first: the claim's quote is its line.
        ranked = sorted((v for v in verdicts if v.evidence), key=lambda v: -v.score)
        evidence = [v.evidence for v in ranked if v.verdict != Verdict.NOT_SUPPORTED]
        if not evidence:
            best = max((v for v in verdicts if v.evidence), key=lambda v: v.score, default=None)
            evidence = [best.evidence] if best else []
        all_generic = all(g for g, v in zip(generic, verdicts) if v.verdict != UNAVAILABLE)
        j = self._judge(claim, usable, all_generic, evidence[0] if evidence else None)
        reasons = self._with_note(j.reasons)
        return ClaimVerdict(j.score, j.verdict, self.method, self.model_version, verdicts, evidence,
                            reason=words(reasons), confidence=j.confidence,
                            parts=_parts_of(j.parts, verdicts, evidence[0] if evidence else None), reasons=reasons)

    def rerank(self, claim: ClaimInput, candidates: list[str]) -> list[tuple[int, SourceVerdict]]:
        """Candidates (retrieved passages or pages) best first, with scores on the same
        scale as score_source, so a suggestion can be compared with the current citation."""
        return self.rerank_many([(claim, candidates)])[0]

    def rerank_many(self, searches: list[tuple[ClaimInput, list[str]]]) -> list[list[tuple[int, SourceVerdict]]]:
        """`rerank` of several claims' candidates at once (a suggestion stage's claims): the
        cross-encoder reads all their passages in shared batches; each claim's ranking is the
        one `rerank` gives it alone (scores to float rounding)."""
        return [sorted(enumerate(scored), key=lambda pair: (-pair[1].score, pair[0]))
                for scored in self.score_sources_many(searches)]

    def score_sources(self, claim: ClaimInput, sources: list[str]) -> list[SourceVerdict]:
        """`score_source` of each text on its own (no URL), in one go: the cross-encoder
        reads the selected passages of all of them together, each distinct passage once,
        instead of a small batch per text; no claim-level judgement (nobody reads it)."""
        return self.score_sources_many([(claim, sources)])[0]

    def score_sources_many(self, searches: list[tuple[ClaimInput, list[str]]]) -> list[list[SourceVerdict]]:
        """`score_sources` of several (claim, texts) at once, in one cross-encoder run."""
        texts = [[as_text(s) for s in sources] for _, sources in searches]
        prepared = [self._selected(claim, ts) for (claim, _), ts in zip(searches, texts)]
        if self.model is not None:
            ready = [(claim, [p for p in ps if isinstance(p, PreparedSource)]) for (claim, _), ps in zip(searches, prepared)]
            try:
                self._cross_encode_many(ready)
            except Exception:  # noqa: BLE001 - one bad text must not take the others down
                log.exception("batched cross-encoding failed; scoring each text on its own")
                prepared = [[p if isinstance(p, SourceVerdict) else self._guarded(self._prepare, claim, t)
                             for p, t in zip(ps, ts)] for (claim, _), ps, ts in zip(searches, prepared, texts)]
        return [[p if isinstance(p, SourceVerdict) else self._guarded(self._source_verdict, claim, t, p)
                 for p, t in zip(ps, ts)] for (claim, _), ps, ts in zip(searches, prepared, texts)]

    # --- internals ---------------------------------------------------------------

    def _guarded(self, step, *args):
        """One source that breaks the pipeline must not take the claim's other sources
        (or the worker) down with it: it becomes source_unavailable, and is logged."""
        try:
            return step(*args)
        except Exception as exc:  # noqa: BLE001 - reported in the verdict and the log
            log.exception("verification failed for one source")
            return self._unavailable(f"verification failed: {type(exc).__name__}")

    def _prepare(self, claim: ClaimInput, text: str | None, meta: dict | None = None) -> PreparedSource | SourceVerdict:
        prepared = self._select(claim, text, meta)
        if isinstance(prepared, SourceVerdict):
            return prepared
        if self.model is None:
            texts = [prepared.passages[i].text for i in prepared.selected]
            prepared.analysis.pair_probs = fallback.passage_cosines(claim.text, texts, self.cache).tolist()
        else:
            self._cross_encode(claim, prepared)
        return prepared

    def _select(self, claim: ClaimInput, text: str | None, meta: dict | None = None) -> PreparedSource | SourceVerdict:
        """The passages the cross-encoder will read (lexical work only)."""
        problem = source_problem(text)
        if problem:
            return self._unavailable(problem)
        prepared = prepare_source(claim.text, text, self.top_k, self.max_words, meta)
        if not prepared.selected:
            return self._unavailable("no passages in the source text")
        return prepared

    def _selected(self, claim: ClaimInput, texts: list[str | None]) -> list[PreparedSource | SourceVerdict]:
        """Each text's passages to read (the fallback reads them at once: it scores per text)."""
        problem = claim_problem(claim.text if claim else None)
        if problem:
            return [self._unavailable(problem) for _ in texts]
        step = self._prepare if self.model is None else self._select
        return [self._guarded(step, claim, t) for t in texts]

    def _cross_encode(self, claim: ClaimInput, *prepared: PreparedSource) -> None:
        self._cross_encode_many([(claim, list(prepared))])

    def _cross_encode_many(self, work: list[tuple[ClaimInput, list[PreparedSource]]]) -> None:
        """Fill pair probabilities and word support of each prepared source, from the cache
        where possible; the rest in one cross-encoder run, each distinct pair once."""
        texts = [[[p.passages[i].text for i in p.selected] for p in prepared] for _, prepared in work]
        read = self._encoded_many([(claim.text, claim.title, [t for ts in per for t in ts])
                                   for (claim, _), per in zip(work, texts)])
        for (claim, prepared), per, values in zip(work, texts, read):
            values, words = iter(values), content_words(claim.text)
            for one, ts in zip(prepared, per):
                mine = [next(values) for _ in ts]
                one.analysis.pair_probs = [v["pair"] for v in mine]
                one.analysis.word_support = [
                    word_support_from_pieces(v["pieces"], [tuple(o) for o in v["offsets"]][: len(v["pieces"])], words)
                    for v in mine
                ]

    def _encoded(self, claim: str, title: str, texts: list[str]) -> list[dict]:
        return self._encoded_many([(claim, title, texts)])[0]

    def _encoded_many(self, queries: list[tuple[str, str, list[str]]]) -> list[list[dict]]:
        """The cross-encoder's reading of each (claim, title, text) ("pair", "pieces",
        "offsets"), from the cache where possible (a pair read before, in this search or an
        earlier one, is never read again), the rest in one run."""
        keys = [[cache_key(self.model_version, claim, title, t) for t in texts] for claim, title, texts in queries]
        values = {k: self.cache.get(k) for ks in keys for k in ks}
        todo: dict[tuple[str, str], dict[str, str]] = {}  # (claim, title) -> {key: text}, first seen first
        for (claim, title, texts), ks in zip(queries, keys):
            for k, t in zip(ks, texts):
                if values[k] is None:  # a repeat within the run keeps its first place
                    todo.setdefault((claim, title), {})[k] = t
        if todo:
            runs = cross_encode_many(self.model, self.tokenizer, [(c, ti, list(group.values())) for (c, ti), group in todo.items()],
                                     self.max_length)
            for group, (pair, pieces, offsets) in zip(todo.values(), runs):
                for n, k in enumerate(group):
                    values[k] = {"pair": float(pair[n]), "pieces": pieces[n], "offsets": [list(o) for o in offsets]}
                    self.cache.put(k, values[k])
        return [[values[k] for k in ks] for ks in keys]

    def _judge(self, claim: ClaimInput, prepared: list[PreparedSource], generic: bool, evidence: Evidence | None) -> Judgement:
        """Score, verdict, confidence, parts and reasons from one or several sources; `evidence`'s
        first sentence is the line quoted as saying it."""
        sentence = evidence.quote if evidence and evidence.quote else None
        at = evidence.quote_span if sentence else None
        return judge(claim.text, [p.analysis for p in prepared], head=self.head if self.model is not None else None,
                     word_model=self.word_model, generic=generic, evidence_sentence=sentence, evidence_at=at,
                     read=(lambda pairs: self.read_pairs(claim.title, pairs)) if self.model is not None else None)

    def read_pairs(self, title: str, pairs: list[tuple[str, str]]) -> list[float]:
        """The cross-encoder's probability that each text states its claim (the pair head): the
        figure check's few pairs, one run per claim wording."""
        by_claim: dict[str, list[str]] = {}
        for claim, text in pairs:
            by_claim.setdefault(claim, []).append(text)
        read = {claim: iter(self._encoded(claim, title, texts)) for claim, texts in by_claim.items()}
        return [next(read[claim])["pair"] for claim, _ in pairs]

    def _source_verdict(self, claim: ClaimInput, text: str, prepared: PreparedSource, generic: bool = False) -> SourceVerdict:
        pair = prepared.analysis.pair_probs
        ranked = sorted(range(len(pair)), key=lambda n: (-pair[n], n))
        passage_scores = [
            PassageScore(prepared.passages[prepared.selected[n]].start, prepared.passages[prepared.selected[n]].end, float(pair[n]))
            for n in ranked
        ]
        order = [prepared.selected[n] for n in ranked]
        evidence = select_evidence(text, claim.text, prepared.body, prepared.passages, order, prepared.title)
        j = self._judge(claim, [prepared], generic, evidence)
        if j.figures_at:  # a contradicted figure: quote the line giving the source's own
            evidence = select_evidence(text, claim.text, prepared.body, prepared.passages, order, prepared.title,
                                       j.figures_at) or evidence
        parts = parts_with_evidence(j.parts, text, prepared.lines)
        evidence = shown_evidence(evidence, parts, text)
        return SourceVerdict(
            score=j.score,
            verdict=j.verdict,
            method=self.method,
            model_version=self.model_version,
            reason=words(self._with_note(j.reasons)),
            reasons=self._with_note(j.reasons),
            evidence=evidence,
            passage_scores=passage_scores,
            probabilities=j.probabilities,
            features=j.features,
            confidence=j.confidence,
            parts=parts,
        )

    def _unavailable(self, reason: str) -> SourceVerdict:
        # Nothing to weigh: an unreadable source is a certain verdict, not a guess.
        return SourceVerdict(0.0, UNAVAILABLE, self.method, self.model_version, reason=reason, confidence=HIGH,
                             reasons=[Reason(ReasonKind.NOTE, text=reason)])

    def _with_note(self, reasons: list[Reason]) -> list[Reason]:
        return [*reasons, Reason(ReasonKind.FALLBACK)] if self.model is None else list(reasons)


def _parts_of(parts: list, verdicts: list[SourceVerdict], evidence: Evidence | None) -> list:
    """The claim's parts with the sentences of the source its quote is from (one page's
    lines, as its evidence is)."""
    source = next((v for v in verdicts if evidence is not None and v.evidence is evidence), None)
    if source is None or [p.text for p in source.parts] != [p.text for p in parts]:
        return parts
    return [replace(p, evidence=mine.evidence) for p, mine in zip(parts, source.parts)]


def _quantize(model):
    """int8 dynamic quantisation of the Linear layers (CPU inference only)."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch deprecates the eager API but it works
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
