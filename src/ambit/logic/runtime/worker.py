"""One dedicated thread that owns SWI-Prolog (via pyswip) for the whole process.

pyswip is not thread-safe (a class-level "query open" flag, one embedded engine), so every
Prolog call in ambit goes through `worker().run(...)`: any number of Python threads may call
it at once; calls are queued and executed one after another on the worker thread. Each call
carries a time budget that Prolog itself enforces (`call_with_time_limit/2`), so no input can
hang the caller, and an inference budget derived from it (`call_with_inference_limit/3`,
`INFERENCES_PER_SECOND`), which bounds the work the same way however loaded the machine is.
The worker's Prolog thread runs under `STACK_LIMIT_BYTES` (the `stack_limit` flag), so a goal
that builds a huge term ends in a resource error within milliseconds instead of taking a
gigabyte. A failed goal (resource error, uncaught exception, a Python error in a job) fails only
its own call: the engine is left with no open query and the next call is answered.

Work stops when its caller goes: calls made inside `with cancellable() as scope:` belong to
`scope`, and `scope.cancel()` (from any thread) drops its queued calls and interrupts its
running one: `PL_thread_raise` posts `CANCEL_SIGNAL` to the Prolog thread, whose handler throws
`'$aborted'` at the next call port (within milliseconds; Prolog rethrows it after any catch-all's
recovery, so programs that catch everything still stop), and the call ends in `PrologError`
reason `cancelled`. A signal that arrives after the goal ended is consumed before the next call.

Programs exchange data with Python as JSON text (written by `prolog/json_call.pl`), which
keeps results plain (dicts, lists, strings, numbers) whatever pyswip does with compound terms.
JSON calls go through SWI-Prolog's C interface (`json_direct.py`), not pyswip's query wrapper,
which took ~0.2 ms a call to read the call from text and convert its binding.
At exit Prolog is shut down from the worker thread (`halt`), so a short-lived process ends
at once.
"""

from __future__ import annotations

import atexit
import ctypes
import itertools
import json
import math
import os
import queue
import shutil
import threading
import time
from concurrent.futures import CancelledError, Future
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from ambit.logic.engine.budget import DEFAULT_TIME_LIMIT  # the one default (no import of its own)
from ambit.logic.runtime.cancel import (  # noqa: F401 (re-exported: callers import them from here)
    CancelScope, PrologError, budget_error, cancellable, cancelled_error, chain_future, current_scope,
    out_of_time_error,
)
from ambit.logic.runtime.json_direct import UNBOUND, JsonCall
from ambit.logic.runtime.lanes import FIRST_QUANTUM_S, two_lanes  # noqa: F401 (FIRST_QUANTUM_S re-exported)
from ambit.logic.runtime.swipl import halt_prolog, locate_swipl
from ambit.logic.syntax.full_render import escape

PROLOG_DIR = Path(str(resources.files("ambit.logic.engine").joinpath("prolog"))).resolve()
# AmP-sized proofs and RADD instances use a few MB of stack; SWI's default is 1 GB.
STACK_LIMIT_BYTES = 256 * 1024 * 1024
# Above SWI's ~20-30 M inferences/s here, so on an idle machine the time limit comes first; on a
# loaded one the inference limit stops the same work at the same point.
INFERENCES_PER_SECOND = 50_000_000
# SIGPWR: used by neither SWI-Prolog nor Python; only ever raised inside Prolog (PL_thread_raise),
# never sent to the process, and its Prolog handler throws (cancellation).
CANCEL_SIGNAL = 30
USAGE_HALF_LIFE_S = 10.0  # how fast an owner's past Prolog time stops counting against it
_LEVEL_GAP = 1e9  # a queued call's priority: level * _LEVEL_GAP + its owner's recent Prolog time


def inference_budget(seconds: float) -> int:
    """The inference limit that goes with a time limit of `seconds`."""
    return max(1_000_000, int(seconds * INFERENCES_PER_SECOND))


class PrologUnavailable(RuntimeError):
    """SWI-Prolog (or pyswip) is missing on this machine."""


