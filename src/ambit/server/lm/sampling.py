"""Sampling (temperature, nucleus top-p) over any `Constraint`, `n` rows on one KV cache: all live
rows masked at once, each draw confirmed with `append` (a refused token is struck out, redrawn)."""

from __future__ import annotations

from typing import Callable

import torch

from ambit.server.hypothesis import Hypothesis, Path, StatsClock, hypothesis

from ambit.server.lm.constraint import Constraint, PartialParse
from ambit.server.lm.kv import KVStepper
from ambit.server.lm.loading import LoadedModel

_CPU = torch.device("cpu")


class Sampler:
    """One sampling call: its constraint, random generator and statistics clock."""

    def __init__(self, lm: LoadedModel, token_bytes: Callable[[int], bytes], constraint: Constraint, lead: str,
                 gen: torch.Generator, clock: StatsClock) -> None:
        self.lm, self.token_bytes, self.constraint, self.lead = lm, token_bytes, constraint, lead
        self.gen, self.clock = gen, clock
        self.end_ids = torch.tensor(lm.end_token_ids())

    def run(self, prompt_ids: list[int], n: int, temperature: float, top_p: float, max_tokens: int,
            cancel: Callable[[], None]) -> list[Hypothesis]:
        """`n` outputs sampled after `prompt_ids` (fewer only if a row ends with nothing)."""
        clock, stepper = self.clock, KVStepper(self.lm)
        with clock.model():
            dist = stepper.prefill(prompt_ids, n)
        is_end = torch.zeros(dist.shape[-1], dtype=torch.bool)
        is_end[self.end_ids] = True
        rows = [Path((), (), 0.0, b"", self.constraint.start()) for _ in range(n)]
        done: list[Hypothesis | None] = [None] * n
        active = list(range(n))
        for step in range(max_tokens + 1):
            cancel()
            clock.steps += 1
            d = dist.float().cpu()
            allowed = self._allowed([rows[i].parse for i in active], is_end, step < max_tokens)
            logits = (d / max(temperature, 1e-6)).masked_fill(~allowed, float("-inf"))
            probs = top_p_filter(torch.softmax(logits, dim=-1), top_p)
            keep, nxt = [], []
            for r, i in enumerate(active):
                out = self._advance(rows[i], allowed[r], probs[r], d[r], is_end)
                if isinstance(out, Hypothesis):
                    done[i] = out
                else:
                    rows[i], t = out
                    keep.append(r)
                    nxt.append(t)
            active = [active[r] for r in keep]
            if not active:
                break
            with clock.model():
                dist = stepper.step(keep, nxt)
            clock.tokens += len(active)
        for i in active:
            done[i] = self._hyp(rows[i], None)
        return [h for h in done if h is not None]

    def _hyp(self, p: Path, end_lp: float | None) -> Hypothesis:
        return hypothesis(p, self.lead, self.lm.tokenizer.convert_ids_to_tokens(list(p.ids)), end_lp)

    def _allowed(self, parses: list[PartialParse], is_end: torch.Tensor, tokens_ok: bool) -> torch.Tensor:
        """Bool [rows, V]: what each row may draw (no token once the budget is spent)."""
        shape = (len(parses), is_end.shape[0])
        with self.clock.grammar():
            allowed = torch.zeros(shape, dtype=torch.bool)
            if tokens_ok:
                mask = self.constraint.allowed_next(parses, shape[1], _CPU)
                allowed[:] = True if mask is None else mask
                self.clock.full_masks += 0 if mask is None else len(parses)
            allowed &= ~is_end
            ends = [r for r, p in enumerate(parses) if p.can_end()]
            if ends:
                allowed[ends] |= is_end
        return allowed

    def _advance(self, row: Path, allowed: torch.Tensor, probs: torch.Tensor, d: torch.Tensor,
                 is_end: torch.Tensor) -> Hypothesis | tuple[Path, int]:
        """The row's finished hypothesis, or the row after its drawn token and that token."""
        if not allowed.any():  # budget spent before the output was complete
            return self._hyp(row, None)
        drawn = self._draw(row, probs, is_end)
        if drawn is None:
            return self._hyp(row, None)
        t, parse = drawn
        if parse is None:
            return self._hyp(row, float(torch.logsumexp(d[self.end_ids], 0)))
        lp = float(d[t])
        return row.extend(t, lp, row.logprob + lp, self.token_bytes(t), parse), t

    def _draw(self, row: Path, probs: torch.Tensor, is_end: torch.Tensor) -> tuple[int, PartialParse | None] | None:
        """A drawn token and the row's state after it (None for an end token); None if no token fits."""
        probs = probs.clone()
        while float(probs.sum()) > 0:
            t = int(torch.multinomial(probs, 1, generator=self.gen))
            if is_end[t]:
                return t, None
            with self.clock.grammar():
                parse = row.parse.append(t)
            if parse is not None:
                return t, parse
            probs[t] = 0.0
        return None


def top_p_filter(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    """Probabilities outside the smallest prefix (by probability) whose mass reaches `top_p` set to 0."""
    if top_p >= 1.0:
        return probs
    sp, si = torch.sort(probs, descending=True, dim=-1)
    sp = sp.masked_fill(torch.cumsum(sp, dim=-1) - sp > top_p, 0.0)
    return torch.zeros_like(probs).scatter(-1, si, sp)
