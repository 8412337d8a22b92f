"""Query construction as SIDE found best: the sentence before the citation plus the
article title (the section title optionally), taken from a claim in its context."""
from __future__ import annotations

from dataclasses import dataclass

from verifier_core.text import normalise_space, split_sentences

CITATION_MARKER = "[CIT]"
# Longer queries add latency without adding recall: a claim is one sentence, and the
# encoder reads at most 128 tokens of a query anyway.
MAX_QUERY_WORDS = 256


@dataclass(frozen=True)
class Query:
    claim: str
    title: str = ""
    section: str = ""

    def text(self) -> str:
        """The search text: title, section (when given), then the claim, space-normalised
        and cut to MAX_QUERY_WORDS words."""
        parts = [self.title, self.section, self.claim]
        text = ". ".join(normalise_space(p) for p in parts if p and p.strip())
        words = text.split()
        if len(words) > MAX_QUERY_WORDS:
            text = " ".join(words[:MAX_QUERY_WORDS])
        return text


def claim_before_marker(text: str, marker: str = CITATION_MARKER) -> str:
    """The last sentence before the first citation marker (the whole text's last
    sentence when there is no marker)."""
    before = text.split(marker, 1)[0] if marker in text else text
    sentences = split_sentences(before.replace(marker, " "))
    return sentences[-1] if sentences else ""


def query_from_kilt(record: dict, *, with_section: bool = False) -> Query:
    """A query from a WAFER / KILT input line: {"id", "input", "meta": {...}}."""
    meta = record.get("meta") or {}
    if not isinstance(meta, dict):
        meta = {}
    text = record.get("input")
    claim = claim_before_marker(text) if isinstance(text, str) else ""
    if not claim:
        # No text before the marker (a citation at the start of a paragraph): fall back
        # to the last context sentence WAFER supplies.
        sentences = meta.get("sentences") or []
        claim = sentences[-1] if sentences and isinstance(sentences[-1], str) else ""
    title = meta.get("wikipedia_title") or ""
    section = (meta.get("wikipedia_section") or "") if with_section else ""
    return Query(claim.replace(CITATION_MARKER, " ").strip(), str(title), str(section))
