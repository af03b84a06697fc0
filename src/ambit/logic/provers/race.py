"""The race of the portfolio (portfolio.py): members side by side on the parts of a question,
the first definite answer per part wins, every member stopped once all parts are settled,
at the time limit, or on cancellation; contradicting answers: `ProverDisagreement`.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from typing import Callable, Sequence

from ambit.logic.provers.portfolio_members import Member
from ambit.logic.provers.portfolio_question import Answer, Budget, Question
from ambit.logic.runtime.worker import cancelled_error, current_scope

LATE_DISAGREEMENTS: list[dict] = []
log = logging.getLogger("ambit.logic.provers.portfolio")  # the portfolio's logger


class ProverDisagreement(RuntimeError):
    """Two provers gave contradicting definite answers for the same part of a question."""

    def __init__(self, part: str, first: "Answer", second: "Answer") -> None:
        super().__init__(f"provers disagree on {part}: {first.prover} says {first.status}, "
                         f"{second.prover} says {second.status}")
        self.part, self.first, self.second = part, first, second


class _Race:
    """Answers of one question as they arrive: the first definite one per part wins."""

    def __init__(self, q: Question) -> None:
        self.q = q
        self.events: queue.Queue = queue.Queue()
        self.settled: dict[str, Answer] = {}
        self.reasons: dict[str, dict[str, str]] = {}
        self.closed = False
        self.lock = threading.Lock()

    def post(self, a: Answer) -> None:
        with self.lock:
            if self.closed:
                first = self.settled.get(a.part)
                if first is not None and first.status != a.status:
                    record = {"part": a.part, "first": (first.prover, first.status), "late": (a.prover, a.status)}
                    log.error("portfolio: late disagreement %s", record)  # logged before it is seen kept
                    LATE_DISAGREEMENTS.append(record)
                return
        self.events.put(("answer", a))

    def done(self, name: str, reasons: dict[str, str]) -> None:
        self.events.put(("done", (name, reasons)))


def run(q: Question, budget: Budget, provers: Sequence[Member], wait_for_all: bool = False,
        check: Callable[[Question, dict[str, Answer], Budget], None] | None = None,
        ) -> tuple[dict[str, Answer], dict[str, dict[str, str]], bool]:
    """`provers` on `q`: the answers per part, each prover's reasons, and whether time ran out."""
    if budget.time_limit <= 0:  # nothing left to spend (a batch's second stage): no prover is started
        return {}, {m.name: {p.name: "time_limit" for p in q.parts} for m in provers}, True
    r = _Race(q)
    deadline = time.monotonic() + budget.time_limit
    budget = dataclasses.replace(budget, deadline=deadline)  # every member stops by the same deadline
    scope = current_scope()
    unhook = scope.on_cancel(lambda: r.events.put(("cancelled", None))) if scope is not None else (lambda: None)
    stops = [m.start(q, budget, r.post, r.done) for m in provers]
    running = {m.name for m in provers}
    timed_out = False
    try:
        while running:
            if not wait_for_all and all(p.name in r.settled and r.settled[p.name].final for p in q.parts):
                break
            try:
                kind, x = r.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                timed_out = True
                for name in running:
                    r.reasons.setdefault(name, {p.name: "time_limit" for p in q.parts})
                break
            if kind == "cancelled":
                raise cancelled_error()
            if kind == "done":
                running.discard(x[0])
                r.reasons[x[0]] = x[1]
                continue
            first = r.settled.setdefault(x.part, x)
            if first.status != x.status:
                raise ProverDisagreement(x.part, first, x)
            if x.checked and not first.checked:  # a checked answer replaces an unchecked one
                r.settled[x.part] = x
    finally:
        unhook()
        with r.lock:
            r.closed = True
        for stop in stops:
            try:
                stop()
            except Exception:  # noqa: BLE001 - a prover that fails to stop must not lose the answer
                log.exception("portfolio: stopping a prover failed")
    if check is not None:
        check(q, r.settled, budget)
    return r.settled, r.reasons, timed_out


__all__ = ["LATE_DISAGREEMENTS", "ProverDisagreement", "run"]
