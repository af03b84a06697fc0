"""Translation through the ModelBackend interface: a recording backend checks the prompts and
decoding parameters; the tiny random GPT-2 on the real engine checks that every finished
output is in the decode grammar and respelled in FOLIO's symbols."""

from __future__ import annotations

from pathlib import Path

from ambit.client.eval import folio_data as D
from ambit.client.eval import folio_grammar as G
from ambit.client.eval import folio_prompt as P
from ambit.client.eval import folio_score as S
from ambit.client.eval import folio_translate as T
from ambit.generators.folio import stories


class Recording:
    """The ModelBackend.decode interface; answers with each sentence's gold formula in the
    decode grammar and records what it was asked."""

    def __init__(self, answers: list[str]) -> None:
        self.answers, self.calls = answers, []

    def decode(self, prompt, fmt, params, grammar, should_stop):
        from ambit.server.engine import Hypothesis

        self.calls.append((prompt, fmt, params, grammar))
        text = self.answers[(len(self.calls) - 1) % len(self.answers)]
        return [Hypothesis(text=" " + text, logprob=-1.0, token_probs=[], tokens=[], min_prob=1.0, finished=True)]


def _story() -> tuple[D.Story, list[D.Story]]:
    rows = [D.story_from_row(r, "gen", str(i)) for i, r in enumerate(stories(30, seed=9))]
    return rows[0], rows


def test_prompts_carry_the_sample_s_own_earlier_translations_and_seeds_differ():
    story, rows = _story()
    answers = [G.render(__import__("ambit.logic", fromlist=["parse"]).parse(t, "folio")) for t in story.gold_fol]
    backend = Recording(answers)
    head = P.header(P.pick_demos(P.demo_pool(rows), story, 2, 0))
    out = T.translate(backend, head, story.id, story.sentences, T.Decoding(samples=2, temperature=0.5, seed=3))
    n = len(story.sentences)
    assert len(backend.calls) == 2 * n and [len(s) for s in out] == [n, n]
    for k, (prompt, fmt, params, grammar) in enumerate(backend.calls):
        i = k % n
        assert grammar == G.grammar_text() and params.strategy == "sample" and params.k == 1
        assert prompt.startswith(head) and prompt.endswith(f"Sentence: {story.sentences[i]}\nFOL:")
        for j in range(i):  # the sample's earlier sentences with its own (raw) translations
            assert f"Sentence: {story.sentences[j]}\nFOL: {answers[j]}\n" in prompt
    assert len({c[2].seed for c in backend.calls}) == 2 * n
    rec = S.score_story(story, out)
    assert all(x["relation"] == "EQUIVALENT" and x["in_grammar"] for s in rec["samples"] for x in s["sentences"])
    assert rec["voted_label"] == rec["samples"][0]["label"] == story.label
    single = Recording(answers)
    T.translate(single, head, story.id, story.sentences, T.Decoding(samples=1, beam=3))
    assert {(c[2].strategy, c[2].k) for c in single.calls} == {("beam", 3)}


def test_tiny_model_outputs_finish_in_the_grammar(tmp_path):
    from ambit.server.model import ModelBackend
    from tests.server.engine.helpers import tiny_gpt2

    backend = ModelBackend(tiny_gpt2(Path(tmp_path)))
    story, rows = _story()
    head = P.header(P.pick_demos(P.demo_pool(rows), story, 1, 0))
    out = T.translate(backend, head, story.id, story.sentences[:2], T.Decoding(samples=2, max_tokens=32,
                                                                               temperature=1.0))
    finished = [x for s in out for x in s if x["finished"]]
    assert finished, "a random model ends some outputs within 32 tokens"
    for x in finished:
        assert G.in_grammar(x["raw"]) and x["text"] == G.to_folio(x["raw"])
        assert S.read(x["text"])[0] is not None
