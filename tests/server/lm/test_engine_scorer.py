"""Forced-decode scorer: shared-KV batched scores equal a naive full forward per candidate."""

from __future__ import annotations

import math
import random

import pytest
import torch

from ambit.server.lm import Scorer
from ambit.server.lm.scorer import _common_prefix

from tests.helpers.engine import TEST_SENTENCES, amp_prompt

WORDS = ["exists", "forall", "x", "a", " .", "man(", "x)", " AND", "saw", "Mary", "the", "bird", ", ", "(", " )",
         "Computer:", "Human:", "\n", " ", "yes", "no", "Option", "1", "2", "telescope", "é", "—"]


def naive(lm, prompt: str, cand: str, end_marker: bool = False):
    """Targets and log-probs from one full forward over the canonical tokens of prompt+cand."""
    p_ids = lm.encode(prompt)
    ids = lm.encode(prompt + cand)
    start = _common_prefix(p_ids, ids)
    if start == 0:
        bos = lm.tokenizer.bos_token_id if lm.tokenizer.bos_token_id is not None else lm.tokenizer.eos_token_id
        ids, start = [bos] + ids, 1
    with torch.inference_mode():
        lp = torch.log_softmax(lm.model(torch.tensor([ids], device=lm.device)).logits.float(), -1)[0]
    lps = [float(lp[t - 1, ids[t]]) for t in range(start, len(ids))]
    end = float(torch.logsumexp(lp[len(ids) - 1, lm.end_token_ids()], 0)) if end_marker else None
    return ids[start:], lps, end


def random_text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(WORDS) + rng.choice(["", " "]) for _ in range(n))


def check_exact(lm, prompt: str, cands: list[str], tol: float = 1e-4, **kw) -> None:
    scores = Scorer(lm, **kw).score(prompt, cands, end_marker=True)
    assert [s.text for s in scores] == cands
    for s, c in zip(scores, cands):
        ids, lps, end = naive(lm, prompt, c, end_marker=True)
        assert s.token_ids == ids, (prompt, c)
        assert len(s.token_logprobs) == len(lps)
        for a, b in zip(s.token_logprobs, lps):
            assert abs(a - b) < tol, (prompt, c, a, b)
        assert abs(s.sum_logprob - sum(lps)) < tol * max(1, len(lps))
        assert abs(s.end_logprob - end) < tol
        if lps:
            assert s.min_prob == pytest.approx(min(math.exp(x) for x in lps), rel=1e-3)
            assert s.mean_logprob == pytest.approx(sum(lps) / len(lps), abs=tol)
    assert sum(s.min_prob_renorm for s in scores) == pytest.approx(1.0)


def test_random_prompts_match_naive_forward(tiny_lm):
    rng = random.Random(7)
    for _ in range(12):
        prompt = random_text(rng, rng.randint(1, 12))
        cands = [random_text(rng, rng.randint(1, 6)) for _ in range(rng.randint(1, 5))]
        check_exact(tiny_lm, prompt, cands)


def test_chunked_batches_equal_one_batch(tiny_lm):
    prompt = amp_prompt("Every man hears a bird.")
    cands = [" exists x . man(x)", " forall x . man(x)", " exists", " ( man x )", " forall y . exists a . bird(y)"]
    one = Scorer(tiny_lm).score(prompt, cands)
    two = Scorer(tiny_lm, max_batch=2).score(prompt, cands)
    for a, b in zip(one, two):
        assert a.token_ids == b.token_ids
        assert a.sum_logprob == pytest.approx(b.sum_logprob, abs=1e-4)
    check_exact(tiny_lm, prompt, cands, max_batch=2)


def test_first_target_token_is_scored(tiny_lm):
    # "exists" vs "forall": the first LF token is the one that decides, and it is scored
    prompt = amp_prompt("Every man hears a bird.")
    s = Scorer(tiny_lm).score(prompt, [" exists x . man(x)", " forall x . man(x)"])
    assert s[0].tokens[0] == "Ġexists" and s[1].tokens[0] == "Ġfor"
    check_exact(tiny_lm, prompt, [" exists x . man(x)", " forall x . man(x)"])


