"""Beam search over any `Constraint` (grammar or null), on the model's KV cache.

End of an output. A hypothesis may end only where its constraint state `can_end()`. Ending is
an explicit option with log-probability `end_logprob` = log P(EOS or any token starting with a
newline) at that point; it is taken also when the state admits nothing more (a forced stop).
Hypotheses are ranked by `score = logprob + end_logprob`, where `logprob` sums the tokens'
log-probabilities (model probabilities, not renormalised over the allowed tokens) -- the same
numbers as `Scorer.score(prompt, [lead + text], end_marker=True)`: `sum_logprob + end_logprob`.

Search. Each live beam carries its own constraint state (an immutable value). At each step the
globally best candidates (per-beam top-k by model log-prob) are tried one at a time with the
parent state's `append`; full masks (`allowed_next`, all beams at once) are computed only when
the top-k do not yield `beam` valid children above the threshold below which unseen candidates
could rank higher. Under the null constraint every candidate is valid, so the top-k always
suffice and no mask is computed. Search stops when `beam` hypotheses have finished and no live
beam can beat the `beam`-th of them (scores only fall), or at `max_tokens`.

On an accelerator the forward pass runs asynchronously: the constraint's CPU work at the start of
a step (`can_end`, `is_stopped`) is done before the first read of the new log-probs.
"""

from __future__ import annotations

from typing import Callable

import torch

from .constraint import Constraint
from .hypothesis import Hypothesis, Path, StatsClock, hypothesis
from .kv import KVStepper
from .loading import LoadedModel

_NEG_INF = float("-inf")


class BeamSearch:
    """One beam-search call: its constraint, its statistics clock, its beams."""

    def __init__(self, lm: LoadedModel, token_text: Callable[[int], str], constraint: Constraint, lead: str,
                 beam: int, topk_margin: int, clock: StatsClock) -> None:
        self.lm, self.token_text, self.constraint, self.lead = lm, token_text, constraint, lead
        self.beam, self.topk_margin, self.clock = beam, topk_margin, clock
        self.end_ids = torch.tensor(lm.end_token_ids(), device=lm.device)

    def run(self, prompt_ids: list[int], max_tokens: int, early_stop: bool,
            cancel: Callable[[], None]) -> list[Hypothesis]:
        """The `beam` best outputs after `prompt_ids` (finished first, by score)."""
        clock, stepper = self.clock, KVStepper(self.lm)
        with clock.model():
            dist = stepper.prefill(prompt_ids)
        beams = [Path((), (), 0.0, "", self.constraint.start())]
        finished: dict[str, Hypothesis] = {}
        for step in range(max_tokens + 1):
            cancel()
            self._finish(beams, dist, finished)
            live = self._select(beams, dist) if step < max_tokens else []
            clock.steps += 1
            if not live:
                if step < max_tokens:
                    beams = []  # every path died or finished
                break
            ranked = sorted((h.score for h in finished.values()), reverse=True)
            if early_stop and len(ranked) >= self.beam and max(p.logprob for p, _ in live) <= ranked[self.beam - 1]:
                beams = []
                break
            with clock.model():
                dist = stepper.step([parent for _, parent in live], [p.ids[-1] for p, _ in live])
            clock.tokens += len(live)
            beams = [p for p, _ in live]
        out = sorted(finished.values(), key=lambda h: h.score, reverse=True)[: self.beam]
        if len(out) < self.beam:  # budget ran out: report the best unfinished paths too
            rest = sorted(beams, key=lambda p: p.logprob, reverse=True)[: self.beam - len(out)]
            out += [self._hyp(p, None) for p in rest]
        return out

    def _hyp(self, p: Path, end_lp: float | None) -> Hypothesis:
        return hypothesis(p, self.lead, self.lm.tokenizer.convert_ids_to_tokens(list(p.ids)), end_lp)

    def _finish(self, beams: list[Path], dist: torch.Tensor, finished: dict[str, Hypothesis]) -> None:
        """Put every beam that may end into `finished` (the best score per text)."""
        with self.clock.grammar():
            ends = [i for i, p in enumerate(beams) if p.parse.can_end()]
        if not ends:
            return
        end_lp = torch.logsumexp(dist[:, self.end_ids], dim=-1)
        for i in ends:
            h = self._hyp(beams[i], float(end_lp[i]))
            if h.text not in finished or finished[h.text].score < h.score:
                finished[h.text] = h

    def _select(self, beams: list[Path], dist: torch.Tensor) -> list[tuple[Path, int]]:
        """Up to `beam` live children (path, parent row), best first."""
        with self.clock.grammar():
            stopped = [i for i, p in enumerate(beams) if p.parse.is_stopped()]
        vocab = dist.shape[1]
        scores = dist.clone()
        scores[:, self.end_ids] = _NEG_INF
        if stopped:
            scores[stopped] = _NEG_INF
        base = torch.tensor([p.logprob for p in beams], device=dist.device)
        k = min(vocab, self.beam + self.topk_margin)
        vals, idx = torch.topk(scores, k, dim=-1)
        tau = float((vals[:, -1] + base).max())  # unseen candidates score at most this
        cand = (vals + base[:, None]).flatten()
        order = torch.argsort(cand, descending=True).tolist()
        cand_l, idx_l = cand.tolist(), idx.tolist()
        children: dict[tuple[int, int], Path | None] = {}
        live: list[tuple[Path, int]] = []
        complete = True
        for j in order:
            s = cand_l[j]
            if s == _NEG_INF:
                break
            if s < tau:
                complete = False
                break
            b = j // k
            child = self._child(beams[b], b, idx_l[b][j % k], s, children)
            if child is not None:
                live.append((child, b))
                if len(live) == self.beam:
                    return live
        if complete and k == vocab:
            return live
        return self._select_masked(beams, scores, base, len(beams) - len(stopped), children)

    def _select_masked(self, beams: list[Path], scores: torch.Tensor, base: torch.Tensor, n_open: int,
                       children: dict[tuple[int, int], Path | None]) -> list[tuple[Path, int]]:
        """The fallback of `_select`: every allowed candidate under full masks, in order."""
        vocab = scores.shape[1]
        with self.clock.grammar():
            mask = self.constraint.allowed_next([p.parse for p in beams], vocab, scores.device)
            if mask is not None:
                scores.masked_fill_(~mask, _NEG_INF)
                self.clock.full_masks += n_open
        cand = (scores + base[:, None]).flatten()
        n_ok = int(torch.isfinite(cand).sum())
        vals, order = torch.topk(cand, n_ok)
        live: list[tuple[Path, int]] = []
        for s, j in zip(vals.tolist(), order.tolist()):
            b, t = divmod(j, vocab)
            child = self._child(beams[b], b, t, s, children)
            if child is not None:
                live.append((child, b))
                if len(live) == self.beam:
                    break
        return live

    def _child(self, parent: Path, b: int, t: int, score: float,
               memo: dict[tuple[int, int], Path | None]) -> Path | None:
        """The child of beam `b` after token `t` (total log-prob `score`), None when not allowed."""
        key = (b, t)
        if key not in memo:
            with self.clock.grammar():
                parse = parent.parse.append(t)
            memo[key] = None if parse is None else parent.extend(t, score - parent.logprob, score,
                                                                 self.token_text(t), parse)
        return memo[key]
