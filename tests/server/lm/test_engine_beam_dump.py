"""Beam search's outputs, byte for byte: lazy masks (the CPU default), eager masks filled on a worker
thread while the forward runs (the accelerator default, forced here on the CPU), and a plain
reference search written from the rule in `beam.py`'s docstring (full masks at every step, every
allowed candidate in score order, the first `beam` valid ones kept) all give the same dump."""

from __future__ import annotations

import pytest
import torch

from ambit.server.lm import Decoder, Hypothesis
from ambit.server.lm.decoder import split_lead
from ambit.server.hypothesis import Path, hypothesis
from ambit.server.lm.kv import KVStepper
from tests.server.lm.beam_dump import Search, decoder_search, dump

FAST = lambda case: case["grammar"] in ("mid", "tiny") or not case["constrained"]  # noqa: E731


def reference_search(dec: Decoder) -> Search:
    """Beam search by its definition: at each step every beam that may end is a finished candidate
    (score = log-prob + end log-prob, the best per text), then the children of all beams under full
    masks, best total log-prob first, and the first `beam` that `append` accepts live on."""
    lm = dec.lm
    end_ids = torch.tensor(lm.end_token_ids(), device=lm.device)

    def search(prompt: str, fmt: str, grammar: str | None, *, beam: int, max_tokens: int, constrained: bool,
               early_stop: bool) -> list[Hypothesis]:
        core, lead = split_lead(prompt)
        constraint = dec.constraint(fmt, grammar, lead, constrained=constrained)
        stepper = KVStepper(lm)
        dist = stepper.prefill(lm.encode(core))
        beams = [Path((), (), 0.0, b"", constraint.start())]
        finished: dict[str, Hypothesis] = {}
        for step in range(max_tokens + 1):
            end_lp = torch.logsumexp(dist[:, end_ids], dim=-1).tolist()
            for i, p in enumerate(beams):
                if p.parse.can_end():
                    h = hypothesis(p, lead, lm.tokenizer.convert_ids_to_tokens(list(p.ids)), end_lp[i])
                    if h.text not in finished or finished[h.text].score < h.score:
                        finished[h.text] = h
            if step == max_tokens:
                break
            scores = dist.clone()
            mask = constraint.allowed_next([p.parse for p in beams], scores.shape[1], scores.device)
            if mask is not None:
                scores.masked_fill_(~mask, float("-inf"))
            scores[:, end_ids] = float("-inf")
            total = (scores + torch.tensor([p.logprob for p in beams], device=lm.device)[:, None]).flatten()
            vals, order = torch.sort(total, descending=True)
            live: list[tuple[Path, int]] = []
            for s, j in zip(vals.tolist(), order.tolist()):
                if s == float("-inf") or len(live) == beam:
                    break
                b, t = divmod(j, scores.shape[1])
                parse = beams[b].parse.append(t)
                if parse is not None:
                    live.append((beams[b].extend(t, s - beams[b].logprob, s, dec.tables.token_bytes(t), parse), b))
            if not live:
                beams = []
                break
            ranked = sorted((h.score for h in finished.values()), reverse=True)
            if early_stop and len(ranked) >= beam and max(p.logprob for p, _ in live) <= ranked[beam - 1]:
                beams = []
                break
            dist = stepper.step([b for _, b in live], [p.ids[-1] for p, _ in live])
            beams = [p for p, _ in live]
        out = sorted(finished.values(), key=lambda h: h.score, reverse=True)[:beam]
        rest = sorted(beams, key=lambda p: p.logprob, reverse=True)[: beam - len(out)]
        return out + [hypothesis(p, lead, lm.tokenizer.convert_ids_to_tokens(list(p.ids)), None) for p in rest]

    return search


def test_dump_lazy_eager_and_reference_are_identical(tiny_lm):
    """The cases that finish (small grammars) and the unconstrained one: identical bytes three ways."""
    lazy = dump(decoder_search(Decoder(tiny_lm, eager_masks=False)), FAST)
    eager = dump(decoder_search(Decoder(tiny_lm, eager_masks=True)), FAST)
    ref = dump(reference_search(Decoder(tiny_lm)), FAST)
    assert b'"finished": true' in lazy and b'"finished": false' in lazy  # both kinds are compared
    assert lazy == eager
    assert lazy == ref


@pytest.mark.slow
def test_full_dump_lazy_eager_and_reference_are_identical(tiny_lm):
    """Every case of the dump, the full FOL and Lisp grammars and the closed ones included."""
    lazy = dump(decoder_search(Decoder(tiny_lm, eager_masks=False)))
    assert lazy == dump(decoder_search(Decoder(tiny_lm, eager_masks=True)))
    assert lazy == dump(reference_search(Decoder(tiny_lm)))


def test_eager_masks_count_and_wait(tiny_lm):
    """Eager masks fill on the worker thread: every open beam's mask at every step but the last is
    counted, and the unconstrained search starts no worker (the null constraint masks nothing)."""
    import threading

    from tests.helpers.engine import TEST_SENTENCES, amp_prompt

    prompt = amp_prompt(TEST_SENTENCES["scope"])
    dec = Decoder(tiny_lm, eager_masks=True)
    res = dec.beam_search(prompt, beam=2, max_tokens=5, early_stop=False)
    assert res.stats.full_masks == 1 + 2 * 4  # the start, then two open beams at steps 1-4
    seen: set[str] = set()
    original = threading.Thread.start

    def spy(self):
        seen.add(self.name)
        return original(self)

    threading.Thread.start = spy
    try:
        dec.beam_search(prompt, beam=2, max_tokens=3, constrained=False)
    finally:
        threading.Thread.start = original
    assert not any(name.startswith("ambit-masks") for name in seen)


def test_fallback_read_in_slices_changes_nothing(tiny_lm, monkeypatch):
    """The fallback reads its ranking in growing slices; slices of 1, 2, 4, ... give the same dump
    (and the fallback does run in these cases)."""
    from ambit.server.lm import beam

    lazy = Decoder(tiny_lm, eager_masks=False)
    whole = dump(decoder_search(lazy), FAST)
    calls = []
    original = beam.BeamSearch._select_masked
    monkeypatch.setattr(beam.BeamSearch, "_select_masked", lambda self, *a: calls.append(1) or original(self, *a))
    monkeypatch.setattr(beam, "_FIRST_READ", 1)
    assert dump(decoder_search(lazy), FAST) == whole
    assert len(calls) > 0
    assert dump(decoder_search(Decoder(tiny_lm, eager_masks=True)), FAST) == whole
