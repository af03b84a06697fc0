"""Grammar-constrained decoding: exact on a small language, every output parses with Lark."""

from __future__ import annotations

import itertools
import time

import pytest

from ambit import logic
from ambit.server.lm import DecodeCancelled, Decoder, Scorer
from ambit.server.lm.decoder import grammar_with_lead, split_lead

from tests.helpers.engine import TEST_SENTENCES, amp_prompt

# A finite FOL language: 2 quantifiers x 2 variables x 3 predicates x 2 argument variables,
# of which the 12 closed strings parse (the others leave a variable unbound).
TINY_FOL = r"""
start: formula
formula: QUANT VAR " . " atom
atom: PRED VAR ")"
QUANT: "exists " | "forall "
PRED: "man(" | "bird(" | "sings("
VAR: "x" | "y"
"""
TINY_LISP = r"""
start: formula
formula: QUANT VAR " " atom " )"
atom: "( " PRED " " VAR " )"
QUANT: "( exists " | "( forall "
PRED: "man" | "bird"
VAR: "x" | "y"
"""


def tiny_language(fmt: str) -> list[str]:
    if fmt == "fol":
        strings = [f"{q} {v} . {p}({w})" for q, v, p, w in
                   itertools.product(("exists", "forall"), "xy", ("man", "bird", "sings"), "xy")]
    else:
        strings = [f"( {q} {v} ( {p} {w} ) )" for q, v, p, w in
                   itertools.product(("exists", "forall"), "xy", ("man", "bird"), "xy")]
    out = []
    for s in strings:
        try:
            logic.parse(s, fmt)
            out.append(s)
        except logic.LFParseError:
            pass
    return out


def closed(fmt: str) -> str:
    return logic.closed_grammar(fmt, unary=["man", "bird", "hears", "saw"], binary=["agent", "patient"],
                                constants=["Mary", "Galileo"], variables=["x", "y", "a"])


@pytest.mark.parametrize("fmt,grammar", [("fol", TINY_FOL), ("lisp", TINY_LISP)])
def test_beam_equals_brute_force_ranking(tiny_lm, fmt, grammar):
    lang = tiny_language(fmt)
    prompt = amp_prompt(TEST_SENTENCES["scope"], fmt)
    scores = Scorer(tiny_lm).score(prompt, [" " + s for s in lang], end_marker=True)
    ref = sorted(((c.sum_logprob + c.end_logprob, s) for s, c in zip(lang, scores)), reverse=True)
    hyps = Decoder(tiny_lm).beam_search(prompt, fmt=fmt, beam=len(lang), max_tokens=24, grammar=grammar).hypotheses
    assert [h.text for h in hyps] == [s for _, s in ref]
    for h, (score, _), c in zip(hyps, ref, scores):
        assert h.finished
        assert h.score == pytest.approx(score, abs=1e-4)
    by_text = {s: c for s, c in zip(lang, scores)}
    for h in hyps:  # same tokens and per-token probabilities as the scorer
        c = by_text[h.text]
        assert h.token_ids == c.token_ids
        assert h.logprob == pytest.approx(c.sum_logprob, abs=1e-4)
        assert h.token_probs == pytest.approx(c.token_probs, rel=1e-3, abs=1e-9)
        assert h.end_logprob == pytest.approx(c.end_logprob, abs=1e-4)


def test_small_beam_scores_match_the_scorer(tiny_lm):
    lang = tiny_language("fol")
    prompt = amp_prompt(TEST_SENTENCES["pp"])
    scores = Scorer(tiny_lm).score(prompt, [" " + s for s in lang], end_marker=True)
    exact = {s: c.sum_logprob + c.end_logprob for s, c in zip(lang, scores)}
    hyps = Decoder(tiny_lm).beam_search(prompt, beam=3, max_tokens=24, grammar=TINY_FOL).hypotheses
    assert len(hyps) == 3 and all(h.finished for h in hyps)
    # a narrow beam may miss the best string (that is beam search), but what it returns is
    # ranked and scored exactly as the scorer ranks and scores it
    assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
    for h in hyps:
        assert h.score == pytest.approx(exact[h.text], abs=1e-4)


