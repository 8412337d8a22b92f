"""Editors' judgements as labelled claims, in `verify_jsonl`'s input shape plus the
people's verdict (the same rows `export_judgements` writes for annotators).

A claim an editor marked verified by hand, or whose flag they dismissed because "the
source does support the claim", is a claim its cited source supports. These are the
labels a false alarm leaves behind: the flags and "the source gives ..., not ..." reasons
that editors overrule. Editors' judgements give no other label (a tag or a dismissal for
another reason says nothing about the source), and only a claim with one readable cited
source is written: the judgement covers its citations together.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from sideapp.claims.models import Claim, ClaimCitation, ClaimReview
from sideapp.sources.models import Source, SourceDocument
from verifier_core.verification import Verdict


def editor_judgement_rows() -> Iterator[dict]:
    editors: dict[int, set[int]] = defaultdict(set)
    for claim_id, user_id in (ClaimReview.objects.filter(ClaimReview.SAYS_SUPPORTED, suggestion=None, claim__checkable=True)
                              .values_list("claim_id", "user_id")):
        editors[claim_id].add(user_id)
    cited = (ClaimCitation.objects.filter(claim_id__in=list(editors))
             .select_related("claim__article", "citation__source").order_by("claim_id", "position"))
    by_claim: dict[int, list[ClaimCitation]] = defaultdict(list)
    for link in cited:
        by_claim[link.claim_id].append(link)
    texts = dict(SourceDocument.objects.filter(source_id__in={link.citation.source_id for link in cited})
                 .values_list("source_id", "text"))
    for claim_id, links in by_claim.items():
        text = texts.get(links[0].citation.source_id) if len(links) == 1 else None
        if text:
            yield _row(links[0], text, len(editors[claim_id]))


def labelled_row(*, id: str, claim: Claim, claim_text: str, source: Source, text: str, gold: str, votes: int,
                 agreement: float, verifier_verdict: str | None) -> dict:
    """One labelled claim: `verify_jsonl`'s input shape plus the people's verdict."""
    return {"id": id, "claim": claim_text, "context": claim.context, "title": claim.article.title,
            "section": claim.section_path, "source": {"url": source.url, "title": source.title, "text": text},
            "gold_verdict": gold, "votes": votes, "agreement": agreement, "verifier_verdict": verifier_verdict or None}


def _row(link: ClaimCitation, text: str, votes: int) -> dict:
    claim = link.claim
    return {**labelled_row(id=f"claim{claim.pk}-editors", claim=claim, claim_text=claim.statement,
                           source=link.citation.source, text=text, gold=Verdict.SUPPORTED.value, votes=votes,
                           agreement=1.0, verifier_verdict=link.verdict),
            "reason": link.reason, "from": "editors"}
