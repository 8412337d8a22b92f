"""Errors a caller can act on: each message says what is wrong and what to do."""
from __future__ import annotations


class RetrievalIndexError(RuntimeError):
    """Base class: the index cannot be used as it is."""


class IndexNotFoundError(RetrievalIndexError):
    pass


class CorruptIndexError(RetrievalIndexError):
    pass


class EncoderMismatchError(RetrievalIndexError):
    pass


class EmptyQueryError(ValueError):
    """The query has no searchable content (nothing but space or punctuation)."""
