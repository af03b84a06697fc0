"""Model families (issue 20): encoder-decoder scoring and generation, masked scoring, and the
kind decided at load time, on tiny random T5 and BERT models (tests/helpers/families.py)."""

from __future__ import annotations

import pytest
import torch

from ambit.server.lm.generate import ChatTurn, generate
from ambit.server.lm.kinds import model_kind
from ambit.server.lm.loading import load_model
from ambit.server.lm.masked import MASK_SLOT, MaskedScorer
from ambit.server.lm.seq2seq import Seq2SeqScorer
from tests.helpers.families import save, tiny_bert, tiny_t5


@pytest.fixture(scope="module")
def t5(tmp_path_factory):
    return tiny_t5(tmp_path_factory.mktemp("t5"))


@pytest.fixture(scope="module")
def bert(tmp_path_factory):
    return tiny_bert(tmp_path_factory.mktemp("bert"))


def naive_seq2seq(lm, prompt: str, target: str) -> list[float]:
    """Log-probs of each target token, one full teacher-forced forward per token prefix."""
    enc = lm.tokenizer(prompt, return_tensors="pt")
    ids = lm.tokenizer(target, add_special_tokens=False)["input_ids"]
    out = []
    for j in range(len(ids)):
        dec = torch.tensor([[0] + ids[:j]])
        with torch.no_grad():
            logits = lm.model(input_ids=enc["input_ids"], decoder_input_ids=dec).logits[0, -1]
        out.append(float(torch.log_softmax(logits, -1)[ids[j]]))
    return out


def test_seq2seq_scores_equal_a_naive_forward_per_token(t5):
    prompt, cands = "did you go to the party ?", [" yes", " no it is not", "i have"]
    scores = Seq2SeqScorer(t5).score(prompt, cands, end_marker=True)
    for s, c in zip(scores, cands):
        naive = naive_seq2seq(t5, prompt, c)
        assert s.token_logprobs == pytest.approx(naive, abs=1e-4)
        assert s.sum_logprob == pytest.approx(sum(naive), abs=1e-4)
        assert s.end_logprob is not None and s.end_logprob < 0
    assert len({round(s.sum_logprob, 3) for s in scores}) == 3
    assert Seq2SeqScorer(t5).score_batch([(prompt, cands)])[0][1].sum_logprob == pytest.approx(scores[1].sum_logprob)


def test_seq2seq_generation_is_greedy_and_stops(t5):
    g = generate(t5, [ChatTurn("user", "did you eat ?")], max_new_tokens=6, use_chat_template=False)
    assert g.finish_reason in ("stop", "length") and 1 <= g.new_tokens <= 6
    # greedy: each new token is the argmax of a teacher-forced forward over the ones before it
    enc = t5.tokenizer("did you eat ?", return_tensors="pt")
    dec = [0]
    for _ in range(g.new_tokens):
        with torch.no_grad():
            logits = t5.model(input_ids=enc["input_ids"], decoder_input_ids=torch.tensor([dec])).logits[0, -1]
        dec.append(int(logits.argmax()))
        if dec[-1] == 1:
            break
    body = dec[1:-1] if dec[-1] == 1 else dec[1:]
    assert g.text == t5.tokenizer.decode(body, skip_special_tokens=True)
    assert (g.finish_reason == "stop") == (dec[-1] == 1)


def test_masked_scores_equal_a_naive_forward_at_the_mask(bert):
    tok = bert.tokenizer
    scorer = MaskedScorer(bert)
    for prompt in (f"question: did you go ?\nimplicature: {MASK_SLOT}", f"it is {MASK_SLOT} , i know", "you did"):
        left, _, right = prompt.partition(MASK_SLOT)
        masked = f"{left}{tok.mask_token}{right}" if MASK_SLOT in prompt else f"{prompt} {tok.mask_token}"
        enc = tok(masked, return_tensors="pt")
        at = enc["input_ids"][0].tolist().index(tok.mask_token_id)
        with torch.no_grad():
            logp = torch.log_softmax(bert.model(**enc).logits[0, at], -1)
        yes, no = scorer.score(prompt, ["yes", "no"] if MASK_SLOT in prompt else [" yes", " no"])
        assert yes.sum_logprob == pytest.approx(float(logp[tok.convert_tokens_to_ids("yes")]), abs=1e-5)
        assert no.sum_logprob == pytest.approx(float(logp[tok.convert_tokens_to_ids("no")]), abs=1e-5)
        assert yes.tokens == ["yes"] and no.tokens == ["no"]


def test_two_token_candidate_fills_two_masks(bert):
    s = MaskedScorer(bert).score(f"it is {MASK_SLOT} .", ["no no"])[0]
    assert s.tokens == ["no", "no"] and len(s.token_logprobs) == 2
    with pytest.raises(ValueError, match="slots"):
        MaskedScorer(bert).score(f"{MASK_SLOT} {MASK_SLOT}", ["yes"])


def test_kind_is_decided_at_load_time_from_the_config(t5, bert, tmp_path):
    from transformers import BertConfig, DistilBertConfig, GPT2Config

    assert model_kind(t5.model.config) == "seq2seq"
    assert model_kind(BertConfig(architectures=["BertForMaskedLM"])) == "masked"
    assert model_kind(DistilBertConfig()) == "masked"  # no causal head exists for the type
    assert model_kind(BertConfig()) == "causal"  # BERT has a causal head too: the architectures decide
    assert model_kind(GPT2Config()) == "causal"
    for lm, kind in ((t5, "seq2seq"), (bert, "masked")):
        folder = save(lm, tmp_path / kind)
        loaded = load_model(str(folder), device="cpu")
        assert loaded.kind == kind and type(loaded.model) is type(lm.model)
        rnd = load_model(f"random:{folder}", device="cpu")
        assert rnd.kind == kind and rnd.model_id == f"random:{folder}"


def test_backend_picks_the_family_scorer_and_reports_the_kind(t5, bert):
    from ambit.server.engine_backend import EngineBackend

    for lm, kind, cls in ((t5, "seq2seq", Seq2SeqScorer), (bert, "masked", MaskedScorer)):
        backend = EngineBackend(lm)
        assert backend.info()["kind"] == kind and isinstance(backend.scorer, cls)
        (a, b), = backend.score_batch([(f"you did {MASK_SLOT}" if kind == "masked" else "you did", ["yes", "no"])])
        assert a.min_prob_renorm + b.min_prob_renorm == pytest.approx(1.0)


def test_the_mask_slot_is_spelled_alike_where_prompts_are_written_and_read():
    """generators/implicature writes the slot into masked prompts; server/lm/masked.py finds
    it there (neither layer may import the other, so this test ties the two together)."""
    from ambit.generators.implicature import templates
    from ambit.server.lm import masked

    assert templates.MASK_SLOT == masked.MASK_SLOT
