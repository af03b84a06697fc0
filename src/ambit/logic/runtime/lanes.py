"""The lanes of `PrologWorker.enable_lanes`: a call runs `FIRST_QUANTUM_S` at the head of the
worker's queue, then its slice, then in the long lane (`pool.long_lane_call`), each with what is
left of its budget. Imports run one way only: cancel ← lanes ← worker ← pool."""

from __future__ import annotations

import contextlib
import logging
import time
from concurrent.futures import Future
from typing import Any, Callable

from ambit.logic.runtime.cancel import PrologError, chain_future, current_scope, out_of_time_error

log = logging.getLogger(__name__)

# A storm's first calls hold a trivial call back by this much each, not by a whole slice each.
FIRST_QUANTUM_S = 0.02


def two_lanes(self: Any, goal: str, out_var: str, time_limit: float,
              inferences: int | None) -> Future:
    """`PrologWorker.submit_json_quiet` with lanes: quantum, slice (`_OneLane`), long lane."""
    outer: Future = Future()
    scope, started = current_scope(), time.monotonic()
    if scope is not None:
        scope.track(outer)
    levels = [min(FIRST_QUANTUM_S, self.fast_lane_s), self.fast_lane_s]  # then the long lane

    def left() -> float:
        return time_limit - (time.monotonic() - started)

    def run(level: int) -> None:
        if level < len(levels):
            lane = _OneLane(self, levels[level], level)
            f = self.submit_json_quiet.__func__(lane, goal, out_var, max(left(), 0.001), inferences)
            f.add_done_callback(lambda g: moved(g, level))
            return
        if self.long_lane is None:  # lanes without a long lane: the fallback below runs the rest here
            second: Future = Future()
            second.set_exception(RuntimeError("no long lane was given to enable_lanes"))
        else:
            second = self.long_lane(goal, out_var, left(), inferences, tuple(sorted(self._consulted)))
        moved_at = time.monotonic()

        def done(g: Future) -> None:
            if scope is not None and scope.owner:  # long-lane time counts against its owner too
                self._charge(scope.owner, time.monotonic() - moved_at)
            error = None if g.cancelled() else g.exception()
            if error is not None and not isinstance(error, PrologError) and left() > 0 and not outer.done():
                # the long lane could not run it (no `__main__` guard: no spawn): run it here
                log.warning("the long Prolog lane failed (%s: %s); running the call in the server's own Prolog",
                            type(error).__name__, (str(error).strip().splitlines() or [""])[0])
                with (scope.active() if scope is not None else contextlib.nullcontext()):
                    lane = _OneLane(self, left(), len(levels))
                    f = self.submit_json_quiet.__func__(lane, goal, out_var, left(), inferences)
                f.add_done_callback(lambda h: moved(h, len(levels)))
                return
            chain_future(g, outer)

        second.add_done_callback(done)

    def moved(f: Future, level: int) -> None:
        if outer.done():
            return
        error = None if f.cancelled() else f.exception()
        sliced = isinstance(error, PrologError) and error.reason == "cancelled" and not (scope and scope.cancelled)
        if not sliced:
            chain_future(f, outer)
            return
        if left() <= 0 or level >= len(levels):  # its slice ended as its time ran out (the fallback's
            # slice is what was left): its time limit, not a cancellation
            if not outer.done():
                outer.set_exception(out_of_time_error())
            return
        with (scope.active() if scope is not None else contextlib.nullcontext()):
            run(level + 1)

    run(0)
    return outer


class _OneLane:
    """`worker` without its fast lane: a two-lane call's quantum or slice, at its `level`."""

    fast_lane_s = 0.0

    def __init__(self, worker: Any, slice_s: float, level: int) -> None:
        self._worker = worker
        self._slice_s = slice_s
        self._level = level
        self._json_call_loaded = True

    def submit(self, fn: Callable[[Any], Any]) -> Future:
        return self._worker.submit(fn, self._level, self._slice_s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._worker, name)
