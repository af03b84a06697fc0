"""Free-text generation (`server.lm.generate`): greedy replies equal a hand-written argmax
loop, the budget and end tokens are honoured, seeded sampling repeats, cancellation stops it,
chat templates are applied (tiny random GPT-2; the default model's chat reply is slow)."""

from __future__ import annotations

import pytest
import torch

from ambit.server.lm.generate import ChatTemplateMissing, ChatTurn, DecodeCancelled, generate, render

TURNS = [ChatTurn("user", "Every man saw a bird."), ChatTurn("assistant", "Which bird?"),
         ChatTurn("user", "Any bird.")]
# a minimal chat template in the ChatML layout the default model uses
CHATML = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def argmax_loop(lm, prompt: str, n: int) -> list[int]:
    """Greedy continuation by full forward passes, no cache: the reference."""
    ids = lm.tokenizer(prompt, return_tensors="pt")["input_ids"].to(lm.device)
    out: list[int] = []
    with torch.no_grad():
        for _ in range(n):
            nxt = int(lm.model(ids).logits[0, -1].argmax())
            out.append(nxt)
            if nxt == lm.tokenizer.eos_token_id:
                break
            ids = torch.cat([ids, torch.tensor([[nxt]], device=lm.device)], dim=1)
    return out


def test_greedy_reply_matches_argmax_loop(tiny_lm):
    g = generate(tiny_lm, TURNS, max_new_tokens=12, use_chat_template=False)
    assert g.prompt == "Every man saw a bird.\n\nWhich bird?\n\nAny bird."
    ref = argmax_loop(tiny_lm, g.prompt, 12)
    assert g.new_tokens == len(ref)
    assert g.text == tiny_lm.tokenizer.decode([t for t in ref if t != tiny_lm.tokenizer.eos_token_id])
    assert g.finish_reason == ("stop" if ref[-1] == tiny_lm.tokenizer.eos_token_id else "length")
    assert not g.chat_template


@pytest.mark.parametrize("budget", [1, 5])
def test_budget_is_an_upper_bound(tiny_lm, budget):
    g = generate(tiny_lm, TURNS[:1], max_new_tokens=budget, use_chat_template=False)
    assert 1 <= g.new_tokens <= budget
    assert g.finish_reason == "length" or g.new_tokens < budget


def test_sampling_repeats_with_its_seed_and_varies_across_seeds(tiny_lm):
    kw = dict(max_new_tokens=10, use_chat_template=False, temperature=50.0)  # flat: the tiny model is peaked
    a = [generate(tiny_lm, TURNS, seed=s, **kw).text for s in range(4)]
    b = [generate(tiny_lm, TURNS, seed=s, **kw).text for s in range(4)]
    assert a == b
    assert len(set(a)) > 1


def test_should_stop_cancels(tiny_lm):
    with pytest.raises(DecodeCancelled):
        generate(tiny_lm, TURNS, max_new_tokens=50, use_chat_template=False, should_stop=lambda: True)


def test_chat_template_required_when_asked(tiny_lm):
    with pytest.raises(ChatTemplateMissing, match="no chat template"):
        render(tiny_lm, TURNS, use_chat_template=True)
    with pytest.raises(ValueError, match=r"messages\[0\].role"):
        render(tiny_lm, [ChatTurn("robot", "hi")], use_chat_template=False)
    with pytest.raises(ValueError, match="max_new_tokens"):
        generate(tiny_lm, TURNS, max_new_tokens=0, use_chat_template=False)


def test_chat_template_is_applied(tiny_lm):
    tok = tiny_lm.tokenizer
    tok.chat_template = CHATML
    try:
        g = generate(tiny_lm, TURNS, max_new_tokens=6, use_chat_template=True)
    finally:
        tok.chat_template = None
    assert g.chat_template
    assert g.prompt.startswith("<|im_start|>user\nEvery man saw a bird.<|im_end|>\n<|im_start|>assistant\nWhich")
    assert g.prompt.endswith("<|im_start|>assistant\n")
    ref = argmax_loop(tiny_lm, g.prompt, 6)
    assert g.text == tok.decode([t for t in ref if t != tok.eos_token_id])


@pytest.mark.slow
def test_default_model_answers_a_chat_turn(smol_lm):
    g = generate(smol_lm, [ChatTurn("user", "What is the capital of France? Answer in one word.")], 24)
    assert g.chat_template and "<|im_start|>assistant\n" in g.prompt
    assert g.finish_reason == "stop"
    assert "Paris" in g.text
    assert "<|im_end|>" not in g.text
