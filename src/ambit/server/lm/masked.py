"""Masked-LM scoring (BERT, RoBERTa) as the implicature paper (Ruis et al. 2023) did: the candidate
fills the prompt's `MASK_SLOT` (else its end), its n tokens n masks, read in one pass."""

from __future__ import annotations

import torch

from ambit.server.lm.loading import LoadedModel
from ambit.server.lm.scorer import CandidateScore, _common_prefix, build_score, renormalise

MASK_SLOT = "<mask>"  # the slot in a prompt; generators/implicature writes the same text


def split_slot(prompt: str) -> tuple[str, str]:
    """The text left and right of the prompt's one slot (the whole prompt and "" without one)."""
    n = prompt.count(MASK_SLOT)
    if n > 1:
        raise ValueError(f"the prompt holds {n} {MASK_SLOT!r} slots; masked scoring fills one")
    left, _, right = prompt.partition(MASK_SLOT)
    return left, right


class MaskedScorer:
    """Scores of candidates at a masked slot; the `Scorer` interface (no end marker)."""

    def __init__(self, lm: LoadedModel) -> None:
        if lm.tokenizer.mask_token_id is None:
            raise ValueError(f"model {lm.model_id!r} is masked but its tokenizer has no mask token")
        self.lm = lm

    def _ids(self, text: str) -> list[int]:
        return self.lm.tokenizer(text, add_special_tokens=False)["input_ids"]

    def targets(self, left: str, candidate: str, right: str) -> tuple[list[int], list[int], list[int]]:
        """(left ids, candidate ids, right ids) splitting the tokenisation of left+candidate+right."""
        full = self._ids(left + candidate + right)
        lo = _common_prefix(full, self._ids(left))
        hi = _common_prefix(full[lo:][::-1], self._ids(right)[::-1])
        hi = min(hi, len(full) - lo - 1) if len(full) > lo else 0
        return full[:lo], full[lo: len(full) - hi], full[len(full) - hi:]

    def _specials(self) -> tuple[list[int], list[int]]:
        """The special tokens the tokenizer puts before and after a text (`[CLS]`, `[SEP]`)."""
        if "mask_specials" not in self.lm.memo:
            bare, full = self._ids("a"), self.lm.tokenizer("a")["input_ids"]
            at = next((i for i in range(len(full)) if full[i: i + len(bare)] == bare), 0)
            self.lm.memo["mask_specials"] = (full[:at], full[at + len(bare):])
        return self.lm.memo["mask_specials"]

    @torch.inference_mode()
    def score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> list[CandidateScore]:
        if not candidates:
            return []
        lm, tok = self.lm, self.lm.tokenizer
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
