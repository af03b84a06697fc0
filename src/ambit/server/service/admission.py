"""Admission: the slot a request waits for before any of its work starts, the same for an RPC and
a web request (`deadline.CallScope` takes it).

At most `slots` requests run at once (the server's handler threads); at most `max_queue` more wait
for a slot, first come first served (the server's `--max-queue`); at most `per_client` of one
client's requests are running or waiting (`--max-calls-per-peer`). Past either bound a request is
refused at once with `Overloaded` and a retry hint, never queued. A waiting request whose deadline
passes is refused with `DeadlineExceeded` at its deadline, and one whose caller leaves is dropped:
neither ever starts. Waiting holds no thread (it is an awaited future on the caller's event loop),
and the bookkeeping is thread-safe, so one `Admission` may serve several event loops (the gRPC
server's and, in one process, the web page's).
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ambit.server.service.errors import DeadlineExceeded, Overloaded

DEFAULT_SLOTS = 64  # the server's --workers default
DEFAULT_RETRY_AFTER_S = 1.0


class Refused(Overloaded):
    """Overloaded, with the seconds after which a retry may succeed and whether it was this
    client's own limit (`per_client`) or the server's queue that was full."""

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

    # -- state -------------------------------------------------------------------------------
    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def of(self, client: str) -> int:
        return self._of.get(client, 0)

    # -- entering ----------------------------------------------------------------------------
    async def enter(self, client: str, timeout_s: float | None) -> Slot:
        """A running slot for `client`: at once when one is free, else after waiting at most
        `timeout_s` (None: no limit) in the queue. `Refused` at once when the client or the
        queue is at its bound; `DeadlineExceeded` when `timeout_s` passes first; cancelling the
        awaiting task (the caller left) drops the place."""
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
        """Take `waiter` out of the queue: True if it was still waiting (its count dropped),
        False if a slot had already been handed to it."""
        with self._lock:
            if waiter.granted:
                return False
            try:
                self._waiting.remove(waiter)
            except ValueError:
                pass
            self._drop(waiter.client)
            return True

    # -- leaving -----------------------------------------------------------------------------
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
        n = self._of.get(client, 0) - 1
        if n > 0:
            self._of[client] = n
        else:
            self._of.pop(client, None)


def _grant(future: asyncio.Future) -> Any:
    if not future.done():
        future.set_result(True)
