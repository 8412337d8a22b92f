"""Verifying a claim against its cited sources."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.claims import reasons as said
from sideapp.claims.changes import findings_changed
from sideapp.claims.combine import Cited, citation_name, reasons_with_citations, speaking_for, stronger_alone
from sideapp.claims.models import Claim, ClaimCitation
from sideapp.sources.models import Source
from sideapp.sources.reading import OWN, citation_readings, claim_copies_wanted
from verifier_core.verification import ClaimInput, Evidence, ReasonKind, SourceVerdict, Verdict, get_verifier
from verifier_core.verification.judgement.reasons import RULES
from verifier_core.verification.judgement.verdicts import HIGH


def verifier():
    quantize = {"fp32": False, "int8": True}.get(settings.SIDE_VERIFIER_QUANT)  # unset: the checkpoint's own
    return get_verifier(settings.SIDE_VERIFIER_DIR, quantize=quantize)


NOT_CHECKABLE = ("not checkable on its own: its words make no statement a source could support "
                 "(no sentence, item, cell or field of enough words around them)")


def claim_input(claim: Claim) -> ClaimInput:
    """The statement the claim is checked as (its own words when they stand alone)."""
    return ClaimInput(text=claim.statement, context=claim.context, title=claim.article.title,
                      section=claim.section_path)


def evidence_json(evidence: Evidence | None, **extra) -> dict | None:
    if evidence is None:
        return None
    # `quote`: the line quoted as saying it (the sentences are every part's, in page order).
    return {**evidence.to_json(), "sentence_spans": [list(s) for s in evidence.sentence_spans],
            "quote": evidence.quote, **extra}


@dataclass
class _Judged:
    verdict: str
    score: float | None
    evidence: dict | None
    reasons: list[dict]  # verifier_core Reasons as JSON (sideapp.claims.reasons)
    confidence: str = ""
    parts: list = field(default_factory=list)
    page_state: str = ""  # what became of the cited page (ClaimCitation.page_state)
    copy: dict | None = None  # which copy was read (ClaimCitation.copy)

    @property
    def reason(self) -> str:
        return said.reason_words(self.reasons)


def claim_verify(*, claim: Claim) -> Claim:
    """Score each citation and the claim on the union of their evidence; store all at once.
    A claim that is not checkable on its own gets no verdict, only the reason in words."""
    links = list(claim.claim_citations.select_related("citation__source__document"))
    if not claim.checkable:
        _store(claim, links, {link.pk: _Judged("", None, None, said.note(NOT_CHECKABLE)) for link in links}, None)
        return claim
    judged, texts = {}, []
    # The live page, or the archived copy as it was cited, or both (sideapp.sources.reading).
    readings = citation_readings(links)
    for link in links:
        reading = readings[link.pk]
        if reading.unavailable:
            judged[link.pk] = _Judged(Verdict.SOURCE_UNAVAILABLE, None, None, said.note(reading.unavailable), HIGH,
                                      page_state=reading.state.kind if reading.state else "")
        else:
            texts.extend((link, kind, text) for kind, text in reading.texts())
    # A copy (an archive's, or the citation's own) is of the cited address, not of wherever
    # the live one leads now.
    urls = [link.citation.source.url if kind in ("copy", OWN) else link.citation.source.final_url
            or link.citation.source.url for link, kind, _ in texts]
    metas = [page_meta(readings[link.pk].copy if kind == "copy" else link.citation.source.document)
             for link, kind, _ in texts]
    result = (verifier().score_claim(claim_input(claim), [t for _, _, t in texts], urls=urls, metas=metas)
              if texts else None)
    if result is not None:
        read: dict[int, dict] = {}
        for (link, kind, _), one in zip(texts, result.sources):
            read.setdefault(link.pk, {})[kind] = one
        if claim_copies_wanted(claim=claim, links=links, readings=readings, verdicts=read):
            return claim  # judged again once the archives have answered
        for pk, verdicts in read.items():
            judged[pk] = _from_reading(readings[pk], verdicts)
    _store(claim, links, judged, result)
    return claim


def sources_to_capture(claim: Claim) -> list[int]:
    """With SIDE_ARCHIVE_CAPTURE on: the claim's live pages that support it on their own (not
    through an archived copy), not sent to an archive within SIDE_ARCHIVE_CAPTURE_DAYS. The
    capture itself is a request to the archive, made on the fetch queue (pipeline.stages)."""
    if not settings.SIDE_ARCHIVE_CAPTURE:
        return []
    since = timezone.now() - timedelta(days=settings.SIDE_ARCHIVE_CAPTURE_DAYS)
    rows = (ClaimCitation.objects.filter(claim=claim, verdict=Verdict.SUPPORTED, citation__source__status=Source.Status.OK,
                                         citation__source__used_archive=False)
            .exclude(citation__source__captured_at__gt=since).values_list("citation__source_id", "copy"))
    return sorted({pk for pk, copy in rows if not copy or copy.get("read") == "live"})


def page_meta(document) -> dict:
    """What a page says about itself (title, site, date, authors): the verifier counts it as
    the page's text for what the page mentions ("no passage mentions 2016" is false of a page
    dated 2016-06-11). Read with getattr: a page stored before metadata has none."""
    meta = dict(getattr(document, "meta", None) or {})
    meta["title"] = meta.get("title") or getattr(document, "title", "") or ""
    return meta


def _from_reading(reading, verdicts: dict) -> _Judged:
    """The citation's verdict from the text it was read in, saying which copy that was."""
    _kind, one, note, copy = reading.choose(verdicts)
    judged = _from_source(one)
    return replace(judged, reasons=judged.reasons + said.note(note, ReasonKind.COPY),
                   page_state=reading.state.kind if reading.state else "", copy=copy)


