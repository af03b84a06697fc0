"""Forced-decode scoring: the probability a model gives to each of N candidate continuations.

One scorer serves AmP (LF0 vs LF1), implicature (coherent vs incoherent text) and RADD
(option 1 vs option 2).

Tokenisation. Each candidate is scored under the *canonical* tokenisation of `prompt +
candidate`, i.e. the tokens the model would see for the whole text. Usually that is the
prompt's own tokens followed by the candidate's, but a token may merge across the boundary
(a prompt ending in "Computer: " followed by "exists" is read as `" exists"`, not
`" "` + `"exists"`). The targets of a candidate are therefore all tokens from the first one
that differs from the prompt-only tokenisation; in the merge case the first target token
(`" exists"`) carries a character of the prompt. Every target token is scored, the first
included (AmP's code slices `logits[input_len:]` and so drops the first LF token, the one
that separates `exists` from `forall`).

Batching. The prompt is run once; its KV cache is copied to a batch of candidates, which are
right-padded (a causal model never lets a real token attend to a later pad, so no attention
mask is needed and the padded positions are simply ignored). `score_batch` batches across
prompts as well: one right-padded pass over all prompts, then one pass over all their
candidates on a cache gathered per row, with an attention mask over the prompt pads and
explicit position ids (see there). It is on by default on accelerators only (`Scorer`).

Scores. `min_prob` is the smallest token probability; `min_prob_renorm` divides it by the sum
of the candidates' `min_prob` (AmP's choice for P(LF0) vs P(LF1)); `sum_logprob` and
`mean_logprob` are over the target tokens. With `end_marker=True`, `end_logprob` is the
log-probability that the text ends right after the candidate: log of the summed probability
of EOS and of every token starting with a newline.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import torch

from ambit.server.values import CandidateScore, renormalise

from ambit.server.lm.kv import expand, forward, gather
from ambit.server.lm.loading import LoadedModel


@dataclass(frozen=True)
class Prepared:
    """One prompt's candidates: the canonical token ids of each `prompt + candidate` (`full`), the
    first target index of each (`starts`), and the length of the prefix they all share."""

    full: list[list[int]]
    starts: list[int]
    shared: int

    @property
    def context(self) -> tuple[int, ...]:
        """The shared prefix: run once, its KV cache serves every candidate."""
        return tuple(self.full[0][: self.shared])

    def rest(self, i: int) -> list[int]:
        """Candidate `i`'s tokens after the shared prefix."""
        return self.full[i][self.shared:]


@dataclass(frozen=True)
class Dists:
    """Where a candidate's next-token log-distributions are: `first` predicts position `shared`,
    row `row` of `logp` ([B, T, V], or None when nothing follows the prefix) the later ones;
    `end_ids` are the end tokens (None: no end marker)."""

    first: torch.Tensor
    logp: torch.Tensor | None
    row: int
    end_ids: torch.Tensor | None


