"""Translation through the server (ParseDistribution with the folio format): a recording
backend behind a real gRPC server checks the prompts, the decoding options and the decode
grammar the server hands it; the tiny random GPT-2 on the real engine checks that every
finished output is in the decode grammar and respelled in FOLIO's symbols."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambit import logic
from ambit.client.api import AmbitError, Client
from ambit.client.eval.folio import data as D
from ambit.client.eval.folio import grammar as G
from ambit.client.eval.folio import prompt as P
from ambit.client.eval.folio import score as S
from ambit.client.eval.folio import translate as T
from ambit.generators.folio import stories
from ambit.server import serve
from tests.helpers.server import FakeBackend


class Recording(FakeBackend):
    """A model backend whose decoder answers with each sentence's gold formula in the decode
    grammar and records what it was asked (`calls`)."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__()
        self.answers, self.calls = answers, []

    def info(self) -> dict:
        return {"model_id": "recording", "device": "cpu", "dtype": "", "vocab_size": 0, "kind": "causal"}

    def decode(self, prompt, fmt, params, grammar, should_stop):
        from ambit.server.hypothesis import Hypothesis

        self.calls.append((prompt, fmt, params, grammar))
        text = self.answers[(len(self.calls) - 1) % len(self.answers)]
        return [Hypothesis(text=text, logprob=-1.0, token_probs=[], tokens=[], min_prob=1.0, finished=True)]


def _story() -> tuple[D.Story, list[D.Story]]:
    rows = [D.story_from_row(r, "gen", str(i)) for i, r in enumerate(stories(30, seed=9))]
    return rows[0], rows


def test_prompts_carry_the_sample_s_own_earlier_translations_and_seeds_differ():
    story, rows = _story()
    answers = [G.render(logic.parse(t, "folio")) for t in story.gold_fol]
    backend = Recording(answers)
    head = P.header(P.pick_demos(P.demo_pool(rows), story, 2, 0))
    srv = serve(backend=backend, port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            out, model_id = T.translate(c, head, story.id, story.sentences,
                                        T.Decoding(samples=2, temperature=0.5, seed=3))
            n = len(story.sentences)
            assert model_id == "recording"
            assert len(backend.calls) == 2 * n and [len(s) for s in out] == [n, n]
            for k, (prompt, fmt, params, grammar) in enumerate(backend.calls):
                i = k % n
                # the server decodes the folio format under the decode grammar, one sample per call
                assert fmt == "folio" and grammar == G.grammar_text()
                assert params.strategy == "sample" and params.k == 1 and params.temperature == 0.5
                assert prompt.startswith(head) and prompt.endswith(f"Sentence: {story.sentences[i]}\nFOL:")
                for j in range(i):  # the sample's earlier sentences with its own (raw) translations
                    assert f"Sentence: {story.sentences[j]}\nFOL: {answers[j]}\n" in prompt
            assert len({call[2].seed for call in backend.calls}) == 2 * n
            rec = S.score_story(story, out)
            assert all(x["relation"] == "EQUIVALENT" and x["in_grammar"] for s in rec["samples"] for x in s["sentences"])
            assert rec["voted_label"] == rec["samples"][0]["label"] == story.label
            backend.calls.clear()
            T.translate(c, head, story.id, story.sentences, T.Decoding(samples=1, beam=3))
            assert {(call[2].strategy, call[2].k) for call in backend.calls} == {("beam", 3)}
    finally:
        srv.stop(0)


def test_the_server_reads_folio_candidates_in_folio_s_symbols():
    srv = serve(backend=Recording(["all x (Dog(x) -> -Cat(x))", "(A(b) & B(b)) xor -C(b)", "all x (Dog(x)"]), port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            ok = c.parse_distribution("s", "Sentence: s\nFOL:", fmt="folio", k=1).candidates[0]
            assert ok.text == "all x (Dog(x) -> -Cat(x))" and ok.parse_status == "OK"
            assert ok.canonical == "∀x (Dog(x) → ¬Cat(x))"
            xor = c.parse_distribution("s", "FOL:", fmt="folio", k=1).candidates[0]
            assert logic.parse(xor.canonical, "folio") == logic.parse("(A(b) ∧ B(b)) ⊕ ¬C(b)", "folio")
            bad = c.parse_distribution("s", "FOL:", fmt="folio", k=1).candidates[0]
            assert bad.parse_status == "INVALID" and bad.parse_error
            with pytest.raises(AmbitError) as e:  # AmP's prompts are fol / lisp: folio needs its own
                c.parse_distribution("every dog barks", fmt="folio", k=1)
            assert e.value.code == "INVALID_ARGUMENT" and "literal prompt" in e.value.message
            with pytest.raises(AmbitError) as e:
                c.parse_distribution("s", "FOL:", fmt="folio", k=1, closed_vocabulary=True)
            assert e.value.code == "INVALID_ARGUMENT" and "closed_vocabulary" in e.value.message
    finally:
        srv.stop(0)


def test_tiny_model_outputs_finish_in_the_grammar(tmp_path):
    from ambit.server.engine_backend import EngineBackend
    from tests.helpers.engine import tiny_gpt2

    srv = serve(backend=EngineBackend(tiny_gpt2(Path(tmp_path))), port=0)
    try:
        story, rows = _story()
        head = P.header(P.pick_demos(P.demo_pool(rows), story, 1, 0))
        with Client(f"127.0.0.1:{srv.port}") as c:
            out, model_id = T.translate(c, head, story.id, story.sentences[:2],
                                        T.Decoding(samples=2, max_tokens=32, temperature=1.0))
        assert model_id == "tiny-gpt2"
        finished = [x for s in out for x in s if x["finished"]]
        assert finished, "a random model ends some outputs within 32 tokens"
        for x in finished:
            assert G.in_grammar(x["raw"]) and x["text"] == G.to_folio(x["raw"])
            assert S.read(x["text"])[0] is not None
    finally:
        srv.stop(0)


def test_generate_with_the_folio_format_replies_with_one_formula(tmp_path):
    backend = Recording(["all x (Dog(x) -> -Cat(x))"])
    srv = serve(backend=backend, port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            r = c.generate([("system", "Translate into FOL."), ("user", "No dog is a cat.\nFOL:")], fmt="folio",
                           max_new_tokens=40)
            assert r.text == "all x (Dog(x) -> -Cat(x))" and r.formula == "∀x (Dog(x) → ¬Cat(x))"
            assert r.finish_reason == "stop" and not r.chat_template
            prompt, fmt, params, grammar = backend.calls[-1]
            assert prompt == "Translate into FOL.\n\nNo dog is a cat.\nFOL:" and fmt == "folio"
            assert grammar == G.grammar_text() and (params.strategy, params.k, params.max_tokens) == ("beam", 1, 40)
            c.generate([("user", "x")], fmt="folio", temperature=0.5, seed=7)
            assert (backend.calls[-1][2].strategy, backend.calls[-1][2].seed) == ("sample", 7)
            with pytest.raises(AmbitError) as e:  # this backend has no chat template to apply
                c.generate([("user", "x")], fmt="folio", use_chat_template=True)
            assert e.value.code == "INVALID_ARGUMENT"
    finally:
        srv.stop(0)
