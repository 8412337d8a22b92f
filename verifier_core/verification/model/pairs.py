"""Claim + passage -> word-piece ids for the cross-encoder, and batches padded by length.

Layout: [CLS] claim [SEP] title [SEP] passage [SEP], one segment id throughout. The
claim is kept whole unless it alone nearly fills the budget (then it is cut too:
"truncate only the passage" fails on such claims, see the findings notes); the title
is capped; the passage takes what is left.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_TITLE_PIECES = 16
MIN_PASSAGE_PIECES = 32


@dataclass
class PairInput:
    ids: list[int]
    claim_slice: tuple[int, int]  # positions of the claim pieces in `ids`
    passage_slice: tuple[int, int]
    claim_offsets: list[tuple[int, int]]  # char span in the claim of each claim piece


def piece_ids(tokenizer, texts: list[str], offsets: bool = False):
    # No truncation here (build_pair cuts); verbose=False silences the "longer than 512" note.
    enc = tokenizer(texts, add_special_tokens=False, return_offsets_mapping=offsets, truncation=False, verbose=False)
    if offsets:
        return enc["input_ids"], enc["offset_mapping"]
    return enc["input_ids"]


def build_pair(claim_ids, claim_offsets, title_ids, passage_ids, specials, max_length: int) -> PairInput:
    cls, sep = specials
    claim_budget = max(8, max_length - MIN_PASSAGE_PIECES - 4)
    claim_ids, claim_offsets = claim_ids[:claim_budget], claim_offsets[:claim_budget]
    title_ids = title_ids[:MAX_TITLE_PIECES]
    room = max_length - len(claim_ids) - len(title_ids) - 4
    if room < MIN_PASSAGE_PIECES:  # the title goes before the passage does
        title_ids = []
        room = max_length - len(claim_ids) - 3
    ids = [cls] + claim_ids + [sep]
    claim_slice = (1, 1 + len(claim_ids))
    if title_ids:
        ids += title_ids + [sep]
    p0 = len(ids)
    ids += passage_ids[: max(room, 0)] + [sep]
    return PairInput(ids, claim_slice, (p0, len(ids) - 1), list(map(tuple, claim_offsets)))


def encode_claim_pairs(tokenizer, claim: str, title: str, passages: list[str], max_length: int) -> list[PairInput]:
    """One PairInput per passage for a single claim (the claim is tokenised once)."""
    (claim_ids,), (claim_offsets,) = piece_ids(tokenizer, [claim], offsets=True)
    title_ids = piece_ids(tokenizer, [title])[0] if title else []
    specials = (tokenizer.cls_token_id, tokenizer.sep_token_id)
    passage_ids = piece_ids(tokenizer, passages) if passages else []
    return [build_pair(claim_ids, claim_offsets, title_ids, p, specials, max_length) for p in passage_ids]


def collate(items: list[PairInput]):
    """Tensors for one batch, padded to its longest member."""
    import torch

    width = max(len(it.ids) for it in items)
    n = len(items)
    ids = torch.zeros((n, width), dtype=torch.long)
    att = torch.zeros((n, width), dtype=torch.long)
    cmask = torch.zeros((n, width), dtype=torch.long)
    pmask = torch.zeros((n, width), dtype=torch.long)
    for row, it in enumerate(items):
        ids[row, : len(it.ids)] = torch.tensor(it.ids)
        att[row, : len(it.ids)] = 1
        cmask[row, it.claim_slice[0] : it.claim_slice[1]] = 1
        pmask[row, it.passage_slice[0] : it.passage_slice[1]] = 1
    return {"input_ids": ids, "attention_mask": att, "claim_mask": cmask, "passage_mask": pmask}


def length_batches(items: list[PairInput], batch_size: int) -> list[list[int]]:
    """Index batches of similar length, so that padding stays small."""
    order = sorted(range(len(items)), key=lambda i: len(items[i].ids))
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
