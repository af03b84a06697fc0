"""Equivalence checks: one pair, or a batch answered in order, a Prolog round trip per chunk."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator, Sequence

from ambit.logic.provers import portfolio
from ambit.logic.syntax.dialect import FOL, Dialect, dialect
from ambit.logic.syntax.reading import record
from ambit.logic.engine.equivalence import Verdict

from ambit.server.guard.limits import Limits
from ambit.server.service import batch, validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import ServiceError

@dataclass(frozen=True)
class EquivalenceQuery:
    """Two LF texts in one dialect; `fmt` is resolved here, with `free_variables` and `symbols`,
    into a `Dialect`. `time_limit_s` is the Prolog budget (0: the server default)."""

    a: str
    b: str
    fmt: Dialect | str = FOL
    time_limit_s: float = 0.0
    free_variables: str | None = None
    symbols: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fmt", dialect(self.fmt, self.free_variables, self.symbols))


@dataclass(frozen=True)
class EquivalenceAnswer:
    """The verdict, with both LFs' canonical forms."""

    canonical_a: str
    canonical_b: str
    verdict: Verdict


def _parse(query: EquivalenceQuery, limits: Limits, field: str, deadline: float | None = None) -> tuple:
    """(a, b, canonical a, canonical b, how they were read), read until `deadline` at most."""
    return validate.pair(query.a, query.b, query.fmt, query.free_variables, field, limits.max_lf_chars, deadline)


def check(query: EquivalenceQuery, limits: Limits, deadline: Deadline, default_s: float,
          prover: str = "prolog") -> EquivalenceAnswer:
    """One pair, within the request's budget and deadline."""
    a, b, canonical_a, canonical_b, reading = _parse(query, limits, "", deadline.at)
    budget = deadline.budget(query.time_limit_s, default_s)
    verdict = record(portfolio.equivalent_batch([(a, b)], query.fmt, prover=prover, time_limit=budget)[0], reading)
    deadline.check()
    return EquivalenceAnswer(canonical_a, canonical_b, verdict)


Item = EquivalenceQuery | ServiceError  # a query, or why it could not be read
Outcome = tuple[int, EquivalenceAnswer | Exception]


def check_batch(
    items: Sequence[Item], limits: Limits, deadline: Deadline, default_s: float, workers: int = 1,
    prover: str = "prolog",
) -> Iterator[Outcome]:
    """(index, answer or error) per item, in order (`batch.run`); `workers` Prolog processes."""
    return batch.run(items, limits, deadline, default_s, _parse,
                     functools.partial(_decide, workers=workers, prover=prover))


def _decide(ready: list[batch.Ready], workers: int = 1,
            prover: str = "prolog") -> dict[int, EquivalenceAnswer | Exception]:
    """One round trip per dialect of a chunk's readable items; a failure fails that dialect's."""
    out: dict[int, EquivalenceAnswer | Exception] = {}
    for fmt in {r.query.fmt for r in ready}:
        group = [r for r in ready if r.query.fmt == fmt]
        try:
            verdicts = portfolio.equivalent_batch([r.value[:2] for r in group], fmt, prover=prover,
                                                  time_limit=min(r.budget for r in group), workers=workers)
        except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
            out.update({r.index: e for r in group})
            continue
        out.update({r.index: EquivalenceAnswer(*r.value[2:4], record(v, r.value[4])) for r, v in zip(group, verdicts)})
    return out