def test_merge_across_prompt_boundary(tiny_lm):
    # "Computer: " + "exists" is read as "Computer:" + " exists": the target starts at the merged token
    prompt = "Human: A man saw Mary.\nComputer: "
    s = Scorer(tiny_lm).score(prompt, ["exists x . man(x)", "forall x"])
    assert s[0].tokens[0] == "Ġexists"
    assert s[1].tokens[0] == "Ġfor"
    check_exact(tiny_lm, prompt, ["exists x . man(x)", "forall x", "x"])


def test_implicature_and_radd_shapes(tiny_lm):
    # implicature: full texts differing in the last word; RADD: two options after a shared prompt
    pre = "Does the following response to the question imply yes or no?\n\nquestion: Coming?\nresponse: I'm sick.\nimplicature:"
    check_exact(tiny_lm, pre, [" yes", " no"])
    check_exact(tiny_lm, "", [pre + " yes", pre + " no"])
    check_exact(tiny_lm, "Which option is consistent?\nAnswer: Option", [" 1", " 2"])


def test_score_batch_equals_score(tiny_lm):
    sc = Scorer(tiny_lm)
    items = [("Computer:", [" exists x", " forall x"]), ("Answer:", [" yes", " no", " maybe"])]
    out = sc.score_batch(items, end_marker=True)
    for (p, cands), got in zip(items, out):
        ref = sc.score(p, cands, end_marker=True)
        assert [g.sum_logprob for g in got] == pytest.approx([r.sum_logprob for r in ref], abs=1e-5)
        assert [g.end_logprob for g in got] == pytest.approx([r.end_logprob for r in ref], abs=1e-5)


def test_edge_cases(tiny_lm):
    sc = Scorer(tiny_lm)
    assert sc.score("x", []) == []
    s = sc.score("Computer:", ["", " x"], end_marker=True)
    assert s[0].token_ids == [] and s[0].sum_logprob == 0.0 and s[0].end_logprob is not None
    check_exact(tiny_lm, "", ["exists x", "a"])  # empty prompt: scored after BOS/EOS


@pytest.mark.slow
def test_default_model_matches_naive_forward(smol_lm):  # noqa: F811
    rng = random.Random(3)
    prompt = amp_prompt("Every man hears a bird.")
    check_exact(smol_lm, prompt, [" exists x . man(x)", " forall x . exists a . man(x) AND hears(a)", " ( man x )"])
    for _ in range(3):
        p = random_text(rng, rng.randint(2, 10))
        check_exact(smol_lm, p, [random_text(rng, rng.randint(1, 5)) for _ in range(3)])


def check_batch_exact(lm, items, tol: float = 1e-4, **kw) -> None:
    """`score_batch` against the naive full forward per candidate, and against `score` per item."""
    sc = Scorer(lm, batch_prompts=True, **kw)
    out = sc.score_batch(items, end_marker=True)
    assert len(out) == len(items)
    for (prompt, cands), scores in zip(items, out):
        assert [s.text for s in scores] == cands
        ref = sc.score(prompt, cands, end_marker=True)
        for s, r, c in zip(scores, ref, cands):
            ids, lps, end = naive(lm, prompt, c, end_marker=True)
            assert s.token_ids == ids == r.token_ids, (prompt, c)
            assert len(s.token_logprobs) == len(lps)
            for a, b in zip(s.token_logprobs, lps):
                assert abs(a - b) < tol, (prompt, c, a, b)
            assert abs(s.end_logprob - end) < tol
            assert s.min_prob_renorm == pytest.approx(r.min_prob_renorm, abs=1e-4)
        if cands:
            assert sum(s.min_prob_renorm for s in scores) == pytest.approx(1.0)


def test_score_batch_matches_naive_forward(tiny_lm):
    # prompts of different lengths, candidates of different lengths, the boundary merge
    # ("Computer: " + "exists" -> " exists"), a repeated prompt, an empty prompt, an empty
    # candidate, an item with no candidates
    rng = random.Random(11)
    items = [
        (amp_prompt("Every man hears a bird."), [" exists x . man(x)", " forall x . exists a . bird(x) AND hears(a)"]),
        ("Human: A man saw Mary.\nComputer: ", ["exists x . man(x)", "forall x", "x"]),
        ("Answer:", [" yes", " no", " maybe not"]),
        (amp_prompt("Galileo saw the man with the telescope."), [" exists", " ( man x )"]),
        ("Computer:", ["", " x"]),
        ("", ["exists x", "a"]),
        ("x", []),
        ("Answer:", [" no", " yes"]),
    ]
    items += [(random_text(rng, rng.randint(1, 30)), [random_text(rng, rng.randint(1, 8)) for _ in range(rng.randint(1, 4))])
              for _ in range(8)]
    check_batch_exact(tiny_lm, items)
    check_batch_exact(tiny_lm, items, max_batch=3)  # several prompt chunks and candidate chunks


