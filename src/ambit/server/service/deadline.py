"""A request's deadline as a plain value: how long is left, whether the caller is still there,
and the budget a piece of work (a Prolog check) may take."""

from __future__ import annotations

import time
from typing import Any, Callable

from ambit.server.service.errors import DeadlineExceeded

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