class Scorer:
    """Teacher-forced scores of candidate continuations, sharing the prompt's KV cache."""

    def __init__(self, lm: LoadedModel, max_batch: int = 32, batch_prompts: bool | None = None) -> None:
        """`batch_prompts`: whether `score_batch` batches across prompts. Default: `$AMBIT_SCORE_BATCH`
        ("1"/"0") if set, else on accelerators only: on a CPU a ~400-token prompt pass is already
        a large matrix product, and batching prompts measured 1.1-1.25x *more* CPU time than one
        prompt after another (padding, activations out of cache; benchmarks/decode_bench.py (e))."""
        self.lm = lm
        self.max_batch = max_batch
        if batch_prompts is None:
            env = os.environ.get("AMBIT_SCORE_BATCH", "").strip()
            batch_prompts = env not in ("0", "false", "no") if env else lm.device.type != "cpu"
        self.batch_prompts = batch_prompts

    def _prepare(self, prompt: str, candidates: list[str]) -> Prepared:
        """The canonical token ids of `prompt + candidate` for each candidate, and their targets."""
        lm = self.lm
        p_ids = lm.encode(prompt)
        full = [lm.encode(prompt + c) for c in candidates]
        starts = [_common_prefix(p_ids, f) for f in full]  # first target index of each candidate
        shared = min(starts)
        if shared == 0 or any(len(f) == 0 for f in full):
            # nothing to condition the first token on: start every sequence with BOS (or EOS)
            bos = lm.tokenizer.bos_token_id if lm.tokenizer.bos_token_id is not None else lm.tokenizer.eos_token_id
            full = [[bos] + f for f in full]
            starts = [s + 1 for s in starts]
            shared += 1
        shared = min(shared, *(len(f) for f in full))  # an empty candidate may end inside the prompt
        return Prepared(full, starts, shared)

    def score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> list[CandidateScore]:
        if not candidates:
            return []
        lm = self.lm
        prep = self._prepare(prompt, candidates)
        ctx = torch.tensor([list(prep.context)], device=lm.device)
        logp_ctx, cache = forward(lm, ctx, keep=1)
        first = logp_ctx[0, -1]  # predicts position `shared`
        end_ids = torch.tensor(lm.end_token_ids(), device=lm.device) if end_marker else None

        out: list[CandidateScore] = []
        for lo in range(0, len(candidates), self.max_batch):
            idx = list(range(lo, min(lo + self.max_batch, len(candidates))))
            rests = [prep.rest(i) for i in idx]
            width = max(len(r) for r in rests)
            if width == 0:
                logp = None
            else:
                pad = lm.tokenizer.pad_token_id or 0
                batch = torch.tensor([r + [pad] * (width - len(r)) for r in rests], device=lm.device)
                logp, _ = forward(lm, batch, expand(cache, len(idx)))
            for row, i in enumerate(idx):
                out.append(self._one(candidates[i], prep, i, Dists(first, logp, row, end_ids)))
        renormalise(out)
        return out

    def score_batch(
        self, items: list[tuple[str, list[str]]], end_marker: bool = False
    ) -> list[list[CandidateScore]]:
        """Several prompts, each with its candidates, scored in batched passes across prompts.

        Same scores as `score` per item (to float rounding): (1) one right-padded pass over the
        distinct shared prefixes (causal attention keeps every real token blind to the pads after
        it; the output layer runs only at each row's last real position); (2) one pass over the
        candidates of all prompts, right-padded, over a cache gathered row by row from (1), with
        an attention mask hiding the prompt pads and position ids counting real tokens only.
        """
        if len(items) <= 1 or not self.batch_prompts:
            return [self.score(p, cands, end_marker=end_marker) for p, cands in items]
        lm = self.lm
        pad = lm.tokenizer.pad_token_id or 0
        end_ids = torch.tensor(lm.end_token_ids(), device=lm.device) if end_marker else None
        preps = [self._prepare(p, cands) if cands else None for p, cands in items]
        users: dict[tuple[int, ...], list[int]] = {}  # distinct shared prefixes -> their items
        for k, prep in enumerate(preps):
            if prep is not None:
                users.setdefault(prep.context, []).append(k)
        ctxs = sorted(users, key=len)  # chunks of similar lengths waste less padding
        res: list[list[CandidateScore | None]] = [[None] * len(cands) for _, cands in items]

        for lo in range(0, len(ctxs), self.max_batch):
            chunk = ctxs[lo: lo + self.max_batch]
            width = max(len(c) for c in chunk)
            ids = torch.tensor([list(c) + [pad] * (width - len(c)) for c in chunk], device=lm.device)
            lens = torch.tensor([len(c) for c in chunk], device=lm.device)
            logp_ctx, cache = forward(lm, ids, keep=(lens - 1)[:, None])  # [C, 1, V]
            ctx_mask = torch.arange(width, device=lm.device)[None, :] < lens[:, None]
            rows = []  # stage 2: (item, candidate, cache row) of every candidate longer than its prefix
            for j, c in enumerate(chunk):
                for k in users[c]:
                    prep = preps[k]
                    for i, f in enumerate(prep.full):
                        if len(f) > prep.shared:
                            rows.append((k, i, j))
                        else:
                            res[k][i] = self._one(items[k][1][i], prep, i, Dists(logp_ctx[j, 0], None, 0, end_ids))
            for lo2 in range(0, len(rows), self.max_batch):
                sub = rows[lo2: lo2 + self.max_batch]
                rests = [preps[k].rest(i) for k, i, _ in sub]
                w = max(len(r) for r in rests)
                idx = torch.tensor([j for _, _, j in sub], device=lm.device)
                batch = torch.tensor([r + [pad] * (w - len(r)) for r in rests], device=lm.device)
                mask = torch.cat([ctx_mask[idx], torch.ones(len(sub), w, dtype=torch.bool, device=lm.device)], 1)
                pos = lens[idx][:, None] + torch.arange(w, device=lm.device)[None, :]
                logp, _ = forward(lm, batch, gather(cache, idx), attention_mask=mask.long(), position_ids=pos)
                for row, (k, i, j) in enumerate(sub):
                    res[k][i] = self._one(items[k][1][i], preps[k], i, Dists(logp_ctx[j, 0], logp, row, end_ids))
                del logp
            del cache

        for r in res:
            if r:
                renormalise(r)
        return res

    def _one(self, text: str, prep: Prepared, i: int, dists: Dists) -> CandidateScore:
        """Scores of candidate `i` of `prep`; position t of its ids is predicted by position t-1."""
        ids, start, shared = prep.full[i], prep.starts[i], prep.shared

        def dist(t: int) -> torch.Tensor:  # log-distribution over the token at position t
            return dists.first if t == shared else dists.logp[dists.row, t - 1 - shared]

        lps = [float(dist(t)[ids[t]]) for t in range(start, len(ids))]
        end_lp = None
        if dists.end_ids is not None:
            end_lp = float(torch.logsumexp(dist(len(ids))[dists.end_ids], dim=0))
        return build_score(self.lm.tokenizer, text, ids[start:], lps, end_lp)


def build_score(tokenizer, text: str, targets: list[int], lps: list[float],
                end_lp: float | None = None) -> CandidateScore:
    """A candidate's scores from its target ids and their log-probs (every model family's scorer);
    `min_prob_renorm` is filled in over the candidates of one prompt by `renormalise`."""
    probs = [math.exp(x) for x in lps]
    return CandidateScore(
        text=text,
        tokens=tokenizer.convert_ids_to_tokens(list(targets)),
        token_ids=list(targets),
        token_probs=probs,
        min_prob=min(probs) if probs else 1.0,
        min_prob_renorm=float("nan"),
        sum_logprob=sum(lps),
        mean_logprob=sum(lps) / len(lps) if lps else 0.0,
        end_logprob=end_lp,
        token_logprobs=lps,
    )


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


