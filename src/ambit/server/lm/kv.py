"""Small helpers over the model's forward pass and its KV cache."""

from __future__ import annotations

import copy
import inspect

import torch

from ambit.server.lm.loading import LoadedModel


@torch.inference_mode()
def forward(lm: LoadedModel, ids: torch.Tensor, cache=None, attention_mask: torch.Tensor | None = None,
            keep: int | torch.Tensor = 0, position_ids: torch.Tensor | None = None):
    """(float32 log-probs [B, T, V], cache) of one pass, the output layer only at the last `keep`
    positions (or a [B, K] tensor's per row); `position_ids` are needed when the cache has pads."""
    from transformers import DynamicCache

    if cache is None:
        cache = DynamicCache(config=lm.model.config)
    extra = {} if position_ids is None else {"position_ids": position_ids}
    extra[cache_kwarg(lm)] = cache
    rows = None
    if isinstance(keep, torch.Tensor) and keep.dim() == 2:
        # a tensor `logits_to_keep` is read as 1D positions shared by every row (not per row in
        # every version): keep the distinct positions, then pick each row's own from them
        keep, rows = torch.unique(keep, return_inverse=True)
    out = lm.model(input_ids=ids, attention_mask=attention_mask, use_cache=True, logits_to_keep=keep, **extra)
    logits = out.logits
    if rows is not None:
        logits = logits.gather(1, rows[..., None].expand(-1, -1, logits.shape[-1]))
    return torch.log_softmax(logits.float(), dim=-1), cache


def cache_kwarg(lm: LoadedModel) -> str:
    """`cache` where forward takes it, else `past_key_values` (5.17 ignores `cache=` silently)."""
    if "cache_kwarg" not in lm.memo:
        params = inspect.signature(lm.model.forward).parameters
        lm.memo["cache_kwarg"] = "cache" if "cache" in params else "past_key_values"
    return lm.memo["cache_kwarg"]


def expand(cache, n: int):
    """A new cache holding `n` copies of a batch-1 cache (the original is left untouched)."""
    new = copy.deepcopy(cache)
    if n != 1:
        new.batch_repeat_interleave(n)
    return new


def gather(cache, idx: torch.Tensor):
    """A new cache holding rows `idx` of `cache` (repeats allowed); the original is left untouched."""
    new = copy.copy(cache)
    new.layers = [copy.copy(layer) for layer in cache.layers]
    for layer in new.layers:
        layer.reorder_cache(idx)  # index_select: new tensors, the original layer keeps its own
    return new


class KVStepper:
    """One decode's model side: a prompt pass, then one token per live row, reordering the cache."""

    def __init__(self, lm: LoadedModel) -> None:
        self.lm, self.cache = lm, None

    def prefill(self, ids: list[int], rows: int = 1) -> torch.Tensor:
        """Log-probs [rows, V] of the token after `ids`, with the cache copied to `rows` rows."""
        logp, cache = forward(self.lm, torch.tensor([ids], device=self.lm.device), keep=1)
        self.cache = cache if rows == 1 else expand(cache, rows)
        return logp[:, -1].expand(rows, -1)

    def step(self, parents: list[int], tokens: list[int]) -> torch.Tensor:
        """Log-probs [len(tokens), V] after appending `tokens[i]` to cache row `parents[i]`."""
        dev = self.lm.device
        self.cache.reorder_cache(torch.tensor(parents, device=dev))  # keeps, reorders, repeats rows
        logp, self.cache = forward(self.lm, torch.tensor([[t] for t in tokens], device=dev), self.cache)
        return logp[:, -1]
