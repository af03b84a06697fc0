"""Masked-LM scoring (BERT, RoBERTa): the probability of each candidate filled in at a slot.

How the implicature paper scored masked models (Ruis et al. 2023, ../shared/papers/003_*): the
template's `phrase_to_put_mask` gets the mask in place of the yes/no word, and the model's
probability of "yes" vs "no" at that mask decides. Here the prompt carries the slot as the text
`MASK_SLOT`; without one the slot is the end of the prompt (the candidate continues it, as for
a causal model). A candidate of n tokens fills n masks and scores the sum of its tokens'
log-probabilities at their masks, read in one pass (single-token "yes"/"no" is the paper's
comparison exactly). The candidate's tokens are those of the canonical tokenisation of
`left + candidate + right` that differ from `left` and `right` alone.
"""

from __future__ import annotations

import torch

from ambit.server.lm.loading import LoadedModel
from ambit.server.lm.scorer import CandidateScore, build_score, renormalise

MASK_SLOT = "<mask>"  # the slot in a prompt; generators/implicature writes the same text


def split_slot(prompt: str) -> tuple[str, str]:
    """The text left and right of the prompt's one slot (the whole prompt and "" without one)."""
    n = prompt.count(MASK_SLOT)
    if n > 1:
        raise ValueError(f"the prompt holds {n} {MASK_SLOT!r} slots; masked scoring fills one")
    left, _, right = prompt.partition(MASK_SLOT)
    return left, right


def _prefix(a: list[int], b: list[int]) -> int:
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return i


class MaskedScorer:
    """Scores of candidates at a masked slot; the `Scorer` interface (no end marker: a masked
    model has no notion of where a text ends)."""

    def __init__(self, lm: LoadedModel) -> None:
        if lm.tokenizer.mask_token_id is None:
            raise ValueError(f"model {lm.model_id!r} is masked but its tokenizer has no mask token")
        self.lm = lm

    def _ids(self, text: str) -> list[int]:
        return self.lm.tokenizer(text, add_special_tokens=False)["input_ids"]

    def targets(self, left: str, candidate: str, right: str) -> tuple[list[int], list[int], list[int]]:
        """(left ids, candidate ids, right ids) splitting the tokenisation of left+candidate+right."""
        full = self._ids(left + candidate + right)
        lo = _prefix(full, self._ids(left))
        hi = _prefix(full[lo:][::-1], self._ids(right)[::-1])
        hi = min(hi, len(full) - lo - 1) if len(full) > lo else 0
        return full[:lo], full[lo: len(full) - hi], full[len(full) - hi:]

    def _specials(self) -> tuple[list[int], list[int]]:
        """The special tokens the tokenizer puts before and after a text (`[CLS]`, `[SEP]`; `<s>`,
        `</s>`), read off the encoding of one word."""
        if "mask_specials" not in self.lm.memo:
            bare, full = self._ids("a"), self.lm.tokenizer("a")["input_ids"]
            at = next((i for i in range(len(full)) if full[i: i + len(bare)] == bare), 0)
            self.lm.memo["mask_specials"] = (full[:at], full[at + len(bare):])
        return self.lm.memo["mask_specials"]

    @torch.inference_mode()
    def score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> list[CandidateScore]:
        if not candidates:
            return []
        lm = self.lm
        tok = lm.tokenizer
        left, right = split_slot(prompt)
        parts = [self.targets(left, c, right) for c in candidates]
        pre, post = self._specials()
        rows = [pre + lt + [tok.mask_token_id] * len(t) + rt + post for lt, t, rt in parts]
        width = max(len(r) for r in rows)
        pad = tok.pad_token_id or 0
        ids = torch.tensor([r + [pad] * (width - len(r)) for r in rows], device=lm.device)
        mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows], device=lm.device)
        logp = torch.log_softmax(lm.model(input_ids=ids, attention_mask=mask).logits.float(), dim=-1)
        out = []
        for b, ((_, t, _), r) in enumerate(zip(parts, rows)):
            at = [j for j, x in enumerate(r) if x == tok.mask_token_id]  # the candidate's masks, in order
            lps = [float(logp[b, j, x]) for j, x in zip(at, t)]
            out.append(build_score(tok, candidates[b], t, lps, None))
        renormalise(out)
        return out

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[CandidateScore]]:
        return [self.score(p, cands, end_marker=end_marker) for p, cands in items]
