"""Cancellation for Prolog calls (`cancellable`), and the error every Prolog call raises.
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import Future
from typing import Any, Callable, Iterator


class PrologError(RuntimeError):
    """A Prolog goal raised an error or ran past a budget: `reason` is `time_limit` (`timed_out`),
    `inference_limit`, `memory` (stack limit), `cancelled` or `error`."""

    def __init__(self, message: str, timed_out: bool = False, reason: str | None = None) -> None:
        super().__init__(message)
        self.timed_out = timed_out
        self.reason = reason or ("time_limit" if timed_out else "error")

    @classmethod
    def from_payload(cls, payload: str) -> "PrologError":
        """The error for a caught Prolog error term (its text)."""
        if payload.startswith("inference_limit_exceeded"):
            return cls("Prolog inference budget exceeded", reason="inference_limit")
        if payload.startswith("error(signal("):
            return cls("Prolog call cancelled: its caller went away", reason="cancelled")
        if payload.startswith("error(resource_error("):
            return cls(f"Prolog ran out of resources: {payload[:120]}", reason="memory")
        return cls(f"Prolog error: {payload}")

    def __reduce__(self):  # keep `timed_out` and `reason` when the error crosses from a pool process
        return (PrologError, (str(self), self.timed_out, self.reason))


class CancelScope:
    """The Prolog calls made for one request; `cancel()` (any thread, idempotent) stops them."""

    def __init__(self, owner: str = "") -> None:
        self.owner = owner  # who the calls are for (fair order in the worker's queue); "" none
        self.cancelled = False
        self._lock = threading.Lock()
        self._pending: set[Future] = set()
        self._hooks: list[Callable[[], Any]] = []

    def cancel(self) -> None:
        with self._lock:
            if self.cancelled:
                return
            self.cancelled = True
            pending, hooks = list(self._pending), list(self._hooks)
        for fut in pending:
            fut.cancel()
        for hook in hooks:
            hook()

    def on_cancel(self, hook: Callable[[], Any]) -> Callable[[], None]:
        """Run `hook` when the scope is cancelled (at once if it is); returns its remover."""
        with self._lock:
            if not self.cancelled:
                self._hooks.append(hook)
                return lambda: self._remove_hook(hook)
        hook()
        return lambda: None

    def _remove_hook(self, hook: Callable[[], Any]) -> None:
        with self._lock:
            if hook in self._hooks:
                self._hooks.remove(hook)

    def track(self, fut: Future) -> None:
        with self._lock:
            if self.cancelled:
                fut.cancel()
                return
            self._pending.add(fut)
        fut.add_done_callback(self._done)

    def _done(self, fut: Future) -> None:
        with self._lock:
            self._pending.discard(fut)

    @contextlib.contextmanager
    def active(self) -> Iterator["CancelScope"]:
        """Make this the current thread's scope for the block (calls made there belong to it)."""
        previous = getattr(_CURRENT, "scope", None)
        _CURRENT.scope = self
        try:
            yield self
        finally:
            _CURRENT.scope = previous


_CURRENT = threading.local()


def current_scope() -> CancelScope | None:
    """The scope of the calls this thread makes now (None: not cancellable)."""
    return getattr(_CURRENT, "scope", None)


@contextlib.contextmanager
def cancellable(owner: str = "") -> Iterator[CancelScope]:
    """`with cancellable() as scope:` this thread's Prolog calls in it stop on `scope.cancel()`."""
    with CancelScope(owner).active() as scope:
        yield scope


_BUDGETS = ("inference_limit_exceeded", "time_limit_exceeded", "error(resource_error(")


def budget_error(err: Exception) -> PrologError | None:
    """The PrologError for pyswip's error ("... Returned: '<term>'.") of a query whose budget or
    stack ran out outside json_call.pl's `catch`, or None for any other error."""
    _, found, term = str(err).partition("Returned: '")
    if not found or not term.startswith(_BUDGETS):
        return None
    if term.startswith("time_limit_exceeded"):
        return out_of_time_error()
    return PrologError.from_payload(term)


def cancelled_error() -> PrologError:
    return PrologError("Prolog call cancelled: its caller went away", reason="cancelled")


def out_of_time_error() -> PrologError:
    """A call that ran past its time limit (Prolog's own, or its lane's slice with no time left)."""
    return PrologError("Prolog time budget exceeded", timed_out=True)


def chain_future(src: Future, dst: Future) -> None:
    """Hand `src`'s outcome to `dst` (a cancelled `src` is PrologError `cancelled`)."""
    if dst.done():
        return
    if src.cancelled():
        dst.set_exception(cancelled_error())
    elif src.exception() is not None:
        dst.set_exception(src.exception())
    else:
        dst.set_result(src.result())
