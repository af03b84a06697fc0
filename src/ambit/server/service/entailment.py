"""Entailment checks over full first-order logic (`logic.provers.portfolio.decide_batch`: Prolog alone, or
Prolog then E and Z3 with `--prover portfolio`): one story, or a batch sent to
Prolog in chunks (one round trip per chunk) and answered in order, each item with its own result
or error. Same budget and deadline handling as `equivalence.py`."""

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
    """Premises and a conclusion in one dialect; `time_limit_s` is the Prolog budget per story
    (0: the server default). `fmt` is resolved once, here, as `EquivalenceQuery`'s is."""

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
    """The story's formulas, and how they were read; the first one that does not read fails it,
    naming its field (a symbol used with two arities: MIXED_ARITY, at its second use). Read
    until `deadline` (time.monotonic()) at most: DEADLINE_EXCEEDED past it."""
    if len(query.premises) > limits.max_batch_items:
        raise InvalidField(f"{field}premises", f"{len(query.premises)} premises; the limit is "
                           f"{limits.max_batch_items}", reason="TOO_MANY")
    return validate.story(query.premises, query.conclusion, query.fmt, field, limits.max_lf_chars, deadline)


def check(query: EntailmentQuery, limits: Limits, deadline: Deadline, default_s: float,
          prover: str = "prolog") -> Decision:
    """One story's decision, within the request's budget and deadline (`prover`: see `_decide`)."""
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
    """(index, decision or error) for every item, in order, chunk by chunk (`batch.run`); an
    item that fails validation gets its own error and the rest go on. `workers` > 1: each chunk
    is spread over that many Prolog processes."""
    return batch.run(items, limits, deadline, default_s, _parse,
                     functools.partial(_decide, workers=workers, prover=prover))


def _decide(ready: list[batch.Ready], workers: int = 1, prover: str = "prolog") -> dict[int, Decision | Exception]:
    """One Prolog round trip for a chunk's readable stories; a failure fails each of them. With
    `prover="portfolio"`, E and Z3 then race on each story Prolog left UNKNOWN, for what is left
    of its time limit (logic/provers/portfolio.py's decide_batch: Prolog's evidence where it decided)."""
    try:
        decisions = portfolio.decide_batch([r.value[:2] for r in ready], prover=prover,
                                           time_limit=min(r.budget for r in ready), workers=workers)
    except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
        return {r.index: e for r in ready}
    return {r.index: record(d, r.value[2]) for r, d in zip(ready, decisions)}
