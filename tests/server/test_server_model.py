"""EngineBackend (server.engine_backend) over the real engine with the tiny GPT-2: merging
same-prompt items in a batch gives the same scores as scoring each item alone."""

from __future__ import annotations

import pytest

from ambit.server.engine_backend import EngineBackend


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    pytest.importorskip("torch")
    from tests.helpers.engine import tiny_gpt2

    return EngineBackend(tiny_gpt2(tmp_path_factory.mktemp("gpt2vocab")))


@pytest.mark.slow
def test_batch_with_shared_prompts_matches_single_items(backend):
    items = [
        ("Human: a man\nComputer:", [" exists x . man(x)", " forall x . man(x)"]),
        ("Human: a dog\nComputer:", [" dog(x)"]),
        ("Human: a man\nComputer:", [" man(x)", " exists x . man(x)", " exists y . man(y)"]),
    ]
    batched = backend.score_batch(items, end_marker=True)
    for (prompt, cands), got in zip(items, batched):
        alone = backend.score_batch([(prompt, cands)], end_marker=True)[0]
        assert [s.text for s in got] == cands
        for g, a in zip(got, alone):
            assert g.token_ids == a.token_ids
            assert g.sum_logprob == pytest.approx(a.sum_logprob, rel=1e-5)
            assert g.min_prob_renorm == pytest.approx(a.min_prob_renorm, rel=1e-5)
            assert g.end_logprob == pytest.approx(a.end_logprob, rel=1e-5)
        assert sum(s.min_prob_renorm for s in got) == pytest.approx(1.0)
