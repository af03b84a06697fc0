"""One dedicated thread that owns SWI-Prolog (via pyswip, not thread-safe) for the whole process.

Calls are queued to it, each under a time and an inference limit (`INFERENCES_PER_SECOND`)
and `STACK_LIMIT_BYTES`, a failed goal failing only its call; a cancelled scope interrupts
its call (`CANCEL_SIGNAL`). Results cross as JSON text (`json_direct.py`).
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
# Above SWI's ~20-30 M inferences/s here: on an idle machine the time limit comes first.
INFERENCES_PER_SECOND = 50_000_000
# SIGPWR: used by neither SWI-Prolog nor Python; only raised inside Prolog (PL_thread_raise).
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
            from pyswip import Prolog, core

            self._prolog = Prolog
            list(Prolog.query("use_module(library(time))"))
            list(Prolog.query(f"set_prolog_flag(stack_limit, {STACK_LIMIT_BYTES})"))
            # '$aborted' passes every catch/3: a catch-all's recovery runs, then it is rethrown
            list(Prolog.query("assertz((ambit_cancel_signal(_) :- throw('$aborted')))"))
            list(Prolog.query(f"on_signal({CANCEL_SIGNAL}, _, user:ambit_cancel_signal)"))
            # a cancellation is not an error to print ("Execution Aborted")
            list(Prolog.query("assertz((user:message_hook(T, _, _) :- T == '$aborted'))"))
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
        """On the worker thread: take a cancel signal that came after its goal ended."""
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
    def submit(self, fn: Callable[[Any], Any], level: int = 0,
               slice_s: float | None = None) -> Future:
        """Run `fn(Prolog)` on the worker thread: a Future, stopped with its scope or `slice_s`."""
        fut: Future = Future()
        if slice_s is not None:
            with self._run_lock:
                self._slices[fut] = slice_s
        scope = current_scope()
        if scope is not None:
            scope.track(fut)
            remove = scope.on_cancel(lambda: self._interrupt(fut))
            fut.add_done_callback(lambda _f: remove())
        self._put(fn, fut, scope, level)
        return fut

    def _put(self, fn: Callable[[Any], Any], fut: Future, scope: "CancelScope | None", level: int = 0) -> None:
        """Queue a call, owners with least recent Prolog time first (a bystander passes a storm)."""
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
        """Load `logic/engine/prolog/<name>` once (cheap to call before every query)."""
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
        """`out_var`'s JSON value once `goal` is solved within its limits (None if it fails); else
        PrologError (`time_limit`, `inference_limit`, `memory`, `error`, `cancelled`)."""
        return _result(self.submit_json_quiet(goal, out_var, time_limit, inferences))

    query_json_quiet = query_json  # the same call, under the name its callers use for large goals

    def submit_json_quiet(
        self, goal: str, out_var: str = "Out", time_limit: float = DEFAULT_TIME_LIMIT, inferences: int | None = None
    ) -> Future:
        """`query_json_quiet` without waiting: a Future of its value (or of its PrologError)."""
        if not self._json_call_loaded:  # not consult()'s own check: a lane (lanes.py) has it loaded already
            self.consult("json_call.pl")
            self._json_call_loaded = True
        if self.fast_lane_s and time_limit > self.fast_lane_s:
            return two_lanes(self, goal, out_var, time_limit, inferences)
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
    # the long lane's call (pool.long_lane_call), given to enable_lanes: this module needs no pool
    long_lane: Callable[..., Future] | None = None

    def enable_lanes(self, slice_s: float, long_lane: Callable[..., Future]) -> None:
        """Run every JSON call here for at most `slice_s` seconds (after a quantum: lanes.py), then
        in `long_lane`, so a short call never waits long behind a long one."""
        self.long_lane = long_lane
        self.fast_lane_s = slice_s

    def close(self) -> None:
        self._jobs.put((math.inf, next(self._seq), _STOP))

    def halt(self, timeout: float = 5.0) -> None:
        """At exit, after the queued calls, shut Prolog down on the worker thread: from Python's
        main thread, Prolog's clean-up would wait a second ("Failed to stop Prolog threads")."""
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
            # registered after pyswip's exit handler: runs first (LIFO), releasing the engine first
            atexit.register(_WORKER.halt)
        return _WORKER
