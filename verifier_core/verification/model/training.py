"""Fine-tuning the cross-encoder on TrainPairs: pair BCE + listwise ranking + token BCE.

The lower layers stay frozen and their output is computed once per pair, so every
epoch only runs the upper layers: on two CPU cores that is what makes several epochs
with a schedule and early stopping fit the time budget.
"""
from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass

import numpy as np

from verifier_core.verification.judgement.features import content_words
from verifier_core.verification.model.pairs import PairInput, encode_claim_pairs
from verifier_core.verification.model.trainset import IGNORE, TrainPair

log = logging.getLogger(__name__)


@dataclass
class TrainConfig:
    epochs: int = 3
    frozen_layers: int = 2  # lower layers kept as in the base model
    lr: float = 4e-5
    head_lr: float = 1e-3
    batch_groups: int = 6  # claims per batch (all of a claim's pairs go together)
    max_length: int = 192
    token_weight: float = 2.0
    list_weight: float = 0.5
    negative_token_weight: float = 0.3  # "direct" mode: token targets on negative passages are noisy
    # "mil": a word counts as supported when any passage of its page supports it (the
    # max over the claim's passages meets the page-level mark), as at inference;
    # "direct": every passage gets targets of its own (negatives: nothing supported).
    token_mode: str = "mil"
    valid_share: float = 0.1
    seed: int = 0


def encode_pairs(tokenizer, pairs: list[TrainPair], max_length: int) -> list[tuple[PairInput, list[float]]]:
    """PairInput plus a target per word piece of the claim (IGNORE off content words)."""
    out = []
    for p in pairs:
        (item,) = encode_claim_pairs(tokenizer, p.claim, p.title, [p.passage], max_length)
        words = content_words(p.claim)
        targets = []
        for a, b in item.claim_offsets:
            hit = [lab for (s, e, _), lab in zip(words, p.word_labels) if a < e and b > s]
            targets.append(hit[0] if hit else IGNORE)
        out.append((item, targets))
    return out


def _cache_lower(model, encoded, frozen: int, batch_size: int = 32):
    """Output of the frozen lower layers per pair, fp16 to halve the memory."""
    import torch

    from verifier_core.verification.model.pairs import collate, length_batches

    items = [e[0] for e in encoded]
    cache: list = [None] * len(items)
    with torch.inference_mode():
        for batch in length_batches(items, batch_size):
            t = collate([items[i] for i in batch])
            emb = model.encoder.embeddings(input_ids=t["input_ids"], token_type_ids=torch.zeros_like(t["input_ids"]))
            hidden = model.run_layers(emb, t["attention_mask"], 0, frozen)
            for row, i in enumerate(batch):
                cache[i] = hidden[row, : len(items[i].ids)].to(torch.float16).clone()
    return cache


def _batch_tensors(encoded, cache, idx):
    import torch

    from verifier_core.verification.model.pairs import collate

    t = collate([encoded[i][0] for i in idx])
    width = t["input_ids"].shape[1]
    hidden = torch.zeros((len(idx), width, cache[idx[0]].shape[-1]))
    targets = torch.full((len(idx), width), IGNORE)
    for row, i in enumerate(idx):
        hidden[row, : cache[i].shape[0]] = cache[i].float()
        a, b = encoded[i][0].claim_slice
        targets[row, a:b] = torch.tensor(encoded[i][1][: b - a])
    return t, hidden, targets


def _loss(model, t, hidden, targets, labels, groups, weights, in_page, cfg: TrainConfig):
    import torch.nn.functional as F

    h = model.encode(t["input_ids"], t["attention_mask"], hidden=hidden, start_layer=cfg.frozen_layers)
    pair, token = model.heads(h, t["claim_mask"], t["passage_mask"])
    pair_loss = F.binary_cross_entropy_with_logits(pair, labels, weight=weights)
    if cfg.token_mode == "mil":
        tok_loss = _mil_token_loss(token, targets, groups, in_page)
    else:
        tok_loss = _direct_token_loss(token, targets, labels, cfg)
    return pair_loss + cfg.token_weight * tok_loss + cfg.list_weight * _listwise(pair, labels, groups)


def _direct_token_loss(token, targets, labels, cfg):
    import torch
    import torch.nn.functional as F

    # On negative passages nothing counts as supported, down-weighted: a name that
    # the passage mentions is not "unsupported" in any strong sense there.
    goal = torch.where(labels.unsqueeze(1) > 0, targets.clamp(min=0), 0.0)
    tok_w = torch.where(labels.unsqueeze(1) > 0, 1.0, cfg.negative_token_weight) * (targets != IGNORE).float()
    loss = (F.binary_cross_entropy_with_logits(token, goal, reduction="none") * tok_w).sum()
    return loss / tok_w.sum().clamp(min=1.0)


def _mil_token_loss(token, targets, groups, in_page):
    """Per claim: max over its page's passages of each piece's logit vs the page-level mark."""
    import torch
    import torch.nn.functional as F

    losses, count = [], 0
    for g in torch.unique(groups):
        rows = ((groups == g) & in_page).nonzero().flatten()
        if len(rows) == 0:
            continue
        goal = targets[rows[0]]
        mask = goal != IGNORE
        if not mask.any():
            continue
        best = token[rows].max(dim=0).values
        losses.append(F.binary_cross_entropy_with_logits(best[mask], goal[mask], reduction="sum"))
        count += int(mask.sum())
    return torch.stack(losses).sum() / max(count, 1) if losses else token.sum() * 0.0


