"""Forced-decode scoring for encoder-decoder models (T5, BART): the prompt is the encoder input,
each candidate a decoder target (its tokens without special tokens), read with teacher forcing.
`scorer.Scorer`'s interface; the encoder runs once per prompt for a right-padded candidate batch."""

from __future__ import annotations

import torch

from ambit.server.lm.loading import LoadedModel
from ambit.server.lm.scorer import CandidateScore, build_score, renormalise


class Seq2SeqScorer:
    """Teacher-forced scores of candidate targets given the prompt as encoder input."""

    def __init__(self, lm: LoadedModel, max_batch: int = 32) -> None:
        self.lm, self.max_batch = lm, max_batch

    def _start_id(self) -> int:
        start = getattr(self.lm.model.config, "decoder_start_token_id", None)
        if start is None:
            start = self.lm.tokenizer.pad_token_id
        if start is None:
            raise ValueError(f"model {self.lm.model_id!r} has no decoder_start_token_id or pad token")
        return int(start)

    @torch.inference_mode()
    def score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> list[CandidateScore]:
        if not candidates:
            return []
        lm = self.lm
        enc = lm.tokenizer(prompt, return_tensors="pt")
        ids, mask = enc["input_ids"].to(lm.device), enc["attention_mask"].to(lm.device)
        hidden = lm.model.get_encoder()(input_ids=ids, attention_mask=mask).last_hidden_state
        targets = [lm.tokenizer(c, add_special_tokens=False)["input_ids"] for c in candidates]
        end_ids = torch.tensor(lm.end_token_ids(), device=lm.device) if end_marker else None
        out: list[CandidateScore] = []
        for lo in range(0, len(candidates), self.max_batch):
            chunk = list(range(lo, min(lo + self.max_batch, len(candidates))))
            logp = self._decoder_logp(hidden, mask, [targets[i] for i in chunk])
            for row, i in enumerate(chunk):
                t = targets[i]
                lps = [float(logp[row, j, t[j]]) for j in range(len(t))]
                end_lp = None if end_ids is None else float(torch.logsumexp(logp[row, len(t)][end_ids], dim=0))
                out.append(build_score(lm.tokenizer, candidates[i], t, lps, end_lp))
        renormalise(out)
        return out

    def _decoder_logp(self, hidden: torch.Tensor, mask: torch.Tensor, targets: list[list[int]]) -> torch.Tensor:
        """Log-distributions [B, T+1, V]: row b, position j predicts token j of `targets[b]`."""
        lm = self.lm
        pad = lm.tokenizer.pad_token_id or 0
        width = max(len(t) for t in targets)
        dec = torch.tensor([[self._start_id()] + t + [pad] * (width - len(t)) for t in targets], device=lm.device)
        n = len(targets)
        out = lm.model(encoder_outputs=(hidden.expand(n, -1, -1),), attention_mask=mask.expand(n, -1),
                       decoder_input_ids=dec, use_cache=False)
        return torch.log_softmax(out.logits.float(), dim=-1)

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[CandidateScore]]:
        """One `score` per prompt: the encoder pass is a prompt's only shared work."""
        return [self.score(p, cands, end_marker=end_marker) for p, cands in items]
