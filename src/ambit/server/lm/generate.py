"""Free-text generation for chat turns (greedy or seeded sampling, the model's chat template):
how the RADD and implicature papers ran dialogue models (`generators/radd/prompts.py`)."""

from __future__ import annotations

import time
from typing import Callable, Sequence

import torch

from ambit.server.hypothesis import DecodeCancelled
from ambit.server.values import ChatTurn, Generation

__all__ = ["ChatTemplateMissing", "ChatTurn", "DecodeCancelled", "Generation", "generate", "render"]
from ambit.server.lm.loading import LoadedModel

ROLES = ("system", "user", "assistant")
PLAIN_SEPARATOR = "\n\n"  # joins the turns without a chat template


class ChatTemplateMissing(ValueError):
    """use_chat_template was asked of a tokenizer that has no chat template."""


def has_chat_template(lm: LoadedModel) -> bool:
    return bool(getattr(lm.tokenizer, "chat_template", None))


def render(lm: LoadedModel, turns: Sequence[ChatTurn], use_chat_template: bool) -> str:
    """The prompt: the chat template with the generation cue, or the contents, blank-line joined."""
    if not turns:
        raise ValueError("at least one chat turn is needed")
    for i, t in enumerate(turns):
        if t.role not in ROLES:
            raise ValueError(f"messages[{i}].role: {t.role!r} is not one of {', '.join(ROLES)}")
    if not use_chat_template:
        return PLAIN_SEPARATOR.join(t.content for t in turns)
    if not has_chat_template(lm):
        raise ChatTemplateMissing(f"model {lm.model_id!r} has no chat template; send use_chat_template=false "
                                  "to join the turns as plain text")
    msgs = [{"role": t.role, "content": t.content} for t in turns]
    return lm.tokenizer.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False)


class _Poll:
    def __init__(self, should_stop: Callable[[], bool] | None) -> None:
        self.should_stop = should_stop
        self.fired = False

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor, **kwargs) -> torch.Tensor:
        self.fired = bool(self.should_stop and self.should_stop())
        return torch.full((input_ids.shape[0],), self.fired, dtype=torch.bool, device=input_ids.device)


def end_ids(lm: LoadedModel) -> list[int]:
    """Tokens that end a reply: the generation config's EOS ids and the tokenizer's EOS."""
    eos = getattr(getattr(lm.model, "generation_config", None), "eos_token_id", None)
    ids = set([eos] if isinstance(eos, int) else list(eos or []))
    if lm.tokenizer.eos_token_id is not None:
        ids.add(int(lm.tokenizer.eos_token_id))
    return sorted(ids)


def generate(lm: LoadedModel, turns: Sequence[ChatTurn], max_new_tokens: int,
             use_chat_template: bool = True, temperature: float = 0.0, top_p: float = 1.0,
             seed: int = 0, should_stop: Callable[[], bool] | None = None) -> Generation:
    """The reply to `turns`, greedy at `temperature` 0; DecodeCancelled once `should_stop()`."""
    from transformers import StoppingCriteriaList

    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be at least 1, not {max_new_tokens}")
    t0 = time.perf_counter()
    prompt = render(lm, turns, use_chat_template)
    # a chat template already writes the special tokens (BOS and the like) itself
    enc = lm.tokenizer(prompt, return_tensors="pt", add_special_tokens=not use_chat_template)
    ids, mask = enc["input_ids"].to(lm.device), enc["attention_mask"].to(lm.device)
    stops = end_ids(lm)
    poll = _Poll(should_stop)
    sampling = temperature > 0
    if sampling:
        torch.manual_seed(seed)
    options = dict(do_sample=True, temperature=temperature, top_p=top_p) if sampling else dict(
        do_sample=False, temperature=None, top_p=None, top_k=None)
    with torch.no_grad():
        out = lm.model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=max_new_tokens,
                                eos_token_id=stops or None, pad_token_id=lm.tokenizer.pad_token_id,
                                stopping_criteria=StoppingCriteriaList([poll]), **options)
    if poll.fired:
        raise DecodeCancelled("generation cancelled by the caller")
    seq = out[0].tolist()
    new = seq[1:] if lm.model.config.is_encoder_decoder else seq[ids.shape[1]:]  # drop decoder start / prompt
    finished = bool(new) and new[-1] in stops
    text = lm.tokenizer.decode(new[:-1] if finished else new, skip_special_tokens=True)
    return Generation(text, prompt, use_chat_template, int(ids.shape[1]), len(new), "stop" if finished else "length",
                      time.perf_counter() - t0)
