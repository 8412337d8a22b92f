"""The one tokeniser every sparse component shares: index, queries, anchor expansion.

Sparse scores are only comparable when the index and the query were tokenised the same
way, so the tokeniser has a name that the index manifest records and checks.
"""
from __future__ import annotations

import re
from functools import lru_cache

TOKENIZER_NAME = "words-casefold-nltkstop-snowball-en/1"

# Han and kana are written without spaces: each character is a token, otherwise a whole
# sentence would be one unmatchable "word". Other scripts (Latin, Cyrillic, Greek,
# Arabic, Hangul...) separate words with spaces and go through the word pattern.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
# Words longer than this are base64 blobs, hashes or glued URLs, never useful terms.
_MAX_TOKEN_CHARS = 40


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    # The list holds "don't" as well as "don"; our words never contain apostrophes.
    return frozenset(w for w in STOPWORDS_EN_PLUS if "'" not in w)


# Corpora repeat words, so stems are memoised: a dict lookup is several times cheaper
# than a call into the stemmer, and tokenising is most of an index build.
_STEMS: dict[str, str] = {}
_MAX_STEMS = 1_000_000


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


def _stem(word: str) -> str:
    if len(_STEMS) >= _MAX_STEMS:
        _STEMS.clear()  # bounded memory; rebuilt from the words that still occur
    stem = _STEMS[word] = _stemmer().stemWord(word)
    return stem


def words(text: str) -> list[str]:
    """Case-folded words of `text`, stop words included (anchor matching needs them)."""
    return _TOKEN.findall(text.casefold())


def tokenize(text: str) -> list[str]:
    """BM25 terms: words without stop words or overlong blobs, Snowball-stemmed."""
    stop, stems = stop_words(), _STEMS
    kept = [w for w in words(text) if w not in stop and len(w) <= _MAX_TOKEN_CHARS]
    return [stems.get(w) or _stem(w) for w in kept]


def term_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, term) of each BM25 term of `text`, with offsets into `text`: where
    in a claim each term sits (word-level support, claim parts)."""
    stop, out = stop_words(), []
    for match in _TOKEN.finditer(text):
        word = match.group(0).casefold()
        if word not in stop and len(word) <= _MAX_TOKEN_CHARS:
            out.append((match.start(), match.end(), _STEMS.get(word) or _stem(word)))
    return out


def tokenize_many(texts: list[str]) -> list[list[str]]:
    return [tokenize(t) for t in texts]
