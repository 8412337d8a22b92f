"""One claim against one source text: passages, lexical pre-filter, cross-encoder.

No caching and no verdicts here (see scoring.py); this is the shared path of
training, evaluation and the app, so that all three measure the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from verifier_core.verification.evidence.passages import SourcePassage, Unit, passages, sentence_units
from verifier_core.verification.evidence.quote import BodySentence, page_sentences
from verifier_core.verification.evidence.sentences import body_sentences
from verifier_core.verification.evidence.support import Line, page_lines
from verifier_core.verification.judgement.features import SourceAnalysis, content_words, word_support_from_pieces
from verifier_core.verification.language.lexical import PassageBm25, numbers, terms
from verifier_core.verification.language.quantities import quantities


@dataclass
class PreparedSource:
    passages: list[SourcePassage]
    units: list[Unit]
    selected: list[int]  # passage indices sent to the cross-encoder, best lexical match first
    bm25: list[float]
    analysis: SourceAnalysis
    body: list[BodySentence] = field(default_factory=list)  # the sentences a quote may be
    title: str = ""  # the page's own title (its metadata), never a quote
    lines: list[Line] = field(default_factory=list)  # every sentence a part's evidence may be


@dataclass(frozen=True)
class _Page:
    """What a source text gives whatever the claim (read-only: shared by every claim)."""
    units: list[Unit]
    passages: list[SourcePassage]
    docs: list[list[str]]  # each passage's terms
    bm: PassageBm25
    terms: set[str]
    numbers: set[str]
    lower: str
    quantities: list
    body: list[BodySentence]
    lines: list[Line]


@lru_cache(maxsize=64)
def _page(text: str, max_words: int) -> _Page:
    # A suggestion search reranks the same candidate pages for every flagged claim of a
    # scan: each page is split and counted once, not once per claim. A few searches' worth
    # (20 candidates each) is kept: a page's terms take several times its size in memory,
    # and the model worker lives long.
    units = sentence_units(text)
    found = passages(text, max_words=max_words, units=units)
    docs = [terms(p.text) for p in found]
    figures = quantities(text)
    return _Page(units, found, docs, PassageBm25(docs), set().union(*map(set, docs)) if docs else set(),
                 numbers(text), text.lower(), figures, page_sentences(body_sentences(text), text, figures),
                 page_lines(text, figures))


def meta_text(meta: dict | None) -> str:
    """A page's metadata as text: its title, site name, date and authors, one a line."""
    meta = meta or {}
    authors = meta.get("authors") or []
    authors = [authors] if isinstance(authors, str) else [str(a) for a in authors if a]
    fields = [meta.get("title"), meta.get("site_name"), meta.get("date"), ", ".join(authors)]
    return "\n".join(str(f).strip() for f in fields if f and str(f).strip())


def prepare_source(claim: str, text: str, top_k: int, max_words: int = 64, meta: dict | None = None) -> PreparedSource:
    """Split, rank passages by BM25 against the claim, keep the `top_k` best. `meta` (the
    page's "title", "site_name", "date", "authors", any of them) counts as the page's
    text for what it mentions, and its figures as the page's own dates (never a rival)."""
    page = _page(text, max_words)
    found, docs, bm = page.passages, page.docs, page.bm
    query = terms(claim)
    scores = bm.scores(query) if docs else []
    # Ties (no shared words) keep document order, so that the opening passage wins.
    order = sorted(range(len(found)), key=lambda i: (-scores[i], i))
    selected = order[:top_k]
    unseen = bm.unseen_idf()
    ideal = sum(bm.idf.get(t, unseen) * (bm.params.k1 + 1) for t in set(query)) or 1.0
    analysis = SourceAnalysis(
        page_terms=set(page.terms),
        page_numbers=set(page.numbers),
        page_lower=page.lower,
        page_words=sum(len(d) for d in docs),
        bm25_norm=(scores[order[0]] / ideal) if found else 0.0,
        top_terms=[set(docs[i]) for i in selected],
        quantities=list(page.quantities),
        text=text,
    )
    extra = meta_text(meta)
    if extra:  # WiCE's pages carry their title and date as lines too: the head saw them so
        analysis.page_terms |= set(terms(extra))
        analysis.page_numbers |= numbers(extra)
        analysis.page_lower += "\n" + extra.lower()
        analysis.quantities += [replace(q, page_date=True) for q in quantities(extra)]
    return PreparedSource(list(found), list(page.units), selected, list(scores), analysis, list(page.body),
                          str((meta or {}).get("title") or ""), list(page.lines))


def cross_encode(model, tokenizer, claim: str, title: str, texts: list[str], max_length: int, batch_size: int = 16):
    """(pair probabilities, per-passage claim-piece support probabilities, claim piece offsets)."""
    return cross_encode_many(model, tokenizer, [(claim, title, texts)], max_length, batch_size)[0]


def cross_encode_many(model, tokenizer, queries: list[tuple[str, str, list[str]]], max_length: int,
                      batch_size: int = 16) -> list[tuple]:
    """`cross_encode` of several (claim, title, texts) at once: the pairs of all the claims
    share length-sorted batches (a suggestion stage's claims fill whole batches, with less
    padding, instead of each claim ending on a small one). Each pair is read as alone: a
    row of a batch attends only to its own pieces, so only float rounding can differ."""
    import torch

    from verifier_core.verification.model.pairs import collate, encode_claim_pairs, length_batches

    per_query = [encode_claim_pairs(tokenizer, claim, title, texts, max_length) for claim, title, texts in queries]
    items = [item for query in per_query for item in query]
    pair = np.zeros(len(items), dtype=np.float64)
    pieces: list[list[float]] = [[] for _ in items]
    with torch.inference_mode():
        for batch in length_batches(items, batch_size):
            tensors = collate([items[i] for i in batch])
            pair_logit, token_logit = model(**tensors)
            probs = torch.sigmoid(token_logit).numpy()
            for row, i in enumerate(batch):
                a, b = items[i].claim_slice
                pair[i] = float(torch.sigmoid(pair_logit[row]))
                pieces[i] = probs[row, a:b].tolist()
    out, at = [], 0
    for query in per_query:
        offsets = query[0].claim_offsets if query else []
        out.append((pair[at:at + len(query)], pieces[at:at + len(query)], offsets))
        at += len(query)
    return out


def analyse(model, tokenizer, claim: str, title: str, text: str, top_k: int, max_length: int, max_words: int = 64) -> PreparedSource:
    """Everything the verdict layer needs from one source (a model of None: lexical only)."""
    prepared = prepare_source(claim, text, top_k, max_words)
    if model is None or not prepared.selected:
        return prepared
    texts = [prepared.passages[i].text for i in prepared.selected]
    pair, pieces, offsets = cross_encode(model, tokenizer, claim, title, texts, max_length)
    words = content_words(claim)
    prepared.analysis.pair_probs = pair.tolist()
    prepared.analysis.word_support = [word_support_from_pieces(p, offsets[: len(p)], words) for p in pieces]
    return prepared
