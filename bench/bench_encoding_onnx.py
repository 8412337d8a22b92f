"""ONNX Runtime beside torch for MiniLM passage encoding: passages/s on real WiCE passages
and how close each path's vectors are to today's (torch fp32), in one run.

The model is exported from the same local all-MiniLM-L6-v2 (nothing downloaded) and
quantised with ONNX Runtime's own dynamic int8; every path tokenises the same 100-word
passages the same way (sorted by length, batches of 64), on 2 threads.

    .venv/bin/pip install onnxruntime==1.32.0 onnx==1.23.2   # not in requirements.txt: bench only
    .venv/bin/python bench/bench_encoding_onnx.py [--pages 40] [--passages 800]
"""
from __future__ import annotations

import argparse
import copy
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_retrieval_quality import wice_pages_and_queries  # noqa: E402

from bench.machine import load_line  # noqa: E402

INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def wice_passages(pages: int, limit: int) -> list[str]:
    docs, _ = wice_pages_and_queries(with_section=False)
    out = []
    for doc in docs[:pages]:
        words = doc.text.split()
        out += [" ".join(words[i:i + 100]) for i in range(0, max(1, len(words) - 50), 100)]
    return out[:limit]


def export(folder: Path) -> tuple[Path, Path]:
    """(fp32, int8) ONNX files of the local MiniLM."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from verifier_core.encoder import load_encoder

    tokenizer, model = load_encoder()

    class Hidden(torch.nn.Module):  # keyword arguments: BertModel's positional order changes
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    fp32, int8 = folder / "minilm.onnx", folder / "minilm-int8.onnx"
    sample = tokenizer(["a passage"], return_tensors="pt")
    # A copy: tracing for export leaves the model it traced slower and changed in torch,
    # and this process's torch rows use the shared one.
    torch.onnx.export(Hidden(copy.deepcopy(model)), tuple(sample[n] for n in INPUTS), fp32, input_names=list(INPUTS),
                      output_names=["hidden"], opset_version=17, dynamo=False,
                      dynamic_axes={n: {0: "batch", 1: "tokens"} for n in (*INPUTS, "hidden")})
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    return fp32, int8


def ort_encoder(path: Path, max_length: int):
    import numpy as np
    import onnxruntime as ort

    from verifier_core.encoder import load_encoder

    tokenizer, _ = load_encoder()
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 2, 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def encode(texts: list[str]):
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for start in range(0, len(order), 64):
            idx = order[start:start + 64]
            batch = tokenizer([texts[i] for i in idx], padding=True, truncation=True, max_length=max_length,
                              return_tensors="np")
            hidden = session.run(None, {n: batch[n].astype(np.int64) for n in INPUTS})[0]
            mask = batch["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            out[idx] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out

    return encode


def rate(encode, passages: list[str]):
    encode(passages[:64])  # warm-up
    started = time.perf_counter()
    vectors = encode(passages)
    return len(passages) / (time.perf_counter() - started), vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--passages", type=int, default=800)
    args = parser.parse_args()
    import torch

    from verifier_core.encoder import encode

    torch.set_num_threads(2)
    print("command: .venv/bin/python bench/bench_encoding_onnx.py " + " ".join(sys.argv[1:]))
    print(load_line("before the run"))
    passages = wice_passages(args.pages, args.passages)
    with tempfile.TemporaryDirectory() as tmp:
        fp32, int8 = export(Path(tmp))
        paths = {
            "torch fp32, max 256 tokens (today's `minilm`, baseline)": lambda p: encode(p, max_length=256),
            "torch int8 dynamic, max 256 (`minilm-int8`)": lambda p: encode(p, max_length=256, precision="int8"),
            "ONNX Runtime fp32, max 256": ort_encoder(fp32, 256),
            "ONNX Runtime int8 dynamic, max 256": ort_encoder(int8, 256),
            "ONNX Runtime int8 dynamic, max 128 (passages cut)": ort_encoder(int8, 128),
        }
        print(f"\n{len(passages)} WiCE passages of 100 words\n")
        print("| path | passages/s | projected 1M encoding | mean cosine to torch fp32 |")
        print("|---|---|---|---|")
        baseline = None
        for name, encoder in paths.items():
            per_second, vectors = rate(encoder, passages)
            baseline = vectors if baseline is None else baseline
            cosine = float((vectors * baseline).sum(1).mean())
            print(f"| {name} | {per_second:.0f} | {1_000_000 / per_second / 3600:.1f} h | {cosine:.3f} |", flush=True)
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