def _from_source(one: SourceVerdict) -> _Judged:
    reasons = said.as_json(one.reasons) or said.note(one.reason or "")
    return _Judged(one.verdict, one.score, evidence_json(one.evidence), reasons, one.confidence,
                   [p.to_json() for p in one.parts])


def _claim_outcome(claim: Claim, links, judged, result) -> _Judged:
    if not claim.checkable:
        return _Judged("", None, None, said.note(NOT_CHECKABLE))
    if claim.needs_citation or not links:
        return _Judged("", None, None, said.note("needs a source: the claim has no citation"))
    if result is None:
        reasons = list({str(r): r for j in judged.values() for r in j.reasons}.values())
        return _Judged(Verdict.SOURCE_UNAVAILABLE, None, None, reasons, HIGH)
    evidence = evidence_json(result.evidence[0]) if result.evidence else None
    return _Judged(result.verdict, result.score, evidence, said.as_json(result.reasons) or said.note(result.reason or ""),
                   result.confidence, [p.to_json() for p in result.parts])


def _with_citations(outcome: _Judged, links, judged) -> _Judged:
    """The claim never weaker than its best citation alone, and its reason naming its
    citations (sideapp.claims.combine)."""
    if not outcome.verdict:
        return outcome
    cited = [(judged[link.pk], Cited(citation_name(link.citation), judged[link.pk].verdict,
                                     judged[link.pk].confidence, judged[link.pk].score,
                                     contradicts=said.contradicts(judged[link.pk].reasons))) for link in links]
    best = stronger_alone(outcome.verdict, [c for _, c in cited])
    if best is not None:  # the claim takes that citation's verdict
        own = next(j for j, c in cited if c is best)
        outcome = replace(own, score=max(own.score or 0.0, outcome.score or 0.0))
    speaker = speaking_for(outcome.verdict, [c for _, c in cited]) if len(cited) > 1 else None
    if speaker is not None:  # its evidence and words are those of a source that carries it
        own = next(j for j, c in cited if c is speaker)
        outcome = replace(outcome, evidence=own.evidence, reasons=own.reasons, parts=own.parts)
    return replace(outcome, reasons=reasons_with_citations(outcome.reasons, outcome.verdict, [c for _, c in cited],
                                                           speaker))


def _with_copies(reasons: list[dict], citations: list[list[dict]]) -> list[dict]:
    """The claim's reasons, with its citations' notes on which archived copy they read."""
    kept = {(r.get("kind"), r.get("text")) for r in reasons}
    notes = [r for rs in citations for r in rs if r.get("kind") == ReasonKind.COPY]
    return reasons + list({r["text"]: r for r in notes if (r["kind"], r["text"]) not in kept}.values())


def _store(claim: Claim, links, judged, result) -> None:
    outcome = _with_citations(_claim_outcome(claim, links, judged, result), links, judged)
    outcome = replace(outcome, reasons=_with_copies(outcome.reasons, [judged[link.pk].reasons for link in links]))
    flagged, needs_look = Claim.flag_rule(verdict=outcome.verdict, confidence=outcome.confidence,
                                          needs_citation=claim.needs_citation or not links,
                                          checkable=claim.checkable, tagged=claim.tagged_revision is not None,
                                          hint=said.hinted(outcome.reasons))
    with transaction.atomic():
        for link in links:
            j = judged[link.pk]
            ClaimCitation.objects.filter(pk=link.pk).update(
                verdict=j.verdict, score=j.score, evidence=j.evidence, reason=j.reason[:2000], reasons=j.reasons,
                confidence=j.confidence, parts=j.parts, page_state=j.page_state, copy=j.copy)
        Claim.objects.filter(pk=claim.pk).update(
            verify_state=Claim.State.DONE, verify_reason=outcome.reason[:2000], reasons=outcome.reasons,
            verdict=outcome.verdict,
            score=outcome.score, evidence=outcome.evidence, flagged=flagged, verified_at=timezone.now(),
            confidence=outcome.confidence, parts=outcome.parts, needs_look=needs_look,
            method=f"{result.model_version} {RULES}" if result else "",
            # Suggestions wait until the scan's sources are in the corpus (stages dispatches them).
            suggest_state=Claim.State.PENDING if Claim.wants_suggestions(
                verdict=outcome.verdict, flagged=flagged, needs_look=needs_look,
                tagged=claim.tagged_revision is not None, checkable=claim.checkable) else "", suggest_reason="")
        findings_changed(articles=[claim.article_id])
    claim.refresh_from_db()
