"""Free-text generation requests: check the chat turns and the budget, run the model's reply on
the model worker (one job at a time, between scoring batches), wait within the deadline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..batcher import ModelWorker, QueueFull
from ..limits import Limits
from ..model import DecodeStopped, GenerateParams
from . import validate
from .deadline import Deadline
from .errors import Cancelled, InvalidField, ModelUnavailable, Overloaded
from .scoring import wait_for

ROLES = ("system", "user", "assistant")
DEFAULT_MAX_NEW_TOKENS = 256


@dataclass(frozen=True)
class GenerateQuery:
    """Chat turns ((role, content) pairs) to reply to. `use_chat_template`: None means the
    model's own template when it has one, plain text otherwise. `max_new_tokens` 0 means the
    default; `temperature` 0 means greedy."""

    messages: tuple[tuple[str, str], ...]
    max_new_tokens: int = 0
    use_chat_template: bool | None = None
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0


def params(query: GenerateQuery, limits: Limits, has_template: bool) -> GenerateParams:
    """The query's options, checked against `limits`; InvalidField names the bad field."""
    if not query.messages:
        raise InvalidField("messages", "at least one chat turn is needed", reason="EMPTY")
    total = 0
    for i, (role, content) in enumerate(query.messages):
        if role not in ROLES:
            raise InvalidField(f"messages[{i}].role", f"{role!r} is not one of {', '.join(ROLES)}",
                               reason="UNKNOWN_ROLE")
        validate.text(content, f"messages[{i}].content", limits.max_prompt_chars)
        total += len(content)
    if total > limits.max_prompt_chars:
        raise InvalidField("messages", f"{total} characters in all; the limit is {limits.max_prompt_chars}",
                           reason="TOO_LONG")
    n = query.max_new_tokens or min(DEFAULT_MAX_NEW_TOKENS, limits.max_tokens)
    if not 1 <= n <= limits.max_tokens:
        raise InvalidField("max_new_tokens", f"{n}; expected 1 to {limits.max_tokens}", reason="OUT_OF_RANGE")
    if query.temperature < 0:
        raise InvalidField("temperature", f"{query.temperature}; must be 0 (greedy) or more", reason="OUT_OF_RANGE")
    if not 0 < query.top_p <= 1:
        raise InvalidField("top_p", f"{query.top_p}; expected 0 < top_p <= 1", reason="OUT_OF_RANGE")
    use = has_template if query.use_chat_template is None else query.use_chat_template
    if use and not has_template:
        raise InvalidField("use_chat_template", "this model has no chat template; leave it unset or false",
                           reason="NO_CHAT_TEMPLATE")
    return GenerateParams(n, use, query.temperature, query.top_p, query.seed)


def generate(worker: ModelWorker, query: GenerateQuery, limits: Limits, deadline: Deadline) -> Any:
    """The model's reply (an engine `Generation`), run on the model worker."""
    if not hasattr(worker.backend, "generate"):
        raise ModelUnavailable("this server's model backend does not generate text")
    has_template = bool(getattr(worker.backend, "has_chat_template", lambda: False)())
    p = params(query, limits, has_template)
    validate.context(worker.backend, "\n".join(c for _, c in query.messages), p.max_new_tokens, "messages")
    try:
        fut = worker.submit_call(lambda backend: backend.generate(list(query.messages), p, deadline.expired))
    except QueueFull as e:
        raise Overloaded(str(e)) from None
    try:
        return wait_for(fut, deadline)
    except DecodeStopped:
        deadline.check()
        raise Cancelled("generation stopped: request cancelled") from None
