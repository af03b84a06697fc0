"""Forced-decode scoring: the probability a model gives to each of N candidate continuations.
Targets are `prompt + candidate`'s canonical tokens from the first that differs from the prompt's,
all scored (AmP's code drops the first); the prompt's KV cache serves every candidate."""

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
    """One prompt's candidates: canonical ids, first target indices, the shared prefix's length."""

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
    """Next-token log-distributions: `first` at position `shared`, row `row` of `logp` after it."""

    first: torch.Tensor
    logp: torch.Tensor | None
    row: int
    end_ids: torch.Tensor | None


class Scorer:
    """Teacher-forced scores of candidate continuations, sharing the prompt's KV cache."""

    def __init__(self, lm: LoadedModel, max_batch: int = 32, batch_prompts: bool | None = None) -> None:
        """`batch_prompts` default: `$AMBIT_SCORE_BATCH` if set, else accelerators only (on a CPU it
        measured 1.1-1.25x *more* time: benchmarks/decode_bench.py (e))."""
        self.lm, self.max_batch = lm, max_batch
        if batch_prompts is None:
            env = os.environ.get("AMBIT_SCORE_BATCH", "").strip()
            batch_prompts = env not in ("0", "false", "no") if env else lm.device.type != "cpu"
        self.batch_prompts = batch_prompts

    def _prepare(self, prompt: str, candidates: list[str]) -> Prepared:
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

    def score_batch(self, items: list[tuple[str, list[str]]],
                    end_marker: bool = False) -> list[list[CandidateScore]]:
        """`score` of each item (to float rounding) in two batched passes: the distinct prefixes,
        then all candidates over a cache gathered per row (prompt pads masked, real positions)."""
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
    """A candidate's scores from its target ids and log-probs (`renormalise` fills the rest)."""
    probs = [math.exp(x) for x in lps]
    return CandidateScore(
        text=text, tokens=tokenizer.convert_ids_to_tokens(list(targets)), token_ids=list(targets),
        token_probs=probs, min_prob=min(probs) if probs else 1.0, min_prob_renorm=float("nan"),
        sum_logprob=sum(lps), mean_logprob=sum(lps) / len(lps) if lps else 0.0, end_logprob=end_lp,
        token_logprobs=lps)


def _common_prefix(a: list[int], b: list[int]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


