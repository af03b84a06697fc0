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

Programs exchange data with Python as JSON text (written by `prolog/json_call.pl`), which
keeps results plain (dicts, lists, strings, numbers) whatever pyswip does with compound terms.
At exit Prolog is shut down from the worker thread (`halt`), so a short-lived process ends
at once.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import shutil
import subprocess
import threading
from concurrent.futures import Future
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from .quoting import escape

PROLOG_DIR = Path(str(resources.files("logic").joinpath("prolog")))
# AmP-sized proofs and RADD instances use a few MB of stack; SWI's default is 1 GB.
STACK_LIMIT_BYTES = 256 * 1024 * 1024
# Above SWI's ~20-30 M inferences/s here, so on an idle machine the time limit comes first; on a
# loaded one the inference limit stops the same work at the same point.
INFERENCES_PER_SECOND = 50_000_000


def inference_budget(seconds: float) -> int:
    """The inference limit that goes with a time limit of `seconds`."""
    return max(1_000_000, int(seconds * INFERENCES_PER_SECOND))


class PrologUnavailable(RuntimeError):
    """SWI-Prolog (or pyswip) is missing on this machine."""


class PrologError(RuntimeError):
    """A Prolog goal raised an error, or ran past a budget. `reason`: `time_limit`,
    `inference_limit`, `memory` (a resource error: stack limit) or `error`; `timed_out` is true
    for `time_limit`."""

    def __init__(self, message: str, timed_out: bool = False, reason: str | None = None) -> None:
        super().__init__(message)
        self.timed_out = timed_out
        self.reason = reason or ("time_limit" if timed_out else "error")

    @classmethod
    def from_payload(cls, payload: str) -> "PrologError":
        """The error for a caught Prolog error term (its text)."""
        if payload.startswith("inference_limit_exceeded"):
            return cls("Prolog inference budget exceeded", reason="inference_limit")
        if payload.startswith("error(resource_error("):
            return cls(f"Prolog ran out of resources: {payload[:120]}", reason="memory")
        return cls(f"Prolog error: {payload}")

    def __reduce__(self):  # keep `timed_out` and `reason` when the error crosses from a pool process
        return (PrologError, (str(self), self.timed_out, self.reason))


_STOP = object()
_HALT = object()


class PrologWorker:
    """Owns the embedded Prolog engine on one thread; `run` and `query_json` are thread-safe."""

    def __init__(self) -> None:
        if shutil.which("swipl") is None:
            raise PrologUnavailable(
                "SWI-Prolog is not installed: `apt-get install -y swi-prolog-nox` (needs `swipl` on PATH)"
            )
        self._jobs: queue.Queue = queue.Queue()
        self._consulted: set[str] = set()
        self._json_call_loaded = False
        self._ready: Future = Future()
        self._thread = threading.Thread(target=self._loop, name="ambit-prolog", daemon=True)
        self._thread.start()
        self._ready.result()

    # -- worker thread -------------------------------------------------------------
    def _loop(self) -> None:
        try:
            _locate_swipl()
            from pyswip import Prolog

            self._prolog = Prolog
            list(Prolog.query("use_module(library(time))"))
            list(Prolog.query(f"set_prolog_flag(stack_limit, {STACK_LIMIT_BYTES})"))
        except Exception as e:  # pragma: no cover - depends on the machine
            self._ready.set_exception(PrologUnavailable(f"cannot start SWI-Prolog through pyswip: {e}"))
            return
        self._ready.set_result(True)
        while True:
            job = self._jobs.get()
            if job is _STOP:
                return
            if job is _HALT:
                _halt_prolog()
                return
            fn, fut = job
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(self._prolog))
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                fut.set_exception(e)

    # -- any thread ----------------------------------------------------------------
    def submit(self, fn: Callable[[Any], Any]) -> Future:
        """Run `fn(Prolog)` on the worker thread; returns a Future."""
        fut: Future = Future()
        self._jobs.put((fn, fut))
        return fut

    def run(self, fn: Callable[[Any], Any], timeout: float | None = None) -> Any:
        return self.submit(fn).result(timeout)

    def consult(self, name: str) -> None:
        """Load `logic/prolog/<name>` once (idempotent)."""
        path = (PROLOG_DIR / name).resolve()
        key = str(path)
        if key in self._consulted:
            return

        def load(prolog) -> None:
            if key not in self._consulted:
                list(prolog.query(f"consult('{escape(key)}')"))
                self._consulted.add(key)

        self.run(load)

    def query_json(
        self, goal: str, out_var: str = "Out", time_limit: float = 5.0, inferences: int | None = None
    ) -> Any:
        """Solve `goal` once under a time limit and an inference limit (`inferences`, default
        `inference_budget(time_limit)`); `out_var` must be bound to a JSON-able term
        (dicts as json([k=v,...]) or SWI dicts, lists, atoms, numbers). Returns the Python value,
        or None when the goal fails; PrologError (reason `time_limit`, `inference_limit`, `memory`
        or `error`) when it raises or runs past a budget. The goal text is read inside Prolog
        (`prolog/json_call.pl`), so no variable binding is converted by pyswip; only the JSON
        text crosses over."""
        return self.submit_json_quiet(goal, out_var, time_limit, inferences).result()

    def query_json_quiet(
        self, goal: str, out_var: str = "Out", time_limit: float = 5.0, inferences: int | None = None
    ) -> Any:
        """`query_json` (the same call, under the name its callers use for large goals)."""
        return self.submit_json_quiet(goal, out_var, time_limit, inferences).result()

    def submit_json_quiet(
        self, goal: str, out_var: str = "Out", time_limit: float = 5.0, inferences: int | None = None
    ) -> Future:
        """`query_json_quiet` without waiting: a Future of its value (or of its PrologError), so
        that a caller can prepare the next goal while Prolog solves this one."""
        if not self._json_call_loaded:
            self.consult("json_call.pl")
            self._json_call_loaded = True
        text = escape(goal, newlines=True)
        call = (f"call_with_inference_limit(json_call:json_call('{text}', '{escape(out_var)}', {time_limit:.6f}, Reply), "
                f"{inferences or inference_budget(time_limit)}, _)")

        def solve(prolog) -> Any:
            sols = list(prolog.query(call, maxresult=1))
            if not sols:
                return None
            reply = _text(sols[0]["Reply"])
            if reply.startswith("ok "):
                return json.loads(reply[3:])
            if reply == "timeout":
                raise PrologError("Prolog time budget exceeded", timed_out=True)
            raise PrologError.from_payload(reply[6:])

        return self.submit(solve)

    def close(self) -> None:
        self._jobs.put(_STOP)

    def halt(self, timeout: float = 5.0) -> None:
        """At exit: after the calls already queued, shut Prolog down on the worker thread (the
        thread that started it, Prolog's main thread). Done from Python's main thread instead,
        Prolog's clean-up waits a second for a thread it cannot stop, and warns "Failed to stop
        Prolog threads": a second added to every short-lived process that used Prolog."""
        if self._thread.is_alive():
            self._jobs.put(_HALT)
            self._thread.join(timeout)


