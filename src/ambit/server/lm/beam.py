"""Beam search over any `Constraint` on the KV cache, ranked by `logprob + end_logprob` (as
`Scorer.score(..., end_marker=True)`); full masks only when the top-k yield too few children, and
on an accelerator (`eager_masks`) filled on a worker thread during the forward pass."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import torch

from ambit.server.hypothesis import Hypothesis, Path, StatsClock, hypothesis

from ambit.server.lm.constraint import Constraint, NullConstraint
from ambit.server.lm.kv import KVStepper
from ambit.server.lm.loading import LoadedModel

_NEG_INF = float("-inf")
_FIRST_READ = 256  # candidates of the fallback's first read (all allowed ones can be ~10^5: ms to convert)


class BeamSearch:
    """One beam-search call: its constraint, its statistics clock, its beams."""

    def __init__(self, lm: LoadedModel, token_bytes: Callable[[int], bytes], constraint: Constraint, lead: str,
                 beam: int, topk_margin: int, clock: StatsClock, eager_masks: bool | None = None) -> None:
        self.lm, self.token_bytes, self.constraint, self.lead = lm, token_bytes, constraint, lead
        self.beam, self.topk_margin, self.clock = beam, topk_margin, clock
        self.end_ids = torch.tensor(lm.end_token_ids(), device=lm.device)
        self.eager_masks = lm.device.type != "cpu" if eager_masks is None else eager_masks
        self.eager_masks = self.eager_masks and not isinstance(constraint, NullConstraint)  # nothing to mask

    def run(self, prompt_ids: list[int], max_tokens: int, early_stop: bool,
            cancel: Callable[[], None]) -> list[Hypothesis]:
        """The `beam` best outputs after `prompt_ids` (finished first, by score)."""
        clock, stepper = self.clock, KVStepper(self.lm)
        beams = [Path((), (), 0.0, b"", self.constraint.start())]
        worker = ThreadPoolExecutor(1, thread_name_prefix="ambit-masks") if self.eager_masks else None
        try:
            pending = self._fill_masks(worker, beams, max_tokens > 0)
            with clock.model():
                dist = stepper.prefill(prompt_ids)
            mask = self._wait(pending)
            finished: dict[str, tuple[float, Path, float]] = {}  # text -> (score, path, end log-prob)
            for step in range(max_tokens + 1):
                cancel()
                view = self._read(beams, dist, mask)
                self._finish(beams, view, finished)
                live = self._select(beams, view) if step < max_tokens else []
                clock.steps += 1
                if not live:
                    if step < max_tokens:
                        beams = []  # every path died or finished
                    break
                ranked = sorted((f[0] for f in finished.values()), reverse=True)
                if early_stop and len(ranked) >= self.beam and max(p.logprob for p, _ in live) <= ranked[self.beam - 1]:
                    beams = []
                    break
                beams = [p for p, _ in live]
                pending = self._fill_masks(worker, beams, step + 1 < max_tokens)  # overlaps the forward
                with clock.model():
                    dist = stepper.step([parent for _, parent in live], [p.ids[-1] for p in beams])
                clock.tokens += len(live)
                mask = self._wait(pending)
        finally:
            if worker is not None:
                worker.shutdown(wait=True)
        best = sorted(finished.values(), key=lambda f: f[0], reverse=True)[: self.beam]
        out = [self._hyp(p, end_lp) for _, p, end_lp in best]
        if len(out) < self.beam:  # budget ran out: report the best unfinished paths too
            rest = sorted(beams, key=lambda p: p.logprob, reverse=True)[: self.beam - len(out)]
            out += [self._hyp(p, None) for p in rest]
        return out

    def _hyp(self, p: Path, end_lp: float | None) -> Hypothesis:
        return hypothesis(p, self.lead, self.lm.tokenizer.convert_ids_to_tokens(list(p.ids)), end_lp)

    def _fill_masks(self, worker: ThreadPoolExecutor | None, beams: list[Path], needed: bool) -> Future | None:
        if worker is None or not needed:
            return None
        self.clock.full_masks += sum(not p.parse.is_stopped() for p in beams)
        vocab = self.lm.vocab_size
        return worker.submit(self.constraint.allowed_next, [p.parse for p in beams], vocab, self.lm.device)

    def _wait(self, pending: Future | None) -> torch.Tensor | None:
        """The masks being filled (bool [beams, V] on the device), or None when masks are lazy."""
        if pending is None:
            return None
        with self.clock.grammar():
            return pending.result()

    def _read(self, beams: list[Path], dist: torch.Tensor, mask: torch.Tensor | None) -> _StepView:
        """The step's device work (candidate scores, top-k, end log-probs), one copy to the host."""
        with self.clock.grammar():
            ends = [i for i, p in enumerate(beams) if p.parse.can_end()]
            stopped = [i for i, p in enumerate(beams) if p.parse.is_stopped()]
        scores = dist.clone()
        if mask is not None:
            scores.masked_fill_(~mask, _NEG_INF)
        scores[:, self.end_ids] = _NEG_INF
        if stopped and mask is None:  # a mask's stopped rows admit nothing already (no index upload)
            scores[stopped] = _NEG_INF
        k = min(scores.shape[1], self.beam + self.topk_margin)
        vals, idx = torch.topk(scores, k, dim=-1)
        end_lp = torch.logsumexp(dist[:, self.end_ids], dim=-1, keepdim=True)
        host = torch.cat([vals, idx.to(vals.dtype), end_lp.to(vals.dtype)], dim=1).cpu()  # exact ids: V < 2**24
        base = torch.tensor([p.logprob for p in beams], dtype=vals.dtype)
        return _StepView(scores, base, host[:, :k] + base[:, None], host[:, k:2 * k].long().tolist(),
                         host[:, -1].tolist(), ends, len(beams) - len(stopped), mask is not None)

    def _finish(self, beams: list[Path], view: _StepView, finished: dict[str, tuple[float, Path, float]]) -> None:
        for i in view.ends:
            p, end_lp = beams[i], view.end_lp[i]
            text = p.text[len(self.lead):] if p.text.startswith(self.lead) else p.text  # as `hypothesis` cuts it
            score = p.logprob + end_lp
            if text not in finished or finished[text][0] < score:
                finished[text] = (score, p, end_lp)

    def _select(self, beams: list[Path], view: _StepView) -> list[tuple[Path, int]]:
        """Up to `beam` live children (path, parent row), best first."""
        vocab, k = view.scores.shape[1], view.cand.shape[1]
        tau = float(view.cand[:, -1].max())  # unseen candidates score at most this
        cand = view.cand.flatten()
        order = torch.argsort(cand, descending=True).tolist()
        cand_l = cand.tolist()
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
            child = self._child(beams[b], b, view.idx[b][j % k], s, children)
            if child is not None:
                live.append((child, b))
                if len(live) == self.beam:
                    return live
        if complete and (k == vocab or (view.masked and tau == _NEG_INF)):
            return live  # every allowed candidate was tried
        return self._select_masked(beams, view, children)

    def _select_masked(self, beams: list[Path], view: _StepView,
                       children: dict[tuple[int, int], Path | None]) -> list[tuple[Path, int]]:
        """The fallback of `_select`: every allowed candidate under full masks, in order."""
        scores, vocab = view.scores, view.scores.shape[1]
        if not view.masked:
            with self.clock.grammar():
                mask = self.constraint.allowed_next([p.parse for p in beams], vocab, scores.device)
                if mask is not None:
                    scores.masked_fill_(~mask, _NEG_INF)
                    self.clock.full_masks += view.n_open
        cand = (scores + view.base.to(scores.device)[:, None]).flatten()
        n_ok = int(torch.isfinite(cand).sum())
        vals, order = torch.topk(cand, n_ok)
        live: list[tuple[Path, int]] = []
        lo, size = 0, _FIRST_READ
        while lo < n_ok:  # read the ranking in growing slices: the first almost always suffices
            for s, j in zip(vals[lo: lo + size].tolist(), order[lo: lo + size].tolist()):
                b, t = divmod(j, vocab)
                child = self._child(beams[b], b, t, s, children)
                if child is not None:
                    live.append((child, b))
                    if len(live) == self.beam:
                        return live
            lo, size = lo + size, 2 * size
        return live

    def _child(self, parent: Path, b: int, t: int, score: float,
               memo: dict[tuple[int, int], Path | None]) -> Path | None:
        """The child of beam `b` after token `t` (total log-prob `score`), None when not allowed."""
        key = (b, t)
        if key not in memo:
            with self.clock.grammar():
                parse = parent.parse.append(t)
            memo[key] = None if parse is None else parent.extend(t, score - parent.logprob, score,
                                                                 self.token_bytes(t), parse)
        return memo[key]


@dataclass(frozen=True)
class _StepView:
    """One step's scores on the device (ends, stopped rows, masks at -inf) and their host copy."""

    scores: torch.Tensor
    base: torch.Tensor
    cand: torch.Tensor
    idx: list[list[int]]
    end_lp: list[float]
    ends: list[int]
    n_open: int
    masked: bool
