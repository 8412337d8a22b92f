"""Synthetic corpora for tests and speed benchmarks: pronounceable made-up words with a
Zipf-like frequency curve and per-document topic words, so that queries have answers.
Nothing here is real text; quality is measured on real data (bench/ uses WiCE)."""
from __future__ import annotations

import numpy as np

from verifier_core.retrieval.corpus import Document

_ONSETS = ["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
           "br", "cl", "dr", "gr", "pl", "st", "tr", "sh", "ch", "th"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ea"]


def vocabulary(size: int, seed: int = 0) -> list[str]:
    """`size` distinct made-up words of two to four syllables."""
    rng = np.random.default_rng(seed)
    seen: dict[str, None] = {}
    while len(seen) < size:
        syllables = rng.integers(2, 5)
        word = "".join(_ONSETS[rng.integers(len(_ONSETS))] + _VOWELS[rng.integers(len(_VOWELS))]
                       for _ in range(syllables))
        seen.setdefault(word, None)
    return list(seen)


def documents(n_docs: int, words_per_doc: int, *, vocab_size: int = 20_000, topic_words: int = 30,
              topic_share: float = 0.2, sites: int = 50, zipf_offset: float = 150.0,
              seed: int = 0) -> list[Document]:
    """Documents mixing Zipf-distributed background words with words of their own topic
    (every 10 documents share a topic). Drawn in bulk: a million passages take seconds.

    The Zipf curve starts at rank `zipf_offset` because in real text the ~150 most
    frequent words are stop words that the tokeniser removes; without the offset the top
    made-up words would sit in nearly every passage, which real terms never do."""
    rng = np.random.default_rng(seed)
    vocab = np.asarray(vocabulary(vocab_size, seed))
    weights = 1.0 / (np.arange(vocab_size) + zipf_offset)
    n_topic = int(words_per_doc * topic_share)
    background = rng.choice(vocab_size, size=(n_docs, words_per_doc - n_topic), p=weights / weights.sum())
    topics = rng.integers(vocab_size, size=((n_docs + 9) // 10, topic_words))
    own = topics[np.arange(n_docs) // 10, rng.integers(topic_words, size=(n_docs, n_topic)).T].T
    picks = rng.permuted(np.concatenate([background, own], axis=1), axis=1)
    return [Document(f"https://site{i % sites}.example/doc/{i}", f"Document {i}", " ".join(vocab[row]))
            for i, row in enumerate(picks)]


def queries_from(docs: list[Document], n: int, words: int = 8, seed: int = 1) -> list[tuple[str, int]]:
    """(query text, index of the document it was drawn from)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        d = int(rng.integers(len(docs)))
        tokens = docs[d].text.split()
        out.append((" ".join(rng.choice(tokens, size=min(words, len(tokens)), replace=False)), d))
    return out