_STOP = object()
_HALT = object()


class PrologWorker:
    """Owns the embedded Prolog engine on one thread; `run` and `query_json` are thread-safe."""

    def __init__(self) -> None:
        if shutil.which("swipl") is None:
            raise PrologUnavailable(
                "SWI-Prolog is not installed: `apt-get install -y swi-prolog-nox` (needs `swipl` on PATH)"
            )
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()  # (priority, seq, job): see _put
        self._seq = itertools.count()
        self._usage: dict[str, tuple[float, float]] = {}  # owner -> (decayed Prolog seconds, as of)
        self._consulted: set[str] = set()
        self._json_call_loaded = False
        self._direct: JsonCall | None = None  # made on the worker thread, on its first JSON call
        self._ready: Future = Future()
        self._running: Future | None = None
        self._signalled = False
        self._run_lock = threading.Lock()
        self._slices: dict[Future, float] = {}  # fast-lane calls and their slice
        self._tid = 0
        self._thread = threading.Thread(target=self._loop, name="ambit-prolog", daemon=True)
        self._thread.start()
        self._ready.result()

    # -- worker thread -------------------------------------------------------------
    def _loop(self) -> None:
        try:
            locate_swipl()
            from pyswip import Prolog

            self._prolog = Prolog
            list(Prolog.query("use_module(library(time))"))
            list(Prolog.query(f"set_prolog_flag(stack_limit, {STACK_LIMIT_BYTES})"))
            # '$aborted' passes every catch/3: a catch-all's recovery runs, then it is rethrown
            list(Prolog.query("assertz((ambit_cancel_signal(_) :- throw('$aborted')))"))
            list(Prolog.query(f"on_signal({CANCEL_SIGNAL}, _, user:ambit_cancel_signal)"))
            # a cancellation is not an error to print ("Execution Aborted")
            list(Prolog.query("assertz((user:message_hook(T, _, _) :- T == '$aborted'))"))
            from pyswip import core

            self._tid = core.PL_thread_self()
            self._raise = core._lib.PL_thread_raise
            self._raise.argtypes = [ctypes.c_int, ctypes.c_int]
        except Exception as e:  # pragma: no cover - depends on the machine
            self._ready.set_exception(PrologUnavailable(f"cannot start SWI-Prolog through pyswip: {e}"))
            return
        self._ready.set_result(True)
        while True:
            _, _, job = self._jobs.get()
            if job is _STOP:
                return
            if job is _HALT:
                halt_prolog()
                return
            fn, fut, owner = job
            if not fut.set_running_or_notify_cancel():
                continue
            t0 = time.monotonic()
            with self._run_lock:
                self._running = fut
                slice_s = self._slices.pop(fut, None)
            timer = None
            if slice_s is not None:  # a fast-lane call: stopped once its slice is spent
                timer = threading.Timer(slice_s, self._interrupt, args=(fut,))
                timer.daemon = True
                timer.start()
            try:
                result, error = fn(self._prolog), None
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                result, error = None, e
            if timer is not None:
                timer.cancel()
            if owner:
                self._charge(owner, time.monotonic() - t0)
            with self._run_lock:
                self._running, signalled, self._signalled = None, self._signalled, False
            if signalled:
                self._consume_signal()
            if error is not None:
                fut.set_exception(error)
            else:
                fut.set_result(result)

    def _consume_signal(self) -> None:
        """On the worker thread: take a cancel signal still pending (it came after the goal
        had ended), so that it cannot stop the next call."""
        try:
            list(self._prolog.query("true"))
        except Exception:  # noqa: BLE001 - the pending signal, thrown here on purpose
            pass

    def _interrupt(self, fut: Future) -> None:
        """Stop `fut` if it is the call running now (any thread)."""
        with self._run_lock:
            if self._running is fut and self._tid:
                self._signalled = True
                self._raise(self._tid, CANCEL_SIGNAL)

    # -- any thread ----------------------------------------------------------------
    def submit(self, fn: Callable[[Any], Any]) -> Future:
        """Run `fn(Prolog)` on the worker thread; returns a Future. Made inside a
        `cancellable()` block, the call stops when its scope is cancelled (the Future then
        raises CancelledError, or the call's PrologError reason `cancelled`)."""
        fut: Future = Future()
        scope = current_scope()
        if scope is not None:
            scope.track(fut)
            remove = scope.on_cancel(lambda: self._interrupt(fut))
            fut.add_done_callback(lambda _f: remove())
        self._put(fn, fut, scope)
        return fut

    def _put(self, fn: Callable[[Any], Any], fut: Future, scope: "CancelScope | None", level: int = 0) -> None:
        """Queue a call. Calls of an owner (a scope's `owner`: the server's client connection)
        go in order of how much Prolog time that owner had lately, least first, so a client
        that has used little (a bystander) passes those that have used much (a storm). A call
        of a higher `level` (a two-lane call past its first quantum) goes after every call of a
        lower one."""
        owner = scope.owner if scope is not None else ""
        priority = level * _LEVEL_GAP + (self._usage_of(owner) if owner else 0.0)
        self._jobs.put((priority, next(self._seq), (fn, fut, owner)))

    def _usage_of(self, owner: str) -> float:
        value, at = self._usage.get(owner, (0.0, 0.0))
        return value * math.exp(-(time.monotonic() - at) / USAGE_HALF_LIFE_S * math.log(2))

    def _charge(self, owner: str, seconds: float) -> None:
        self._usage[owner] = (self._usage_of(owner) + seconds, time.monotonic())
        if len(self._usage) > 10_000:  # forget the owners that used least
            for key, _ in sorted(self._usage.items(), key=lambda kv: kv[1][0])[:5_000]:
                del self._usage[key]

    def run(self, fn: Callable[[Any], Any], timeout: float | None = None) -> Any:
        return self.submit(fn).result(timeout)

    def consult(self, name: str) -> None:
        """Load `logic/engine/prolog/<name>` once (idempotent, and cheap to call before every
        query: a program's callers need no flag of their own)."""
        key = os.path.join(PROLOG_DIR, name)
        if key in self._consulted:
            return

        def load(prolog) -> None:
            if key not in self._consulted:
                list(prolog.query(f"consult('{escape(key)}')"))
                self._consulted.add(key)

        self.run(load)

    def query_json(
        self, goal: str, out_var: str = "Out", time_limit: float = DEFAULT_TIME_LIMIT, inferences: int | None = None
    ) -> Any:
        """Solve `goal` once under a time limit and an inference limit (`inferences`, default
        `inference_budget(time_limit)`); `out_var` must be bound to a JSON-able term
        (dicts as json([k=v,...]) or SWI dicts, lists, atoms, numbers). Returns the Python value,
        or None when the goal fails; PrologError (reason `time_limit`, `inference_limit`, `memory`
        or `error`) when it raises or runs past a budget, `cancelled` when its scope is
        cancelled. The goal text is read inside Prolog (`prolog/json_call.pl`), so no variable
        binding is converted by pyswip; only the JSON text crosses over."""
        return _result(self.submit_json_quiet(goal, out_var, time_limit, inferences))

    def query_json_quiet(
        self, goal: str, out_var: str = "Out", time_limit: float = DEFAULT_TIME_LIMIT, inferences: int | None = None
    ) -> Any:
        """`query_json` (the same call, under the name its callers use for large goals)."""
        return _result(self.submit_json_quiet(goal, out_var, time_limit, inferences))

    def submit_json_quiet(
        self, goal: str, out_var: str = "Out", time_limit: float = DEFAULT_TIME_LIMIT, inferences: int | None = None
    ) -> Future:
        """`query_json_quiet` without waiting: a Future of its value (or of its PrologError), so
        that a caller can prepare the next goal while Prolog solves this one."""
        if not self._json_call_loaded:  # not consult()'s own check: a lane (lanes.py) has it loaded already
            self.consult("json_call.pl")
            self._json_call_loaded = True
        if self.fast_lane_s and time_limit > self.fast_lane_s:
            return self._two_lanes(goal, out_var, time_limit, inferences)
        limit = inferences or inference_budget(time_limit)

        def solve(prolog) -> Any:
            try:  # json_call/4 through the C interface (json_direct.py: ~0.2 ms less than prolog.query)
                reply = self._json_call()(goal, out_var, time_limit, limit)
            except Exception as e:  # noqa: BLE001 - pyswip's error for an exception out of the query
                if "$aborted" in str(e):
                    raise cancelled_error() from None
                spent = budget_error(e)  # a budget met outside json_call's catch: still a budget
                if spent is not None:
                    raise spent from None
                raise
            if reply is None:
                return None
            if reply is UNBOUND:  # the outer inference limit took the call
                raise PrologError("Prolog inference budget exceeded", reason="inference_limit")
            if reply.startswith("ok "):
                return json.loads(reply[3:])
            if reply == "timeout":
                raise out_of_time_error()
            raise PrologError.from_payload(reply[6:])

        return self.submit(solve)

    def _json_call(self) -> JsonCall:
        """The C-interface caller of json_call/4, made on first use (on the worker thread)."""
        if self._direct is None:
            self._direct = JsonCall()
        return self._direct

    # -- two lanes: short calls never wait behind long ones --------------------------
    fast_lane_s = 0.0  # 0: one lane (every call runs here to its end)
    # with lanes: long_lane(goal, out_var, time_limit, inferences, programs) -> Future runs a call in
    # the long lane (pool.long_lane_call; given to enable_lanes, so this module needs no pool)
    long_lane: Callable[..., Future] | None = None

    def enable_lanes(self, slice_s: float, long_lane: Callable[..., Future]) -> None:
        """Run every JSON call here for at most `slice_s` seconds first; one that needs more is
        run again, with what is left of its budget, in the long lane (a Prolog process of its
        own, `pool.lane()`). This thread then never holds a short call behind a long
        one for more than `slice_s`: under a storm of hard calls, a trivial one still answers
        at once. Before its slice, a call runs for `FIRST_QUANTUM_S` ahead of every call past
        its own (a multilevel queue): when many hard calls arrive at once, each from a client
        with no Prolog time used yet, a trivial call waits behind one quantum of each, not one
        slice. Work spent in a quantum or slice that runs out is lost (at most
        `FIRST_QUANTUM_S` + `slice_s` a call). `long_lane` runs a call in the long lane
        (`pool.long_lane_call`; `pool.enable_lanes(worker, slice_s)` passes it)."""
        self.long_lane = long_lane
        self.fast_lane_s = slice_s

    def _two_lanes(self, goal: str, out_var: str, time_limit: float, inferences: int | None) -> Future:
        return two_lanes(self, goal, out_var, time_limit, inferences)

    def close(self) -> None:
        self._jobs.put((math.inf, next(self._seq), _STOP))

    def halt(self, timeout: float = 5.0) -> None:
        """At exit: after the calls already queued, shut Prolog down on the worker thread (the
        thread that started it, Prolog's main thread). Done from Python's main thread instead,
        Prolog's clean-up waits a second for a thread it cannot stop, and warns "Failed to stop
        Prolog threads": a second added to every short-lived process that used Prolog."""
        if self._thread.is_alive():
            self._jobs.put((math.inf, next(self._seq), _HALT))
            self._thread.join(timeout)


def _result(fut: Future) -> Any:
    """A call's value; a call dropped by its scope's cancellation is PrologError `cancelled`."""
    try:
        return fut.result()
    except CancelledError:
        raise cancelled_error() from None


_WORKER: PrologWorker | None = None
_WORKER_LOCK = threading.Lock()


def worker() -> PrologWorker:
    """The process-wide Prolog worker, started on first use."""
    global _WORKER
    with _WORKER_LOCK:
        if _WORKER is None:
            _WORKER = PrologWorker()
            # Registered after pyswip's own clean-up handler, so it runs first (LIFO): the
            # worker thread releases its engine before Prolog halts.
            atexit.register(_WORKER.halt)
        return _WORKER
