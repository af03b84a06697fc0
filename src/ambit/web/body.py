"""Request bodies: read under a budget of bytes in flight (`BodyBudget`: 503 past it), checked off
the event loop (`parse`): values counted and integer digits bounded before parsing, so a hostile
body is a 400 before it becomes a million objects; no NaN, bounded depth, UTF-8 text only.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from ambit.server.service import InvalidField
from ambit.server.service.deadline import Refused
from ambit.server.service.validate import MAX_JSON_DEPTH

RETRY_AFTER_S = 1.0


class BodyBudget:
    """Bytes of bodies in flight, at most `limit` (thread-safe)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.refused = 0
        self._lock = threading.Lock()

    def take(self, n: int) -> None:
        """Hold `n` more bytes; `Refused` (nothing held) when they do not fit."""
        with self._lock:
            if self.used + n > self.limit:
                self.refused += 1
                raise Refused(f"server busy: {self.used:,} bytes of request bodies in flight, the limit is "
                              f"{self.limit:,} (--http-max-body-bytes); retry after {RETRY_AFTER_S:g} s",
                              RETRY_AFTER_S, per_client=False)
            self.used += n

    def give(self, n: int) -> None:
        with self._lock:
            self.used -= n


class Held:
    """The bytes one request holds in a budget, given back once (`release`)."""

    def __init__(self, budget: BodyBudget) -> None:
        self.budget = budget
        self.n = 0

    def take(self, n: int) -> None:
        self.budget.take(n)
        self.n += n

    def release(self) -> None:
        n, self.n = self.n, 0
        if n:
            self.budget.give(n)


class _Refused(ValueError):
    pass


def parse(raw: bytes, max_values: int, max_int_digits: int, max_depth: int = MAX_JSON_DEPTH) -> dict:
    """The body as a JSON object, checked as the module says; InvalidField otherwise."""
    if not raw.strip():
        return {}
    values = raw.count(b",") + raw.count(b":")
    if values > max_values:
        raise InvalidField("body", f"about {values:,} JSON values; at most {max_values:,} are read", reason="TOO_LARGE")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidField("body", f"not UTF-8 (byte {e.start}: {e.reason})", reason="BAD_JSON") from None

    def bounded_int(digits: str) -> int:
        n = len(digits.lstrip("-"))
        if n > max_int_digits:
            raise _Refused(f"an integer of {n:,} digits; at most {max_int_digits} are read")
        return int(digits)

    def no_constant(name: str) -> Any:
        raise _Refused(f"{name} is not a JSON number")

    try:
        body = json.loads(text, parse_int=bounded_int, parse_constant=no_constant)
    except _Refused as e:
        raise InvalidField("body", str(e), reason="OUT_OF_RANGE") from None
    except RecursionError:
        raise InvalidField("body", f"JSON nested more than {max_depth} deep", reason="TOO_DEEP") from None
    except json.JSONDecodeError as e:
        err = InvalidField("body", f"not JSON: {e.msg} at character {e.pos}", reason="BAD_JSON")
        err.position = e.pos  # type: ignore[attr-defined]
        raise err from None
    if not isinstance(body, dict):
        raise InvalidField("body", "expected a JSON object", reason="BAD_JSON")
    _check(body, max_depth)
    return body


def _check(body: dict, max_depth: int) -> None:
    """Depth at most `max_depth` and every string UTF-8, else InvalidField (iterative)."""
    stack: list[tuple[Any, int, str]] = [(v, 2, str(k)) for k, v in body.items()]
    for key in body:
        _utf8(key, "body")
    while stack:
        value, depth, field = stack.pop()
        if isinstance(value, str):
            _utf8(value, field)
        elif isinstance(value, (list, dict)):
            if depth > max_depth:
                raise InvalidField(field, f"JSON nested more than {max_depth} deep", reason="TOO_DEEP")
            if isinstance(value, dict):
                for k, v in value.items():
                    _utf8(k, field)
                    stack.append((v, depth + 1, field))
            else:
                stack.extend((v, depth + 1, field) for v in value)


def _utf8(text: str, field: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidField(field, f"a lone surrogate (\\u{ord(text[e.start]):04x}) at character {e.start}: "
                                  "not text", reason="BAD_JSON") from None