@pytest.mark.parametrize("fmt", ["fol", "lisp"])
def test_outputs_parse_tiny_model(tiny_lm, fmt):
    dec = Decoder(tiny_lm)
    n_finished = 0
    for kind, sentence in TEST_SENTENCES.items():
        prompt = amp_prompt(sentence, fmt)
        hyps = dec.beam_search(prompt, fmt=fmt, beam=3, max_tokens=32, grammar=closed(fmt)).hypotheses
        hyps += dec.sample(prompt, 3, fmt=fmt, max_tokens=32, grammar=closed(fmt), seed=1).hypotheses
        for h in hyps:
            if h.finished:
                logic.parse(h.text, fmt)
                n_finished += 1
            else:  # a budget cut: still a valid prefix, never a broken LF claimed complete
                assert h.end_logprob is None
    assert n_finished > 0


def test_sampling_is_seeded_and_respects_top_p(tiny_lm):
    dec = Decoder(tiny_lm)
    prompt = amp_prompt(TEST_SENTENCES["conj"])
    a = dec.sample(prompt, 4, max_tokens=20, grammar=TINY_FOL, seed=5).hypotheses
    b = dec.sample(prompt, 4, max_tokens=20, grammar=TINY_FOL, seed=5).hypotheses
    assert [h.text for h in a] == [h.text for h in b]
    for h in a:
        assert h.finished
        logic.parse(h.text, "fol")
    greedy = dec.sample(prompt, 3, max_tokens=20, grammar=TINY_FOL, seed=1, top_p=1e-9).hypotheses
    assert len({h.text for h in greedy}) == 1  # top-p -> 0 is greedy under the constraint


def test_cancellation(tiny_lm):
    dec = Decoder(tiny_lm)
    prompt = amp_prompt(TEST_SENTENCES["bound"])
    with pytest.raises(DecodeCancelled):
        dec.beam_search(prompt, should_stop=lambda: True)
    with pytest.raises(DecodeCancelled):
        dec.sample(prompt, 2, deadline=time.monotonic() - 1)


def test_unconstrained_beam_runs(tiny_lm):
    hyps = Decoder(tiny_lm).beam_search(amp_prompt(TEST_SENTENCES["pp"]), beam=2, max_tokens=6, constrained=False).hypotheses
    assert len(hyps) == 2


def test_lead_and_grammar_rewrite():
    assert split_lead("Computer:") == ("Computer:", " ")
    assert split_lead("Computer: ") == ("Computer:", " ")
    assert split_lead("LF:\n") == ("LF:\n", "")
    g = grammar_with_lead(logic.grammar_text("fol"), " ")
    assert 'start: " " ( formula )' in g
    with pytest.raises(ValueError):
        grammar_with_lead("foo: bar", " ")


def test_bad_grammar_is_reported(tiny_lm):
    with pytest.raises(ValueError, match="grammar"):
        Decoder(tiny_lm).beam_search("Computer:", grammar="start: undefined_rule\n")


@pytest.mark.slow
def test_default_model_outputs_parse(smol_lm):  # noqa: F811
    """Beam-5 and sampled LFs over AmP-like zero-shot prompts of every type all parse."""
    dec = Decoder(smol_lm)
    total = 0
    for fmt in ("fol", "lisp"):
        kinds = list(TEST_SENTENCES) if fmt == "fol" else ["scope", "conj"]  # Lisp: a sample
        for kind in kinds:
            prompt = amp_prompt(TEST_SENTENCES[kind], fmt)
            hyps = dec.beam_search(prompt, fmt=fmt, beam=5, max_tokens=64).hypotheses
            hyps += dec.sample(prompt, 3, fmt=fmt, max_tokens=64, seed=0, temperature=0.7).hypotheses
            for h in hyps:
                assert h.finished, (kind, fmt, h.text)
                logic.parse(h.text, fmt)
                total += 1
    assert total == 7 * 8


