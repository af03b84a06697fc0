"""A request's deadline, the call scope every request opens (deadline, Prolog cancel scope,
admission slot) on both edges, and the admission: `slots` running, `max_queue` waiting first come
first served, `per_client` per client; past a bound `Refused` at once with a retry hint. Waiting
holds no thread (an awaited future), and one thread-safe `Admission` may serve several loops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ambit.logic.runtime.cancel import CancelScope
from ambit.server.service.errors import DeadlineExceeded, Overloaded

log = logging.getLogger("ambit.server")

MAX_PROLOG_SECONDS = 60.0
DEADLINE_MARGIN_S = 0.02  # left to write the response after the work is done
NO_DEADLINE_S = 1e8  # gRPC reports "no deadline" as a huge number of seconds


class Deadline:
    """Monotonic end time (None: none), a liveness check, and a hook run at cancellation."""

    def __init__(self, at: float | None = None, is_active: Callable[[], bool] = lambda: True,
                 on_cancel: Callable[[Callable[[], Any]], Any] = lambda _callback: False) -> None:
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
    """What every request opens: its `deadline`, its Prolog work's `CancelScope`, an admission
    slot; `end()` (once, any thread) expires the deadline and runs the callbacks (cancelling)."""

    def __init__(self, timeout_s: float | None, client: str, admission: Any = None) -> None:
        self.client = client
        self.admission = admission
        self._lock = threading.Lock()
        self._ended = False
        self._callbacks: list[Callable[[], Any]] = []
        self.deadline = Deadline.after(timeout_s, is_active=self.is_active, on_cancel=self.add_callback)
        self.scope = CancelScope(owner=client)  # stopped when the call ends; fair by client
        self.add_callback(self.scope.cancel)
        self.slot: Any = None
        self._timer: Any = None
        self.ended_by: str | None = None  # why the scope ended: "deadline", or what its edge said

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

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` with this call's Prolog work cancellable (on a worker thread)."""
        with self.scope.active():
            return fn(*args)

    def end_at_deadline(self, loop: Any) -> None:
        """End the scope at its deadline on `loop` (HTTP's transport does not; gRPC's does)."""
        left = self.deadline.remaining()
        if left is not None:
            self._timer = loop.call_later(max(0.0, left), self.end, "deadline")

    def end(self, why: Any = None) -> None:
        """The call is over: run its cancel callbacks; `why` is kept when it is a word."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            self.ended_by = why if isinstance(why, str) else None
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


# -- admission ---------------------------------------------------------------------------------
DEFAULT_SLOTS = 64  # the server's --workers default
DEFAULT_RETRY_AFTER_S = 1.0


class Refused(Overloaded):
    """Overloaded, with a retry hint (seconds) and whether the client's own limit was hit."""

    def __init__(self, message: str, retry_after_s: float, per_client: bool) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.per_client = per_client


@dataclass(eq=False)
class _Waiter:
    client: str
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future
    granted: bool = False


@dataclass(eq=False)
class Slot:
    """A request's place: running (`release()` when its work has ended, any thread, idempotent)."""

    admission: "Admission | None"
    client: str
    _released: bool = field(default=False, repr=False)

    def release(self) -> None:
        if self._released or self.admission is None:
            return
        self._released = True
        self.admission._leave(self.client)


class Admission:
    """Slots, a bounded queue and a per-client bound (0: no bound for that one)."""

    def __init__(self, slots: int = DEFAULT_SLOTS, max_queue: int = 256, per_client: int = 0,
                 retry_after_s: float = DEFAULT_RETRY_AFTER_S) -> None:
        self.slots = slots
        self.max_queue = max_queue
        self.per_client = per_client
        self.retry_after_s = retry_after_s
        self._lock = threading.Lock()
        self._running = 0
        self._waiting: deque[_Waiter] = deque()
        self._of: dict[str, int] = {}  # client -> requests running or waiting
        self.refused = 0  # counters, for tests and the stats
        self.expired_waiting = 0

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def of(self, client: str) -> int:
        return self._of.get(client, 0)

    async def enter(self, client: str, timeout_s: float | None) -> Slot:
        """A running slot for `client`, after waiting at most `timeout_s` (None: no limit);
        `Refused` past a bound, `DeadlineExceeded` at the timeout; cancelling drops the place."""
        waiter = self._try_enter(client)
        if isinstance(waiter, Slot):
            return waiter
        try:
            if timeout_s is not None and timeout_s <= 0:
                raise asyncio.TimeoutError
            await asyncio.wait_for(asyncio.shield(waiter.future), timeout_s)
        except asyncio.TimeoutError:
            if self._abandon(waiter):
                self.expired_waiting += 1
                raise DeadlineExceeded("deadline exceeded while waiting for a free slot; the request never "
                                       f"started ({self._running} running, {len(self._waiting)} waiting)") from None
        except asyncio.CancelledError:
            if self._abandon(waiter):
                raise
            # granted just as it was cancelled: give the slot back, and go on being cancelled
            Slot(self, client).release()
            raise
        return Slot(self, client)

    def _try_enter(self, client: str) -> "Slot | _Waiter":
        with self._lock:
            n = self._of.get(client, 0)
            if self.per_client > 0 and n >= self.per_client:
                self.refused += 1
                raise Refused(f"too many calls in flight from this client (limit {self.per_client} per client); "
                              f"retry after {self.retry_after_s:g} s", self.retry_after_s, per_client=True)
            if self._running < self.slots and not self._waiting:
                self._running += 1
                self._of[client] = n + 1
                return Slot(self, client)
            if len(self._waiting) >= self.max_queue:
                self.refused += 1
                raise Refused(f"server busy: {self._running} requests running and {len(self._waiting)} waiting "
                              f"(--max-queue {self.max_queue}); retry after {self.retry_after_s:g} s",
                              self.retry_after_s, per_client=False)
            waiter = _Waiter(client, asyncio.get_running_loop(), asyncio.get_running_loop().create_future())
            self._waiting.append(waiter)
            self._of[client] = n + 1
            return waiter

    def _abandon(self, waiter: _Waiter) -> bool:
        """Take `waiter` out of the queue: False if a slot had already been handed to it."""
        with self._lock:
            if waiter.granted:
                return False
            with contextlib.suppress(ValueError):
                self._waiting.remove(waiter)
            self._drop(waiter.client)
            return True

    def _leave(self, client: str) -> None:
        """A running request ended: its slot goes to the first waiter, if any (any thread)."""
        with self._lock:
            self._drop(client)
            if self._waiting:
                waiter = self._waiting.popleft()
                waiter.granted = True  # the slot passes to it: `_running` stays the same
            else:
                self._running -= 1
                return
        try:
            waiter.loop.call_soon_threadsafe(_grant, waiter.future)
        except RuntimeError:  # its loop is closed: nobody is left to run the request
            self._leave(waiter.client)

    def _drop(self, client: str) -> None:
        if (n := self._of.get(client, 0) - 1) > 0:
            self._of[client] = n
        else:
            self._of.pop(client, None)


def _grant(future: asyncio.Future) -> Any:
    if not future.done():
        future.set_result(True)
