"""RADD verification: the instance (text or JSON) read and checked by `logic.radd` within budget."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ambit.logic.runtime.worker import PrologError

from ambit.server.guard.limits import Limits
from ambit.server.service import validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import DeadlineExceeded, InvalidField, PrologExhausted

SOURCES = ("text", "instance_json")
# PrologError reasons for an instance that needs more than its budget: not a server fault
RESOURCE_REASONS = ("inference_limit", "memory")


@dataclass(frozen=True)
class RaddQuery:
    """The instance as `source` (text | instance_json, None: not given) with its `value`."""

    source: str | None
    value: str = ""
    time_limit_s: float = 0.0


@dataclass(frozen=True)
class RaddAnswer:
    """The instance that was read and logic.radd's verdict on it."""

    instance: Any
    result: Any


def read_instance(query: RaddQuery, limits: Limits) -> Any:
    """The RADD instance in the query; InvalidField naming the source when it is not one."""
    from ambit.generators.radd.instance import RaddInstance
    from ambit.generators.radd.loader import parse_prompt

    if query.source is None:
        raise InvalidField("text", "set either text or instance_json", reason="EMPTY")
    value = validate.text(query.value, query.source, limits.max_prompt_chars)
    try:
        if query.source == "text":
            return parse_prompt(value)
        return RaddInstance.from_dict(json.loads(validate.json_depth(value, query.source)))
    except (ValueError, KeyError, TypeError) as e:  # RaddParseError and JSON errors are ValueErrors
        raise InvalidField(query.source, f"not a RADD instance: {e}", reason="BAD_INSTANCE") from None


def verify(query: RaddQuery, limits: Limits, deadline: Deadline, default_s: float) -> RaddAnswer:
    """Which options the regularity allows, with the derivation; a Prolog budget run out is
    DeadlineExceeded (time) or PrologExhausted (inferences, memory)."""
    from ambit.logic import radd

    instance = read_instance(query, limits)
    budget = deadline.budget(query.time_limit_s, default_s)
    try:
        result = radd.verify(instance, time_limit=budget)
    except PrologError as e:
        if e.timed_out:
            raise DeadlineExceeded(f"Prolog budget of {budget:.2f} s exhausted") from None
        if e.reason in RESOURCE_REASONS:
            raise PrologExhausted(f"RADD verification stopped by a Prolog resource limit ({e.reason}): {e}",
                                  e.reason) from None
        raise
    deadline.check()
    return RaddAnswer(instance, result)
