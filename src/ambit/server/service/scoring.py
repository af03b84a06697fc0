"""Scoring requests: checked, batched on the model worker, awaited within the deadline."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ambit.server.batcher import QueueFull, Worker
from ambit.server.guard.limits import Limits
from ambit.server.model import Capability, DecodeStopped
from ambit.server.service import validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.errors import Cancelled, DeadlineExceeded, InvalidField, Overloaded, ServiceError


@dataclass(frozen=True)
class ScoreQuery:
    """Candidates to score as continuations of `prompt` (`end_marker`: also score the end)."""

    prompt: str
    candidates: tuple[str, ...]
    end_marker: bool = False


def check(query: ScoreQuery, limits: Limits, field: str = "") -> None:
    """Prompt and candidates within the limits; `field` prefixes the field names (batch items)."""
    validate.text(query.prompt, f"{field}prompt", limits.max_prompt_chars)
    if not query.candidates:
        raise InvalidField(f"{field}candidates", "at least one candidate is needed", reason="EMPTY")
    if len(query.candidates) > limits.max_candidates:
        raise InvalidField(f"{field}candidates", f"{len(query.candidates)} candidates; the limit "
                           f"is {limits.max_candidates}", reason="TOO_MANY")
    for i, c in enumerate(query.candidates):
        validate.text(c, f"{field}candidates[{i}]", limits.max_candidate_chars)


def submit(worker: Worker, query: ScoreQuery, limits: Limits, field: str = "") -> Future:
    """The checked query queued on the model worker; Overloaded when the queue is full."""
    check(query, limits, field)
    backend = worker.backend
    counted = Capability.TOKENS in backend.capabilities
    longest = max((backend.count_tokens(c) for c in query.candidates), default=0) if counted else 0
    validate.context(worker.backend, query.prompt, longest + int(query.end_marker), f"{field}prompt")
    try:
        return worker.submit_score(query.prompt, list(query.candidates), query.end_marker)
    except QueueFull as e:
        raise Overloaded(str(e)) from None


def wait_for(fut: Future, deadline: Deadline) -> Any:
    """A model job's result; cancel the job when the deadline passes or the client goes away."""
    deadline.on_cancel(fut.cancel)
    try:
        return fut.result(timeout=deadline.remaining())
    except FutureTimeout:
        fut.cancel()
        raise DeadlineExceeded("deadline exceeded while the model was busy") from None
    except CancelledError:
        raise Cancelled("request cancelled") from None


def run_call(worker: Worker, call: Callable[[Any], Any], deadline: Deadline, what: str) -> Any:
    """`call(backend)` on the model worker within the deadline; `what` names a stopped decode."""
    try:
        fut = worker.submit_call(call)
    except QueueFull as e:
        raise Overloaded(str(e)) from None
    try:
        return wait_for(fut, deadline)
    except DecodeStopped:
        deadline.check()
        raise Cancelled(f"{what} stopped: request cancelled") from None


Outcome = tuple[int, Any]  # (item index, its result or the exception that failed it)


def score_window(
    worker: Worker, queries: Sequence[ScoreQuery], limits: Limits, deadline: Deadline
) -> Iterator[Outcome]:
    """(index, scores or exception) per item as each finishes, submitted in a sliding window (to
    batch with other requests without flooding the queue); a full queue makes an item wait."""
    window = max(2 * worker.max_batch, 1)
    in_flight: dict[Future, int] = {}
    pending = list(range(len(queries)))[::-1]  # a stack: the next item is at the end
    try:
        while True:
            yield from _fill(worker, queries, limits, pending, in_flight, window)
            if not in_flight:
                if not pending:
                    return
                continue
            deadline.check()
            done, _ = wait(list(in_flight), timeout=deadline.remaining(), return_when=FIRST_COMPLETED)
            if not done:
                deadline.check()
            for fut in done:
                i = in_flight.pop(fut)
                try:
                    yield i, fut.result()
                except Exception as e:  # noqa: BLE001 - the item's own error
                    yield i, e
    finally:
        for fut in in_flight:
            fut.cancel()


def _fill(
    worker: Worker, queries: Sequence[ScoreQuery], limits: Limits,
    pending: list[int], in_flight: dict[Future, int], window: int,
) -> Iterator[Outcome]:
    """Submit pending items until the window is full; yield the items refused outright."""
    while pending and len(in_flight) < window:
        i = pending.pop()
        try:
            in_flight[submit(worker, queries[i], limits, f"items[{i}].")] = i
        except ServiceError as e:
            if isinstance(e, Overloaded) and in_flight:
                pending.append(i)  # retry once some work finishes
                return
            yield i, e
