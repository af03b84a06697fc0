"""Free-text generation on the client side: the Generate request built from chat turns, and
the reply as a plain value (used by ``Client.generate``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ambit.proto.v1 import ambit_pb2 as pb

Turn = tuple[str, str] | dict  # (role, content) or {"role": ..., "content": ...}


@dataclass(frozen=True)
class Reply:
    """The model's reply: text, the prompt it saw, token counts, why it stopped."""

    text: str
    prompt: str
    prompt_tokens: int
    new_tokens: int
    finish_reason: str
    model_id: str
    chat_template: bool
    formula: str = ""  # with a format: the reply read as a formula, in the format's own spelling


def request(rid: str, messages: Sequence[Turn], max_new_tokens: int, use_chat_template: bool | None,
            temperature: float, top_p: float, seed: int | None, fmt: int | None = None) -> pb.GenerateRequest:
    """The GenerateRequest for ``messages``; a turn that is neither shape is a ValueError."""
    turns = []
    for i, m in enumerate(messages):
        if isinstance(m, dict) and set(m) >= {"role", "content"}:
            turns.append(pb.ChatMessage(role=m["role"], content=m["content"]))
        elif isinstance(m, (tuple, list)) and len(m) == 2:
            turns.append(pb.ChatMessage(role=m[0], content=m[1]))
        else:
            raise ValueError(f"messages[{i}]: expected (role, content) or {{'role', 'content'}}, not {m!r}")
    req = pb.GenerateRequest(request_id=rid, messages=turns, max_new_tokens=max_new_tokens,
                             temperature=temperature, top_p=top_p)
    for name, value in (("use_chat_template", use_chat_template), ("seed", seed), ("format", fmt)):
        if value is not None:  # optional fields: unset means the server's default
            setattr(req, name, value)
    return req


def reply(r: pb.GenerateResponse) -> Reply:
    return Reply(r.text, r.prompt, r.prompt_tokens, r.new_tokens, r.finish_reason, r.model_id, r.chat_template,
                 r.formula)
