"""Requests abandoned when their caller leaves (its deadline passed, its client went away).

The model worker runs each job under `stop_when(should_stop)`; the endpoint reads `current()` on
the same thread and, once it turns true, sends no further attempt, waits out no backoff, and
shuts down the connection of the attempt in flight (a `Watcher` thread polls it), so no HTTP
request of a call outlives its caller by more than a poll period (`POLL_S`).
"""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from ambit.server.model import DecodeStopped

POLL_S = 0.05
_local = threading.local()


class Abandoned(DecodeStopped):
    """The caller left: the request was dropped, and no retry follows."""


def current() -> Callable[[], bool] | None:
    """This thread's `should_stop` (None: nobody waits on this work but its own thread)."""
    return getattr(_local, "should_stop", None)


@contextmanager
def stop_when(should_stop: Callable[[], bool] | None) -> Iterator[None]:
    """Run the block with `should_stop` (or-ed with the one already set) as this thread's."""
    outer = current()
    if should_stop is not None and outer is not None:
        mine = should_stop
        should_stop = lambda: outer() or mine()  # noqa: E731 - a closure over both
    _local.should_stop = should_stop if should_stop is not None else outer
    try:
        yield
    finally:
        _local.should_stop = outer


class InFlight:
    """One HTTP attempt: the connection urllib opens for it (`track` wraps its connection class),
    shut down once the caller's `should_stop()` turns true."""

    def __init__(self, should_stop: Callable[[], bool]) -> None:
        self.should_stop = should_stop
        self.conn = None
        self.stopped = False
        self._shut = False

    def track(self, http_class: type) -> Callable[..., object]:
        def make(*args, **kwargs):
            self.conn = http_class(*args, **kwargs)
            return self.conn
        return make

    def poll(self) -> None:
        if not self.stopped and self.should_stop():
            self.stopped = True
        sock = getattr(self.conn, "sock", None)
        if self.stopped and not self._shut and sock is not None:
            self._shut = True
            try:
                sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked read at once (close alone may not)
            except OSError:
                pass


class Watcher:
    """One daemon thread that polls the attempts in flight every `POLL_S` seconds."""

    def __init__(self) -> None:
        self._calls: set[InFlight] = set()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, call: InFlight) -> None:
        with self._cond:
            self._calls.add(call)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="ambit-remote-watch", daemon=True)
                self._thread.start()
            self._cond.notify()

    def discard(self, call: InFlight) -> None:
        with self._cond:
            self._calls.discard(call)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._calls:
                    self._cond.wait()
                calls = list(self._calls)
            for call in calls:
                try:
                    call.poll()
                except Exception:  # noqa: BLE001 - a failing should_stop must not stop the others' watch
                    call.stopped = True
            threading.Event().wait(POLL_S)
