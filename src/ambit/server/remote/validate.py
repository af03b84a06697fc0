"""The shape each protocol needs of an endpoint's answer, checked before it is used or cached; a
failing one raises `ResponseInvalid` naming the field and value (retried like a 5xx)."""

from __future__ import annotations

import math
from typing import Any, Callable

POSITIVE_SLACK = 1e-4  # float32 log-softmax rounding; +3.0 or 1e6 is no rounding
FLOOR = -1e5  # below any real token's log-probability (vLLM writes -9999.0 for -inf); sums stay finite
MAX_COUNT = 10**12  # usage counts past this are no counts (and would overflow the counters' uint64)
Check = Callable[[Any], None]


class ResponseInvalid(ValueError):
    """An answer that does not have the shape its protocol needs: `field`, and what was there."""

    def __init__(self, field: str, value: Any, expected: str) -> None:
        super().__init__(f"{field} is {_show(value)}, expected {expected}")
        self.field = field


class _Said(str):
    """A description of what was there (shown as it is, not as a value)."""


def _show(value: Any) -> str:
    if isinstance(value, _Said):
        return str(value)
    if value is None:
        return "missing"
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"


def _object(r: Any, field: str) -> dict:
    if not isinstance(r, dict):
        raise ResponseInvalid(field, r, "a JSON object")
    return r


def _list(v: Any, field: str) -> list:
    if not isinstance(v, list):
        raise ResponseInvalid(field, v, "a list")
    return v


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _logprob(values: list, i: int, field: str, none_at_first: bool) -> None:
    v = values[i]
    if v is None and i == 0 and none_at_first:
        return
    if not _number(v) or not math.isfinite(v) or v > POSITIVE_SLACK or v < FLOOR:
        raise ResponseInvalid(f"{field}[{i}]", v, f"a finite log-probability ≤ 0 (and ≥ {FLOOR:g})")
    if v > 0:
        values[i] = 0.0  # rounding


def logprobs(lp: Any, field: str, echo: bool) -> None:
    """A completion choice's `logprobs`: lists of one length (with `echo` the first may be None)."""
    lp = _object(lp, field)
    tokens = _list(lp.get("tokens"), f"{field}.tokens")
    values = _list(lp.get("token_logprobs"), f"{field}.token_logprobs")
    offsets = _list(lp.get("text_offset"), f"{field}.text_offset")
    if not (len(tokens) == len(values) == len(offsets)):
        raise ResponseInvalid(f"{field}.token_logprobs", _Said(f"{len(tokens)} tokens, {len(values)} log-probabilities, "
                              f"{len(offsets)} offsets"), "lists of one length")
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            raise ResponseInvalid(f"{field}.tokens[{i}]", t, "a string")
    for i, o in enumerate(offsets):
        if not isinstance(o, int) or isinstance(o, bool) or o < 0:
            raise ResponseInvalid(f"{field}.text_offset[{i}]", o, "a character offset ≥ 0")
    for i in range(len(values)):
        _logprob(values, i, f"{field}.token_logprobs", echo)


def _choices(r: Any, n: int | None) -> list[dict]:
    choices = _list(_object(r, "response").get("choices"), "choices")
    if n is not None and len(choices) != n:
        raise ResponseInvalid("choices", _Said(f"{len(choices)} choices"), f"{n} (one per prompt and sample)")
    if not choices:
        raise ResponseInvalid("choices", _Said("an empty list"), "at least one choice")
    for i, ch in enumerate(choices):
        _object(ch, f"choices[{i}]")
        if "index" in ch and (not isinstance(ch["index"], int) or isinstance(ch["index"], bool)):
            raise ResponseInvalid(f"choices[{i}].index", ch["index"], "an integer")
        if ch.get("finish_reason") is not None and not isinstance(ch["finish_reason"], str):
            raise ResponseInvalid(f"choices[{i}].finish_reason", ch["finish_reason"], "a string")
    indices = [ch["index"] for ch in choices if "index" in ch]
    if n is not None and len(indices) == n and sorted(indices) != list(range(n)):
        raise ResponseInvalid("choices[].index", _Said(f"{sorted(indices)[:8]}"), f"0 to {n - 1}, each once")
    _usage(r)
    return choices


def _usage(r: dict) -> None:
    usage = r.get("usage")
    if usage is None:
        return
    _object(usage, "usage")
    for name in ("prompt_tokens", "completion_tokens"):
        v = usage.get(name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_COUNT):
            raise ResponseInvalid(f"usage.{name}", v, "a count ≥ 0")


def completions(n: int | None, logprobs_needed: bool = False, echo: bool = False) -> Check:
    """/completions: `n` choices (None: at least one) with a `text`, and log-probs if needed."""
    def check(r: Any) -> None:
        for i, ch in enumerate(_choices(r, n)):
            if not isinstance(ch.get("text"), str):
                raise ResponseInvalid(f"choices[{i}].text", ch.get("text"), "a string")
            lp = ch.get("logprobs")
            if lp is None and logprobs_needed:
                raise ResponseInvalid(f"choices[{i}].logprobs", None, "log-probabilities (the probe found them)")
            if lp is not None:
                logprobs(lp, f"choices[{i}].logprobs", echo)
    return check


def chat(n: int | None) -> Check:
    """/chat/completions: `n` choices, each with a `message` whose `content` is a string (or null)."""
    def check(r: Any) -> None:
        for i, ch in enumerate(_choices(r, n)):
            msg = _object(ch.get("message"), f"choices[{i}].message")
            if msg.get("content") is not None and not isinstance(msg["content"], str):
                raise ResponseInvalid(f"choices[{i}].message.content", msg["content"], "a string")
    return check


def models(r: Any) -> list[str]:
    """/models: `data`, a list of objects with a string `id`; the ids."""
    data = _list(_object(r, "response").get("data"), "data")
    for i, m in enumerate(data):
        if not isinstance(_object(m, f"data[{i}]").get("id"), str):
            raise ResponseInvalid(f"data[{i}].id", m.get("id"), "a string")
    return [m["id"] for m in data]


def any_object(r: Any) -> None:
    """Any JSON object (a probe that looks at the answer's effect itself)."""
    _object(r, "response")
