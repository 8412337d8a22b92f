"""The cross-encoder's nn.Module. Imports torch at the top: import this module only
inside functions (model.py does), so that importing verifier_core stays light."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

PAIR_SCALE, PAIR_BIAS = 10.0, -4.0  # cosine 0.4 -> logit 0, near the bi-encoder's usual cut
TOKEN_SCALE, TOKEN_BIAS = 10.0, -6.0  # max-cosine 0.6 -> logit 0


def attention_mask_4d(config, hidden, attention_mask):
    from transformers.masking_utils import create_bidirectional_mask

    return create_bidirectional_mask(config=config, inputs_embeds=hidden, attention_mask=attention_mask)


class PairScorer(nn.Module):
    """MiniLM over "[CLS] claim [SEP] title [SEP] passage [SEP]" with a pair and a token head."""

    def __init__(self, encoder, config: dict | None = None):
        super().__init__()
        self.encoder = encoder
        hidden = encoder.config.hidden_size
        self.config_extra = dict(config or {})
        # Learned corrections start at zero, so an untrained model scores like the
        # bi-encoder (cosines of mean-pooled halves, max-cosine alignment of pieces).
        self.pair = nn.Linear(hidden, 1)
        self.pair_cos = nn.Parameter(torch.tensor([PAIR_SCALE, PAIR_BIAS]))
        self.token = nn.Linear(hidden, 1)
        self.token_cos = nn.Parameter(torch.tensor([TOKEN_SCALE, TOKEN_BIAS]))
        for lin in (self.pair, self.token):
            nn.init.zeros_(lin.weight)
            nn.init.zeros_(lin.bias)

    def forward(self, input_ids, attention_mask, claim_mask, passage_mask):
        """Logits: pair (B,), token (B, T) (meaningful where claim_mask is set)."""
        return self.heads(self.encode(input_ids, attention_mask), claim_mask, passage_mask)

    def encode(self, input_ids, attention_mask, hidden=None, start_layer: int = 0):
        """Run the encoder; with `hidden` (the cached output of frozen lower layers,
        as in training) only the layers from `start_layer` on run."""
        if hidden is None:
            # One segment id for both halves: the base model was trained that way.
            hidden = self.encoder.embeddings(input_ids=input_ids, token_type_ids=torch.zeros_like(input_ids))
            start_layer = 0
        return self.run_layers(hidden, attention_mask, start_layer, len(self.encoder.encoder.layer))

    def run_layers(self, hidden, attention_mask, start: int, stop: int):
        mask = attention_mask_4d(self.encoder.config, hidden, attention_mask)
        for layer in self.encoder.encoder.layer[start:stop]:
            out = layer(hidden, attention_mask=mask)
            hidden = out[0] if isinstance(out, tuple) else out
        return hidden

    def heads(self, h, claim_mask, passage_mask):
        cm = claim_mask.unsqueeze(-1).to(h.dtype)
        pm = passage_mask.unsqueeze(-1).to(h.dtype)
        u = (h * cm).sum(1) / cm.sum(1).clamp(min=1.0)
        v = (h * pm).sum(1) / pm.sum(1).clamp(min=1.0)
        cos = F.cosine_similarity(u, v, dim=-1)
        pair = self.pair_cos[0] * cos + self.pair_cos[1] + self.pair(u * v).squeeze(-1)
        hn = F.normalize(h, dim=-1)
        sim = (hn @ hn.transpose(1, 2)).masked_fill(passage_mask.unsqueeze(1) == 0, -1.0)
        maxsim = sim.max(dim=-1).values  # each piece's best match among the passage's pieces
        token = self.token_cos[0] * maxsim + self.token_cos[1] + self.token(h).squeeze(-1)
        return pair, token
