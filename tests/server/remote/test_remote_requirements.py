"""Which capabilities each suite's protocol needs of an endpoint (each suite's `needs`, over its
settings), and the one-line refusal `client eval` prints before any request
(client.eval.remote.refuse_missing)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ambit.client.eval.remote import forced_decode, refuse_missing
from ambit.client.eval.suites import ALL, SUITES

CHAT_ONLY = {"chat"}
HOSTED = {"chat", "completions"}
VLLM = {"chat", "completions", "prompt_logprobs", "grammar", "beam_search", "n_samples"}


def suite(name: str):
    return {**SUITES, **dict(ALL)}[name]


def ns(**kw) -> SimpleNamespace:
    """A suite's settings, as far as `needs` reads them."""
    return SimpleNamespace(**kw)


def caps_needed(name: str, caps: set[str], **kw) -> set[str]:
    return {c for c, _ in suite(name).needs(ns(**kw), caps)}


def test_amp_needs_only_beams_or_samples_for_its_top_k():
    # accuracy from any endpoint; FDM/FIM left out (not refused) without prompt log-probabilities
    assert caps_needed("amp-fewshot", VLLM, beam=5) == {"n_samples"}  # grammar: beam search would drop it
    assert caps_needed("amp-fewshot", VLLM - {"grammar"}, beam=5) == set()  # vLLM's beam search
    assert caps_needed("amp-zeroshot", HOSTED, beam=5) == {"n_samples"}
    assert caps_needed("amp-zeroshot", CHAT_ONLY, beam=1) == set()
    assert caps_needed("amp-fewshot", CHAT_ONLY | {"beam_search"}, beam=5) == {"n_samples"}  # chat has no beams


def test_forced_decode_only_with_prompt_logprobs():
    assert forced_decode(None)  # the embedded engine
    assert forced_decode({"capabilities": sorted(VLLM)})
    assert not forced_decode({"capabilities": sorted(HOSTED)})


@pytest.mark.parametrize("suite", ["radd", "radd-model", "implicature"])
def test_generate_protocols_need_only_a_way_to_generate(suite):
    kw = {"solver": "model"} if suite.startswith("radd") else {}
    assert caps_needed(suite, CHAT_ONLY, protocol="generate", **kw) == set()
    assert caps_needed(suite, CHAT_ONLY, protocol="auto", **kw) == set()  # auto picks generate with a chat endpoint
    assert caps_needed(suite, HOSTED - {"chat"}, protocol="auto", **kw) == {"prompt_logprobs"}
    assert caps_needed(suite, HOSTED, protocol="score", **kw) == {"prompt_logprobs"}


def test_radd_with_the_prolog_solver_needs_nothing_of_the_endpoint():
    assert caps_needed("radd", set(), protocol="score", solver="prolog") == set()


def test_refusal_is_one_line_naming_the_capability_and_its_providers():
    remote = {"capabilities": sorted(HOSTED)}
    with pytest.raises(ValueError) as err:
        refuse_missing(suite("implicature"), ns(protocol="score"), remote)
    line = str(err.value)
    assert line.startswith("implicature --protocol score (likelihood ranking) needs prompt_logprobs")
    assert "echo + logprobs" in line and "\n" not in line
    refuse_missing(suite("implicature"), ns(protocol="generate"), remote)  # no error
    refuse_missing(suite("amp-fewshot"), ns(beam=5), None)  # the embedded engine: nothing to check
