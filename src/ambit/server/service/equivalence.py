"""Equivalence checks: one pair, or a batch sent to Prolog in chunks (one round trip per chunk
and format) and answered in order, each item with its own result or error."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator, Sequence

from ambit import logic
from ambit.logic.provers import portfolio
from ambit.logic.syntax.dialect import FOL, dialect, record
from ambit.logic.engine.equivalence import Verdict

from ambit.server.guard.limits import Limits
from ambit.server.service import batch, validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import ServiceError

@dataclass(frozen=True)
class EquivalenceQuery:
    """Two LF texts in one format; `time_limit_s` is the Prolog budget (0: the server default)."""

    a: str
    b: str
    fmt: str = FOL
    time_limit_s: float = 0.0
    free_variables: str | None = None  # None: the format's default (logic/syntax/dialect.py)
    symbols: str | None = None  # one name space (shared) or two (separate); None: the format's default


@dataclass(frozen=True)
class EquivalenceAnswer:
    """The verdict, with both LFs' canonical forms."""

    canonical_a: str
    canonical_b: str
    verdict: Verdict


def _parse(query: EquivalenceQuery, limits: Limits, field: str, deadline: float | None = None) -> tuple:
    """(a, b, canonical a, canonical b, how they were read), read until `deadline` at most."""
    a, b, reading = validate.pair(query.a, query.b, query.fmt, query.free_variables, field, limits.max_lf_chars,
                                  query.symbols, deadline)
    return a, b, _shown(a, query.fmt), _shown(b, query.fmt), reading


def _shown(f: logic.Formula, fmt: str) -> str:
    """AmP's formats: the canonical form; the full first-order dialects (no canonical form):
    the formula as parsed, rendered back in its dialect."""
    return logic.canonical_form(f, fmt) if dialect(fmt).amp else logic.render(f, fmt)


def _equivalent_batch(pairs: list, fmt: str, prover: str, **opts) -> list:
    """Every format through the one entry point (logic.provers.portfolio.equivalent_batch): Prolog alone
    (AmP's formats: AmP's procedure first) or, with `prover="portfolio"`, a cheap Prolog stage
    and then Prolog, E and Z3 racing on what it left UNKNOWN, AmP pairs too."""
    return portfolio.equivalent_batch(pairs, fmt, prover=prover, **opts)


def check(query: EquivalenceQuery, limits: Limits, deadline: Deadline, default_s: float,
          prover: str = "prolog") -> EquivalenceAnswer:
    """One pair, within the request's budget and deadline."""
    a, b, canonical_a, canonical_b, reading = _parse(query, limits, "", deadline.at)
    budget = deadline.budget(query.time_limit_s, default_s)
    verdict = record(_equivalent_batch([(a, b)], query.fmt, prover, time_limit=budget)[0], reading)
    deadline.check()
    return EquivalenceAnswer(canonical_a, canonical_b, verdict)


Item = EquivalenceQuery | ServiceError  # a query, or why it could not be read
Outcome = tuple[int, EquivalenceAnswer | Exception]


def check_batch(
    items: Sequence[Item], limits: Limits, deadline: Deadline, default_s: float, workers: int = 1,
    prover: str = "prolog",
) -> Iterator[Outcome]:
    """(index, answer or error) for every item, in order, chunk by chunk (`batch.run`); an item
    that fails validation gets its own error and the rest go on. `workers` > 1: each chunk is
    spread over that many Prolog processes."""
    return batch.run(items, limits, deadline, default_s, _parse,
                     functools.partial(_decide, workers=workers, prover=prover))


def _decide(ready: list[batch.Ready], workers: int = 1,
            prover: str = "prolog") -> dict[int, EquivalenceAnswer | Exception]:
    """One Prolog round trip per format among a chunk's readable items; a failure fails each
    item of its format."""
    out: dict[int, EquivalenceAnswer | Exception] = {}
    for fmt in {r.query.fmt for r in ready}:
        group = [r for r in ready if r.query.fmt == fmt]
        try:
            verdicts = _equivalent_batch([r.value[:2] for r in group], fmt, prover,
                                         time_limit=min(r.budget for r in group), workers=workers)
        except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
            out.update({r.index: e for r in group})
            continue
        out.update({r.index: EquivalenceAnswer(*r.value[2:4], record(v, r.value[4])) for r, v in zip(group, verdicts)})
    return out
