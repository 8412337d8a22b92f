"""Retrieval engine: hybrid BM25 + dense search with anchor-text query expansion.

    engine = RetrievalEngine.load(index_dir)
    hits = engine.search(claim, title=..., section=..., k=10, exclude_urls=[...])
    engine.add_documents([Document(url, title, text), ...])

Heavy libraries (torch, faiss, bm25s) are imported inside the functions that use them.
"""
from verifier_core.retrieval.anchors import AnchorDictionary, Expansion, Unit
from verifier_core.retrieval.builder import BuildReport, build_index
from verifier_core.retrieval.corpus import CorpusReport, Document, read_corpus
from verifier_core.retrieval.dense import DenseParams, Encoder
from verifier_core.retrieval.encoders import MiniLMEncoder, StaticEncoder, encoder_named, make_encoder
from verifier_core.retrieval.engine import AddReport, RetrievalEngine
from verifier_core.retrieval.errors import (
    CorruptIndexError, EmptyQueryError, EncoderMismatchError, IndexNotFoundError, RetrievalIndexError,
)
from verifier_core.retrieval.fusion import DocumentHit, PassageHit
from verifier_core.retrieval.lifecycle import IndexConfig
from verifier_core.retrieval.query import Query, claim_before_marker, query_from_kilt
from verifier_core.retrieval.sparse import Bm25Params

__all__ = [
    "AddReport", "AnchorDictionary", "Bm25Params", "BuildReport", "CorpusReport", "CorruptIndexError",
    "DenseParams", "Document", "DocumentHit", "EmptyQueryError", "Encoder", "EncoderMismatchError",
    "Expansion", "IndexConfig", "IndexNotFoundError", "MiniLMEncoder", "PassageHit", "Query",
    "RetrievalEngine", "RetrievalIndexError", "StaticEncoder", "Unit", "build_index", "claim_before_marker",
    "encoder_named", "make_encoder", "query_from_kilt", "read_corpus",
]
