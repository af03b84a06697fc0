"""Generation requests: chat turns checked, the reply (a `format`: a formula) from the model."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ambit.logic.syntax.dialect import DECODABLE_NAMES
from ambit.server.batcher import Worker
from ambit.server.guard.limits import Limits
from ambit.server.model import Capability, DecodeParams, GenerateParams
from ambit.server.service import validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import InvalidField
from ambit.server.service.scoring import run_call
from ambit.server.values import Generation

ROLES = ("system", "user", "assistant")
DEFAULT_MAX_NEW_TOKENS = 256


@dataclass(frozen=True)
class GenerateQuery:
    """Chat turns ((role, content) pairs) to reply to. `use_chat_template` None: the model's
    template when it has one; `max_new_tokens` 0: the default; `temperature` 0: greedy."""

    messages: tuple[tuple[str, str], ...]
    max_new_tokens: int = 0
    use_chat_template: bool | None = None
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    fmt: str | None = None  # set: the reply is one formula of this format (constrained decoding)


@dataclass(frozen=True)
class FormulaReply(Generation):
    """A reply constrained to one formula: `formula` is it read back ("" when it does not read)."""

    formula: str


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
    if not 0.0 <= query.temperature <= 100.0:  # NaN and infinity fail this too
        raise InvalidField("temperature", f"{query.temperature}; must be 0 (greedy) to 100", reason="OUT_OF_RANGE")
    if not 0 < query.top_p <= 1:
        raise InvalidField("top_p", f"{query.top_p}; expected 0 < top_p <= 1", reason="OUT_OF_RANGE")
    use = has_template if query.use_chat_template is None else query.use_chat_template
    if use and not has_template:
        raise InvalidField("use_chat_template", "this model has no chat template; leave it unset or false",
                           reason="NO_CHAT_TEMPLATE")
    return GenerateParams(n, use, query.temperature, query.top_p, query.seed)


def generate(worker: Worker, query: GenerateQuery, limits: Limits, deadline: Deadline) -> Any:
    """The model's reply: an engine `Generation`, or a `FormulaReply` with a format."""
    if query.fmt is not None:
        return _formula(worker, query, limits, deadline)
    p = params(query, limits, Capability.CHAT_TEMPLATE in worker.backend.capabilities)
    validate.context(worker.backend, "\n".join(c for _, c in query.messages), p.max_new_tokens, "messages")
    return run_call(worker, lambda b: b.generate(list(query.messages), p, deadline.expired),
                    deadline, "generation")


DECODED_FORMATS = DECODABLE_NAMES  # the formats a reply can be constrained to: those with a decode grammar


def _formula(worker: Worker, query: GenerateQuery, limits: Limits, deadline: Deadline) -> FormulaReply:
    """One formula of `query.fmt` as the reply, by the constrained decoder (beam 1 or a sample)."""
    from ambit.server.service import distribution, prompting

    fmt = query.fmt
    if fmt not in DECODED_FORMATS:
        raise InvalidField("format", f"a reply is constrained to {', '.join(DECODED_FORMATS)}, not {fmt}",
                           reason="NOT_SUPPORTED")
    backend = worker.backend
    p = params(query, limits, Capability.CHAT_TEMPLATE in backend.capabilities)
    if p.use_chat_template and Capability.CHAT_PROMPT not in backend.capabilities:
        raise InvalidField("use_chat_template", "a formula through the chat template needs a model in the server's "
                           "own engine (an endpoint applies its template only to free text); send "
                           "use_chat_template=false", reason="NOT_SUPPORTED")
    turns = list(query.messages)
    prompt = backend.chat_prompt(turns) if p.use_chat_template else PLAIN_SEPARATOR.join(c for _, c in turns)
    validate.context(backend, prompt, p.max_new_tokens, "messages")
    sample = p.temperature > 0
    decode = DecodeParams("sample" if sample else "beam", 1, p.temperature if sample else 1.0, p.top_p,
                          p.max_new_tokens, p.seed)
    grammar = prompting.decoding(prompting.DecodingOptions(), fmt, limits)[1]
    t0 = time.perf_counter()
    hyps = run_call(worker, lambda b: b.decode(prompt, fmt, decode, grammar, deadline.expired),
                    deadline, "generation")
    h = hyps[0] if hyps else None
    text = h.text.strip() if h is not None else ""
    finished = h is not None and bool(getattr(h, "finished", True))
    cand = distribution.candidates([h], fmt)[0] if h is not None else None
    formula = cand.canonical if cand is not None and cand.parse_status == distribution.OK else ""
    counted = Capability.TOKENS in backend.capabilities
    return FormulaReply(text, prompt, p.use_chat_template, backend.count_tokens(prompt) if counted else 0,
                        len(h.token_probs) if h is not None else 0, "stop" if finished else "length",
                        time.perf_counter() - t0, formula)


PLAIN_SEPARATOR = "\n\n"  # turns without a chat template, as the engine and the endpoints join them
