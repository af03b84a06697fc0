"""Equivalence checks: one pair, or a batch sent to Prolog in chunks (one round trip per chunk
and format) and answered in order, each item with its own result or error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import logic
from logic.equivalence import Verdict

from ..limits import Limits
from . import validate
from .deadline import Deadline
from .errors import ServiceError

CHUNK = 64  # items per Prolog round trip in a batch


@dataclass(frozen=True)
class EquivalenceQuery:
    """Two LF texts in one format; `time_limit_s` is the Prolog budget (0: the server default)."""

    a: str
    b: str
    fmt: str = "fol"
    time_limit_s: float = 0.0


@dataclass(frozen=True)
class EquivalenceAnswer:
    """The verdict, with both LFs' canonical forms."""

    canonical_a: str
    canonical_b: str
    verdict: Verdict


@dataclass(frozen=True)
class _Checked:
    """A query whose LFs parsed: what Prolog needs, and the canonical forms for the answer."""

    index: int
    a: logic.Formula
    b: logic.Formula
    canonical_a: str
    canonical_b: str
    fmt: str
    budget: float


def _parse(query: EquivalenceQuery, limits: Limits, field: str) -> tuple[logic.Formula, logic.Formula, str, str]:
    a = validate.lf(query.a, query.fmt, f"{field}a", limits.max_lf_chars)
    b = validate.lf(query.b, query.fmt, f"{field}b", limits.max_lf_chars)
    return a, b, _shown(a, query.fmt), _shown(b, query.fmt)


def _shown(f: logic.Formula, fmt: str) -> str:
    """AmP's formats: the canonical form; the full first-order dialects (no canonical form):
    the formula as parsed, rendered back in its dialect."""
    return logic.canonical_form(f, fmt) if fmt in logic.FORMATS else logic.render(f, fmt)


def check(query: EquivalenceQuery, limits: Limits, deadline: Deadline, default_s: float) -> EquivalenceAnswer:
    """One pair, within the request's budget and deadline."""
    a, b, canonical_a, canonical_b = _parse(query, limits, "")
    budget = deadline.budget(query.time_limit_s, default_s)
    verdict = logic.equivalent(a, b, fmt=query.fmt, time_limit=budget)
    deadline.check()
    return EquivalenceAnswer(canonical_a, canonical_b, verdict)


Item = EquivalenceQuery | ServiceError  # a query, or why it could not be read
Outcome = tuple[int, EquivalenceAnswer | Exception]


def check_batch(
    items: Sequence[Item], limits: Limits, deadline: Deadline, default_s: float, workers: int = 1
) -> Iterator[Outcome]:
    """(index, answer or error) for every item, in order, chunk by chunk; an item that fails
    validation gets its own error and the rest go on. `workers` > 1: each chunk is spread over
    that many Prolog processes."""
    validate.batch_size(items, limits.max_batch_items)
    for start in range(0, len(items), CHUNK):
        deadline.check()
        results: dict[int, EquivalenceAnswer | Exception] = {}
        checked: list[_Checked] = []
        for i in range(start, min(start + CHUNK, len(items))):
            item = items[i]
            try:
                parsed = _read(item, limits, f"items[{i}].")
            except ServiceError as e:
                results[i] = e
                continue
            budget = deadline.budget(item.time_limit_s, default_s)  # past the deadline: the batch stops
            checked.append(_Checked(i, *parsed, item.fmt, budget))
        for fmt in {c.fmt for c in checked}:
            results.update(_decide([c for c in checked if c.fmt == fmt], fmt, workers))
        deadline.check()
        yield from sorted(results.items())


def _read(item: Item, limits: Limits, field: str) -> tuple[logic.Formula, logic.Formula, str, str]:
    if isinstance(item, ServiceError):
        raise item
    return _parse(item, limits, field)


def _decide(group: list[_Checked], fmt: str, workers: int = 1) -> dict[int, EquivalenceAnswer | Exception]:
    """One Prolog round trip for a chunk's items of one format; a failure fails each item."""
    try:
        verdicts = logic.equivalent_batch(
            [(c.a, c.b) for c in group], fmt=fmt, time_limit=min(c.budget for c in group), workers=workers
        )
    except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
        return {c.index: e for c in group}
    return {c.index: EquivalenceAnswer(c.canonical_a, c.canonical_b, v) for c, v in zip(group, verdicts)}
