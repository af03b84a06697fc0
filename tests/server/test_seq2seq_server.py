"""A tiny random encoder-decoder model behind a real localhost server (issue 20, model
families): the server reports its kind, scores candidates as the engine's seq2seq scorer does
(encoder once, teacher-forced decoder), and generates greedily."""

from __future__ import annotations

import pytest
import torch

from ambit.client.api import Client
from tests.helpers.families import save, tiny_t5
from tests.helpers.server import ServerProcess


def naive_sum_logprob(lm, prompt: str, target: str) -> float:
    """Teacher forcing written out: the target's tokens given the prompt, one decoder pass."""
    enc = lm.tokenizer(prompt, return_tensors="pt")
    ids = lm.tokenizer(target, add_special_tokens=False)["input_ids"]
    start = lm.model.config.decoder_start_token_id
    dec = torch.tensor([[start, *ids[:-1]]])
    with torch.no_grad():
        logits = lm.model(**enc, decoder_input_ids=dec).logits[0]
    logp = torch.log_softmax(logits.float(), dim=-1)
    return float(sum(logp[t, tok] for t, tok in enumerate(ids)))


def test_seq2seq_model_scores_and_generates_behind_a_server(tmp_path):
    lm = tiny_t5(tmp_path / "t5")
    folder = save(lm, tmp_path / "t5")
    proc = ServerProcess("--model", str(folder), "--device", "cpu", "--host", "localhost", ready_timeout=120)
    try:
        with Client(proc.address) as client:
            assert client.info().kind == "seq2seq"
            prompt, cands = "did you eat ? the response is", ["yes", "no", "i have not"]
            scores = client.score(prompt, cands).scores
            assert [s.text for s in scores] == cands
            for s, c in zip(scores, cands):
                assert s.sum_logprob == pytest.approx(naive_sum_logprob(lm, prompt, c), abs=1e-4)
            reply = client.generate([("user", "did you eat ?")], max_new_tokens=6, use_chat_template=False)
            assert reply.new_tokens <= 6 and reply.finish_reason in ("stop", "length")
            again = client.generate([("user", "did you eat ?")], max_new_tokens=6, use_chat_template=False)
            assert again.text == reply.text  # greedy: the same reply every time
    finally:
        proc.terminate()
