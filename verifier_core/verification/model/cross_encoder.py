"""The cross-encoder: all-MiniLM-L6-v2 reading claim + passage together, with two heads.

* pair head: does this passage hold the claim's evidence (a logit)?
* token head: for every claim word piece, is it supported by this passage (a logit)?

Both heads start where the bi-encoder is, because a CLS head trained from scratch on
a few hundred claims lands below the zero-shot model (see the findings notes): the
pair logit starts as a scaled cosine of the mean-pooled claim and passage halves, the
token logit as a scaled max-cosine of the word piece against the passage's pieces
(a BERTScore-style alignment). Fine-tuning then moves away from that start. A claim
is fully supported only when every part of it is, so the token head is what lets the
verdict layer tell partial from full support.
"""
from __future__ import annotations

import json
from pathlib import Path


def build_model(base_dir: Path, config: dict | None = None):
    """A fresh PairScorer whose encoder is read from `base_dir` (the MiniLM package)."""
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    from verifier_core.verification.model.network import PairScorer

    level = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # the base checkpoint's unused pooler is expected
    hf_logging.disable_progress_bar()
    try:
        encoder = AutoModel.from_pretrained(base_dir, local_files_only=True, add_pooling_layer=False)
    finally:
        hf_logging.set_verbosity(level)
    return PairScorer(encoder, config or {})


def save_model(model, out_dir: Path, config: dict) -> None:
    """fp16 safetensors (under the 50 MB budget) plus the encoder's and our config."""
    import torch
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    # The pooler is never used (no CLS head), so it is neither trained nor shipped.
    state = {k: v.detach().to(torch.float16).contiguous() for k, v in model.state_dict().items() if ".pooler." not in k}
    save_file(state, str(out_dir / "model.safetensors"), metadata={"format": "pt"})
    model.encoder.config.to_json_file(str(out_dir / "encoder_config.json"))
    (out_dir / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True))


def load_model(model_dir: Path):
    """(PairScorer in fp32 eval mode, config) from `save_model`'s files."""
    import torch
    from safetensors.torch import load_file
    from transformers import BertConfig, BertModel

    from verifier_core.verification.model.network import PairScorer

    config = json.loads((model_dir / "config.json").read_text())
    encoder = BertModel(BertConfig.from_json_file(str(model_dir / "encoder_config.json")), add_pooling_layer=False)
    model = PairScorer(encoder, config)
    state = load_file(str(model_dir / "model.safetensors"))
    state = {k: v.to(torch.float32) for k, v in state.items() if ".pooler." not in k}
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"checkpoint does not match the model: missing={missing[:3]} unexpected={unexpected[:3]}")
    model.eval()
    return model, config
