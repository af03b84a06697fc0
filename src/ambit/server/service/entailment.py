"""Entailment checks (`logic.provers.portfolio.decide_batch`): one story, or a batch in order."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator, Sequence

from ambit import logic
from ambit.logic import Decision
from ambit.logic.provers import portfolio
from ambit.logic.syntax.dialect import FOLIO, Dialect, dialect
from ambit.logic.syntax.reading import Reading, record

from ambit.server.guard.limits import Limits
from ambit.server.service import batch, validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import InvalidField, ServiceError

@dataclass(frozen=True)
class EntailmentQuery:
    """Premises and a conclusion in one dialect (resolved here, as `EquivalenceQuery`'s);
    `time_limit_s` is the Prolog budget per story (0: the server default)."""

    premises: tuple[str, ...]
    conclusion: str
    fmt: Dialect | str = FOLIO
    time_limit_s: float = 0.0
    free_variables: str | None = None
    symbols: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fmt", dialect(self.fmt, self.free_variables, self.symbols))


Story = tuple[list[logic.Formula], logic.Formula, Reading]  # premises, conclusion, how they were read
Item = EntailmentQuery | ServiceError  # a query, or why it could not be read
Outcome = tuple[int, Decision | Exception]


def _parse(query: EntailmentQuery, limits: Limits, field: str, deadline: float | None = None) -> Story:
    """The story's formulas and how they were read, until `deadline` (time.monotonic()) at most."""
    if len(query.premises) > limits.max_batch_items:
        raise InvalidField(f"{field}premises", f"{len(query.premises)} premises; the limit is "
                           f"{limits.max_batch_items}", reason="TOO_MANY")
    return validate.story(query.premises, query.conclusion, query.fmt, field, limits.max_lf_chars, deadline)


def check(query: EntailmentQuery, limits: Limits, deadline: Deadline, default_s: float,
          prover: str = "prolog") -> Decision:
    """One story's decision, within the request's budget and deadline."""
    premises, conclusion, reading = _parse(query, limits, "", deadline.at)
    budget = deadline.budget(query.time_limit_s, default_s)
    decision = record(portfolio.decide_batch([(premises, conclusion)], query.fmt, prover=prover,
                                             time_limit=budget)[0], reading)
    deadline.check()
    return decision


def check_batch(
    items: Sequence[Item], limits: Limits, deadline: Deadline, default_s: float, workers: int = 1,
    prover: str = "prolog",
) -> Iterator[Outcome]:
    """(index, decision or error) per item, in order (`batch.run`); `workers` Prolog processes."""
    return batch.run(items, limits, deadline, default_s, _parse,
                     functools.partial(_decide, workers=workers, prover=prover))


def _decide(ready: list[batch.Ready], workers: int = 1, prover: str = "prolog") -> dict[int, Decision | Exception]:
    """One round trip for a chunk's readable stories; a failure fails each of them."""
    try:
        decisions = portfolio.decide_batch([r.value[:2] for r in ready], prover=prover,
                                           time_limit=min(r.budget for r in ready), workers=workers)
    except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
        return {r.index: e for r in ready}
    return {r.index: record(d, r.value[2]) for r, d in zip(ready, decisions)}