def test_concurrent_calls_on_one_decoder(tiny_lm):
    """Per-call state: a FOL and a Lisp decode in two threads give the serial results."""
    import threading

    dec = Decoder(tiny_lm)
    jobs = {fmt: (amp_prompt(TEST_SENTENCES["scope"], fmt), g) for fmt, g in (("fol", TINY_FOL), ("lisp", TINY_LISP))}
    serial = {fmt: [h.text for h in dec.beam_search(p, fmt=fmt, beam=4, max_tokens=24, grammar=g).hypotheses]
              for fmt, (p, g) in jobs.items()}
    got: dict = {}

    def run(fmt):
        p, g = jobs[fmt]
        got[fmt] = [h.text for h in dec.beam_search(p, fmt=fmt, beam=4, max_tokens=24, grammar=g).hypotheses]

    threads = [threading.Thread(target=run, args=(fmt,)) for fmt in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == serial
    for fmt, texts in got.items():
        for text in texts:
            logic.parse(text, fmt)


def test_concurrent_calls_keep_their_own_statistics(tiny_lm):
    """Two threads on one Decoder: each call's statistics equal those of the same call run alone."""
    import threading

    dec = Decoder(tiny_lm)
    prompt = amp_prompt(TEST_SENTENCES["scope"])
    calls = {"short": dict(beam=2, max_tokens=3), "long": dict(beam=5, max_tokens=12)}

    def counts(stats):
        return stats.steps, stats.tokens, stats.full_masks

    alone = {name: counts(dec.beam_search(prompt, grammar=TINY_FOL, early_stop=False, **kw).stats)
             for name, kw in calls.items()}
    assert alone["short"] != alone["long"]
    got: dict = {}

    def run(name):
        got[name] = dec.beam_search(prompt, grammar=TINY_FOL, early_stop=False, **calls[name]).stats

    threads = [threading.Thread(target=run, args=(name,)) for name in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {name: counts(s) for name, s in got.items()} == alone
    for s in got.values():
        assert 0 < s.model_s + s.grammar_s <= s.total_s


def test_null_constraint_admits_any_sequence(tiny_lm):
    """Unconstrained beam search is plain beam search: with beam=1 it follows the greedy path (and,
    since every prefix may end under the null constraint, returns the best-ending prefix of it)."""
    import torch

    from ambit.server.lm.kv import forward

    prompt = amp_prompt(TEST_SENTENCES["pp"])
    hyp = Decoder(tiny_lm).beam_search(prompt, beam=1, max_tokens=5, constrained=False, early_stop=False).hypotheses[0]
    core = tiny_lm.encode(prompt.rstrip(" "))
    ids = list(core)
    end = set(tiny_lm.end_token_ids())
    for _ in range(5):
        logp, _ = forward(tiny_lm, torch.tensor([ids], device=tiny_lm.device), keep=1)
        row = logp[0, -1].clone()
        row[list(end)] = float("-inf")
        ids.append(int(row.argmax()))
    assert hyp.finished and hyp.token_ids
    assert hyp.token_ids == ids[len(core):][: len(hyp.token_ids)]


@pytest.mark.parametrize("fmt", ["fol", "lisp"])
def test_eager_masks_select_the_same_hypotheses(tiny_lm, fmt):
    """Full masks computed up front (the accelerator default) and masks computed only when the
    top-k run short (the CPU default) give the same hypotheses, scores and token paths."""
    lazy, eager = Decoder(tiny_lm, eager_masks=False), Decoder(tiny_lm, eager_masks=True)
    grammar = {"fol": TINY_FOL, "lisp": TINY_LISP}[fmt]
    lang = tiny_language(fmt)
    prompt = amp_prompt(TEST_SENTENCES["scope"], fmt)
    runs = [(grammar, len(lang), 24), (closed(fmt), 3, 32), (None, 4, 12)]
    for g, beam, max_tokens in runs:
        a, b = (d.beam_search(prompt, fmt=fmt, beam=beam, max_tokens=max_tokens, grammar=g) for d in (lazy, eager))
        assert [(h.text, h.token_ids, h.score, h.token_probs) for h in a.hypotheses] == \
               [(h.text, h.token_ids, h.score, h.token_probs) for h in b.hypotheses]
        assert b.stats.full_masks >= a.stats.full_masks > 0
    brute = eager.beam_search(prompt, fmt=fmt, beam=len(lang), max_tokens=24, grammar=grammar).hypotheses
    assert sorted(h.text for h in brute) == sorted(lang) and all(h.finished for h in brute)


def test_masks_do_not_import_torch_compile_kernels(tiny_lm):
    """`llguidance.torch` pulls in torch._dynamo at import (seconds, once per process, charged to the
    first decode that needs a full mask): the masks go through `llguidance.numpy` instead."""
    import sys

    prompt = amp_prompt(TEST_SENTENCES["scope"])
    res = Decoder(tiny_lm, eager_masks=True).beam_search(prompt, beam=2, max_tokens=4, grammar=closed("fol"))
    assert res.stats.full_masks > 0
    assert "llguidance.torch" not in sys.modules