def test_score_batch_uses_batched_passes(tiny_lm, monkeypatch):
    # one prompt pass and one candidate pass for 16 items x 2 candidates (not 16 + 16)
    import ambit.server.lm.scorer as mod

    calls = []
    real = mod.forward

    def counting(lm, ids, *a, **k):
        calls.append(tuple(ids.shape))
        return real(lm, ids, *a, **k)

    monkeypatch.setattr(mod, "forward", counting)
    items = [(amp_prompt(f"Sentence number {i} is {'long ' * i}."), [" exists x . man(x)", " forall x"]) for i in range(16)]
    Scorer(tiny_lm, batch_prompts=True).score_batch(items)
    assert len(calls) == 2 and calls[0][0] == 16 and calls[1][0] == 32


@pytest.mark.slow
def test_default_model_score_batch_matches_naive_forward(smol_lm):  # noqa: F811
    # rotary positions: the candidates' position ids must skip the prompt pads
    rng = random.Random(5)
    items = [
        (amp_prompt("Every man hears a bird."), [" exists x . man(x)", " forall x . exists a . man(x) AND hears(a)"]),
        ("Human: A man saw Mary.\nComputer: ", ["exists x . man(x)", "forall x"]),
        ("Answer:", [" yes", " no"]),
    ]
    items += [(random_text(rng, rng.randint(2, 20)), [random_text(rng, rng.randint(1, 5)) for _ in range(2)]) for _ in range(3)]
    check_batch_exact(smol_lm, items)


def test_score_batch_policy(tiny_lm, monkeypatch):
    monkeypatch.delenv("AMBIT_SCORE_BATCH", raising=False)
    assert Scorer(tiny_lm).batch_prompts == (tiny_lm.device.type != "cpu")
    monkeypatch.setenv("AMBIT_SCORE_BATCH", "1")
    assert Scorer(tiny_lm).batch_prompts is True
    monkeypatch.setenv("AMBIT_SCORE_BATCH", "0")
    assert Scorer(tiny_lm).batch_prompts is False
    assert Scorer(tiny_lm, batch_prompts=True).batch_prompts is True


# bf16 keeps 8 bits of mantissa: the batched and the naive pass multiply in different shapes and
# orders, so their log-probs differ by rounding, not by method. Measured on a random model of the
# default's size on this CPU: at most 0.012 nats per token (fp32: 2e-6), so 0.1 leaves room for GPU kernels.
BF16_TOL = 0.1


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("bfloat16", BF16_TOL)])
def test_real_size_random_model_matches_naive_forward(dtype, tol):
    """`score` and cross-prompt `score_batch` equal a naive forward on a model of the default's
    size (random weights, real tokenizer; `$AMBIT_RANDOM_MODEL`, exported by benchmarks/gpu_pack.sh)."""
    import os

    from ambit.server.lm import load_model

    folder = os.environ.get("AMBIT_RANDOM_MODEL")
    if not folder:
        pytest.skip("AMBIT_RANDOM_MODEL (a folder with config.json and the tokenizer) not set")
    lm = load_model(f"random:{folder}", device=os.environ.get("AMBIT_DEVICE") or None, dtype=dtype)
    prompts = [amp_prompt(TEST_SENTENCES[k]) for k in ("scope", "pp")]
    cands = [" exists x . forall y . man(x) AND bird(y)", " forall y . exists x . man(x)", " no"]
    batched = Scorer(lm, batch_prompts=True).score_batch([(p, cands) for p in prompts], end_marker=True)
    for prompt, scores in zip(prompts, batched):
        for s, c in zip(scores, cands):
            ids, lps, end = naive(lm, prompt, c, end_marker=True)
            assert s.token_ids == ids
            assert max(abs(a - b) for a, b in zip(s.token_logprobs, lps)) < tol, (dtype, c)
            assert abs(s.end_logprob - end) < tol