def _locate_swipl() -> None:
    """Tell pyswip where SWI-Prolog lives (LIBSWIPL_PATH, SWI_HOME_DIR), from a small cache
    under `$AMBIT_CACHE` (default ~/.cache/ambit) keyed by the `swipl` executable's path, size
    and time: otherwise pyswip runs `swipl --dump-runtime-variables` in every process that
    starts Prolog. Variables already set are left alone; any failure leaves pyswip to look."""
    if os.environ.get("LIBSWIPL_PATH") and os.environ.get("SWI_HOME_DIR"):
        return
    try:
        exe = os.path.realpath(shutil.which("swipl") or "")
        st = os.stat(exe)
        key = f"{exe}|{st.st_size}|{st.st_mtime_ns}"
        cache = Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "swipl.json"
        try:
            found = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = {}
        if found.get("key") != key or not os.path.exists(found.get("LIBSWIPL_PATH", "")):
            out = subprocess.run([exe, "--dump-runtime-variables"], capture_output=True, text=True, timeout=30).stdout
            dump = dict(re.findall(r'^(\w+)="(.*)";$', out, re.M))
            found = {"key": key, "LIBSWIPL_PATH": dump["PLLIBSWIPL"], "SWI_HOME_DIR": dump["PLBASE"]}
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(found), encoding="utf-8")
            os.replace(tmp, cache)
    except Exception:  # noqa: BLE001 - an older swipl (no PLLIBSWIPL), no cache folder: pyswip looks itself
        return
    os.environ.setdefault("LIBSWIPL_PATH", found["LIBSWIPL_PATH"])
    os.environ.setdefault("SWI_HOME_DIR", found["SWI_HOME_DIR"])


def _halt_prolog() -> None:
    """On the worker thread: when it is Prolog's main thread (it started Prolog: the usual
    case), shut Prolog down here, and pyswip's own exit handler then finds it stopped; when
    Prolog was started on another thread (pyswip imported and used there first), release this
    thread's engine, so that Prolog's clean-up on that thread has no thread left to wait for."""
    try:
        import ctypes

        from pyswip import core

        if not core.PL_is_initialised(None, None):
            return
        if core.PL_thread_self() == 1:
            core.PL_cleanup(0)
        else:
            core._lib.PL_thread_destroy_engine.restype = ctypes.c_int
            core._lib.PL_thread_destroy_engine()
    except Exception:  # pragma: no cover - a different libswipl: exit is only slower
        pass


def _text(x: Any) -> str:
    return x.decode("utf-8") if isinstance(x, bytes) else str(x)


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
