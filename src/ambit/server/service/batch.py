"""The loop under the logic checks' batch RPCs: each item read on its own (an unreadable one gets
its own error), the rest decided one Prolog round trip per chunk, answered in input order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ambit.server.guard.limits import Limits
from ambit.server.service import validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import ServiceError

CHUNK = 64  # items per Prolog round trip


@dataclass(frozen=True)
class Ready:
    """An item that was read: its index, the query, what `read` made of it, its Prolog budget."""

    index: int
    query: Any
    value: Any
    budget: float


def run(
    items: Sequence[Any],
    limits: Limits,
    deadline: Deadline,
    default_s: float,
    read: Callable[[Any, Limits, str], Any],
    decide: Callable[[list[Ready]], dict[int, Any]],
) -> Iterator[tuple[int, Any]]:
    """(index, answer or error) for every item, in order; an item that is already a ServiceError
    is reported as it is."""
    validate.batch_size(items, limits.max_batch_items)
    for start in range(0, len(items), CHUNK):
        deadline.check()
        results: dict[int, Any] = {}
        ready: list[Ready] = []
        for i in range(start, min(start + CHUNK, len(items))):
            item = items[i]
            try:
                if isinstance(item, ServiceError):
                    raise item
                value = read(item, limits, f"items[{i}].")
            except ServiceError as e:
                results[i] = e
                continue
            # past the deadline, budget() raises: the batch stops
            ready.append(Ready(i, item, value, deadline.budget(item.time_limit_s, default_s)))
        if ready:
            results.update(decide(ready))
        deadline.check()
        yield from sorted(results.items())


__all__ = ["CHUNK", "Ready", "run"]