def _listwise(pair, labels, groups):
    """Softmax over one claim's passages: its evidence passage should come out on top."""
    import torch

    losses = []
    for g in torch.unique(groups):
        sel = groups == g
        lg, lb = pair[sel], labels[sel]
        if lb.sum() > 0 and (lb == 0).sum() > 0:
            losses.append(torch.logsumexp(lg, 0) - torch.logsumexp(lg[lb > 0], 0))
    return torch.stack(losses).mean() if losses else pair.sum() * 0.0


def _group_batches(pairs: list[TrainPair], idx: list[int], per_batch: int, rng) -> list[list[int]]:
    by_group: dict[int, list[int]] = {}
    for i in idx:
        by_group.setdefault(pairs[i].group, []).append(i)
    keys = sorted(by_group)
    rng.shuffle(keys)
    return [[i for k in keys[s : s + per_batch] for i in by_group[k]] for s in range(0, len(keys), per_batch)]


def train(model, tokenizer, pairs: list[TrainPair], cfg: TrainConfig):
    """Fine-tune `model` in place; returns per-epoch validation losses."""
    import torch

    rng = random.Random(cfg.seed)
    torch.manual_seed(cfg.seed)
    # A claim and its supported variant (groups 2n, 2n+1) stay on one side of the split.
    claims = sorted({p.group // 2 for p in pairs})
    valid = set(rng.sample(claims, max(1, int(len(claims) * cfg.valid_share)))) if len(claims) > 4 else set()
    train_idx = [i for i, p in enumerate(pairs) if p.group // 2 not in valid]
    valid_idx = [i for i, p in enumerate(pairs) if p.group // 2 in valid]
    started = time.time()
    encoded = encode_pairs(tokenizer, pairs, cfg.max_length)
    model.eval()
    cache = _cache_lower(model, encoded, cfg.frozen_layers)
    log.info("cached lower layers for %d pairs in %.0fs", len(pairs), time.time() - started)
    opt, sched, steps = _optimiser(model, cfg, len(_group_batches(pairs, train_idx, cfg.batch_groups, rng)))
    # load_encoder() turns gradients off process-wide (inference is its normal use).
    with torch.enable_grad():
        history = _epochs(model, pairs, encoded, cache, train_idx, valid_idx, opt, sched, cfg, rng, started)
    model.eval()
    return history


def _epochs(model, pairs, encoded, cache, train_idx, valid_idx, opt, sched, cfg, rng, started):
    import torch

    best, history = (float("inf"), None), []
    for epoch in range(cfg.epochs):
        model.train()
        for batch in _group_batches(pairs, train_idx, cfg.batch_groups, rng):
            loss = _batch_loss(model, pairs, encoded, cache, batch, cfg)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
        valid = _evaluate(model, pairs, encoded, cache, valid_idx, cfg, rng)
        history.append(valid)
        log.info("epoch %d valid loss %.4f (%.0fs)", epoch + 1, valid, time.time() - started)
        if valid < best[0]:  # early stopping: keep the best epoch's weights
            best = (valid, {k: v.detach().clone() for k, v in model.state_dict().items()})
    if best[1] is not None:
        model.load_state_dict(best[1])
    return history


def _batch_loss(model, pairs, encoded, cache, batch, cfg):
    import torch

    t, hidden, targets = _batch_tensors(encoded, cache, batch)
    labels = torch.tensor([pairs[i].label for i in batch])
    groups = torch.tensor([pairs[i].group for i in batch])
    weights = torch.tensor([pairs[i].weight for i in batch])
    in_page = torch.tensor([pairs[i].in_page for i in batch])
    return _loss(model, t, hidden, targets, labels, groups, weights, in_page, cfg)


def _evaluate(model, pairs, encoded, cache, idx, cfg, rng) -> float:
    import torch

    if not idx:
        return 0.0
    model.eval()
    with torch.inference_mode():
        losses = [float(_batch_loss(model, pairs, encoded, cache, b, cfg)) for b in _group_batches(pairs, idx, cfg.batch_groups, random.Random(0))]
    return float(np.mean(losses))


def _optimiser(model, cfg: TrainConfig, batches_per_epoch: int):
    import torch

    for layer in model.encoder.encoder.layer[: cfg.frozen_layers]:
        layer.requires_grad_(False)
    model.encoder.embeddings.requires_grad_(False)
    heads = [p for n, p in model.named_parameters() if not n.startswith("encoder.")]
    body = [p for n, p in model.named_parameters() if n.startswith("encoder.") and p.requires_grad]
    opt = torch.optim.AdamW([{"params": body, "lr": cfg.lr}, {"params": heads, "lr": cfg.head_lr}], weight_decay=0.01)
    steps = max(1, cfg.epochs * batches_per_epoch)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm + 1))))
    return opt, sched, steps
