"""Grammar-constrained decoding: beam search and sampling behind one `Decoder` per model; each call
keeps its own constraint and statistics, so one `Decoder` serves several threads."""

from __future__ import annotations

from typing import Callable

import torch

from ambit.logic.syntax.dialect import FOL
from ambit.server.hypothesis import (DecodeCancelled, Decoded, DecodeStats, Hypothesis, StatsClock,
                                     check_cancel)
from ambit.server.values import grammar_with_lead, split_lead

from ambit.server.lm.beam import BeamSearch
from ambit.server.lm.constraint import Constraint, NullConstraint
from ambit.server.lm.grammar import GrammarConstraint, GrammarTables
from ambit.server.lm.loading import LoadedModel
from ambit.server.lm.sampling import Sampler
from ambit.server.lm.scope import SCOPE_FORMATS

__all__ = ["DecodeCancelled", "Decoded", "DecodeStats", "Decoder", "Hypothesis", "grammar_with_lead", "split_lead"]


class Decoder:
    """Constrained beam search and sampling for one loaded model (thread-safe)."""

    def __init__(self, lm: LoadedModel, topk_margin: int = 8, eager_masks: bool | None = None) -> None:
        """`eager_masks`: full masks filled during the forward pass (default: on an accelerator)."""
        self.lm, self.topk_margin, self.eager_masks = lm, topk_margin, eager_masks
        self.tables = GrammarTables(lm)

    def constraint(self, fmt: str, grammar: str | None, lead: str, *, constrained: bool = True,
                   check_scope: bool = True, canonical: bool = True) -> Constraint:
        """The constraint of one call: `grammar` (default: `fmt`'s grammar) after `lead`, or none."""
        if not constrained:
            return NullConstraint()
        if grammar is None:
            from ambit.logic import grammar_text

            grammar = grammar_text(fmt)
        scoped = check_scope and fmt in SCOPE_FORMATS  # folio's decode grammar has no scope rule to keep
        return GrammarConstraint(self.tables, grammar, lead, fmt if scoped else None, canonical)

    def beam_search(self, prompt: str, fmt: str = FOL, beam: int = 5, max_tokens: int = 128,
                    grammar: str | None = None, *, constrained: bool = True,
                    check_scope: bool = True, early_stop: bool = True, lead: str | None = None,
                    should_stop: Callable[[], bool] | None = None,
                    deadline: float | None = None) -> Decoded:
        """The `beam` best LFs (finished first, by score); `deadline`: a `time.monotonic()` value.
        `early_stop=False` runs to `max_tokens` while paths live (equal step counts for timing)."""
        clock = StatsClock()
        core, lead_ = split_lead(prompt)
        lead = lead_ if lead is None else lead
        self.tables.lltokenizer()  # built once per model, not counted as a step's cost
        with clock.grammar():
            constraint = self.constraint(fmt, grammar, lead, constrained=constrained, check_scope=check_scope)
        search = BeamSearch(self.lm, self.tables.token_bytes, constraint, lead, beam, self.topk_margin, clock,
                            self.eager_masks)
        hyps = search.run(self.lm.encode(core), max_tokens, early_stop, lambda: check_cancel(should_stop, deadline))
        return Decoded(hyps, clock.freeze())

    def sample(self, prompt: str, n: int, fmt: str = FOL, temperature: float = 1.0,
               top_p: float = 1.0, max_tokens: int = 128, grammar: str | None = None,
               seed: int | None = None, *, constrained: bool = True, check_scope: bool = True,
               lead: str | None = None, should_stop: Callable[[], bool] | None = None,
               deadline: float | None = None) -> Decoded:
        """`n` LFs sampled within the grammar (the model's own probabilities, any token path)."""
        clock = StatsClock()
        gen = torch.Generator(device="cpu")
        if seed is not None:
            gen.manual_seed(seed)
        else:
            gen.seed()
        core, lead_ = split_lead(prompt)
        lead = lead_ if lead is None else lead
        constraint = self.constraint(fmt, grammar, lead, constrained=constrained, check_scope=check_scope,
                                     canonical=False)
        sampler = Sampler(self.lm, self.tables.token_bytes, constraint, lead, gen, clock)
        hyps = sampler.run(self.lm.encode(core), n, temperature, top_p, max_tokens,
                           lambda: check_cancel(should_stop, deadline))
        return Decoded(hyps, clock.freeze())
