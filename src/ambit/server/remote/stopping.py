"""Requests abandoned when their caller leaves: jobs run under `stop_when(should_stop)`, and once
`current()` turns true the endpoint cancels its attempt and retries no more, so no HTTP request
outlives its caller by more than `POLL_S`."""

from __future__ import annotations

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
