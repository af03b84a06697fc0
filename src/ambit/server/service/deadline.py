"""A request's deadline as a plain value: how long is left, whether the caller is still there,
and the budget a piece of work (a Prolog check) may take; and the call scope every request opens
(its deadline, the cancel scope of its Prolog work, its admission slot), the same for both edges."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from ambit.logic.runtime.cancel import CancelScope
from ambit.server.service.errors import DeadlineExceeded

log = logging.getLogger("ambit.server")

MAX_PROLOG_SECONDS = 60.0
DEADLINE_MARGIN_S = 0.02  # left to write the response after the work is done
NO_DEADLINE_S = 1e8  # gRPC reports "no deadline" as a huge number of seconds


def _always() -> bool:
    return True


def _ignore(_callback: Callable[[], Any]) -> bool:
    return False


class Deadline:
    """Monotonic end time (None: none), a liveness check, and a hook that runs a callback when
    the request is cancelled (gRPC's `add_callback`; direct callers have nothing to cancel)."""

    def __init__(
        self,
        at: float | None = None,
        is_active: Callable[[], bool] = _always,
        on_cancel: Callable[[Callable[[], Any]], Any] = _ignore,
    ) -> None:
        self.at = at
        self.is_active = is_active
        self.on_cancel = on_cancel

    @classmethod
    def after(cls, seconds: float | None, **hooks: Any) -> "Deadline":
        """A deadline `seconds` from now (None, or gRPC's huge "no deadline" value: none)."""
        at = None if seconds is None or seconds > NO_DEADLINE_S else time.monotonic() + seconds
        return cls(at, **hooks)

    def remaining(self) -> float | None:
        return None if self.at is None else self.at - time.monotonic()

    def expired(self) -> bool:
        left = self.remaining()
        return (left is not None and left <= 0) or not self.is_active()

    def check(self) -> None:
        if self.expired():
            raise DeadlineExceeded("deadline exceeded")

    def budget(self, requested_s: float, default_s: float) -> float:
        """Seconds for a piece of work: the requested (or default) budget, capped by the deadline."""
        budget = min(requested_s or default_s, MAX_PROLOG_SECONDS)
        left = self.remaining()
        if left is not None:
            budget = min(budget, left - DEADLINE_MARGIN_S)
        if budget <= 0:
            raise DeadlineExceeded("deadline exceeded before the work could start")
        return budget


class CallScope:
    """What every request opens, whichever edge it came through (the gRPC interceptor, the web
    API: `AmbitCore.open_call`): its `deadline`, the `CancelScope` of its Prolog work, and its
    admission slot.

    The scope ends (`end()`, any thread, once) when its caller leaves, its deadline passes or it
    has been answered; then `deadline` turns expired and the callbacks registered through it run,
    the first of which cancels its Prolog work (queued calls dropped, the running one
    interrupted), as a cancelled RPC's does. `admit()` waits for a slot (`admission.Admission`:
    refused at once past the bounds, `DeadlineExceeded` at the deadline while waiting, never
    started then); `release()` gives the slot back once the work has really stopped."""

    def __init__(self, timeout_s: float | None, client: str, admission: Any = None) -> None:
        self.client = client
        self.admission = admission
        self._lock = threading.Lock()
        self._ended = False
        self._callbacks: list[Callable[[], Any]] = []
        self.deadline = Deadline.after(timeout_s, is_active=self.is_active, on_cancel=self.add_callback)
        # the call's Prolog work, stopped when the call ends; queued fairly by client
        self.scope = CancelScope(owner=client)
        self.add_callback(self.scope.cancel)
        self.slot: Any = None
        self._timer: Any = None

    # -- admission ---------------------------------------------------------------------------
    async def admit(self) -> None:
        """Wait for a slot (none needed without an admission)."""
        if self.admission is not None:
            self.slot = await self.admission.enter(self.client, self.deadline.remaining())

    def release(self) -> None:
        """Give the slot back (idempotent, any thread)."""
        if self.slot is not None:
            self.slot.release()

    def release_when_done(self, future: Any) -> None:
        """Give the slot back when `future` (the work on its thread) is done, not before."""
        future.add_done_callback(lambda _f: self.release())

    # -- the work ----------------------------------------------------------------------------
    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` with this call's Prolog work cancellable (on a worker thread)."""
        with self.scope.active():
            return fn(*args)

    def end_at_deadline(self, loop: Any) -> None:
        """End the scope at its deadline (on `loop`), for an edge whose transport does not do it
        (gRPC does; HTTP does not)."""
        left = self.deadline.remaining()
        if left is not None:
            self._timer = loop.call_later(max(0.0, left), self.end)

    # -- ending ------------------------------------------------------------------------------
    def end(self, *_: Any) -> None:
        """The call is over (caller gone, deadline passed, answered): run its cancel callbacks."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            callbacks, self._callbacks = self._callbacks, []
        if self._timer is not None:
            self._timer.cancel()
        for cb in callbacks:
            try:
                cb()
            except Exception:  # noqa: BLE001 - one failing hook must not stop the others
                log.exception("cancel callback failed")

    def is_active(self) -> bool:
        return not self._ended

    def add_callback(self, callback: Callable[[], Any]) -> bool:
        """Run `callback` when the call ends (at once if it has ended); any thread."""
        with self._lock:
            if not self._ended:
                self._callbacks.append(callback)
                return True
        callback()
        return False
