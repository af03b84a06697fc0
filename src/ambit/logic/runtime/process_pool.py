"""A pool of Prolog worker processes (`PrologPool`): a dead one is replaced (its chunk retried
once), a cancelled chunk stopped; spawned, never forked (a forked Prolog is unsafe).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import logging
import os
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from ambit.logic.runtime.cancel import (CancelScope, cancellable, cancelled_error, chain_future,
                                        current_scope)

log = logging.getLogger("ambit.prolog_pool")  # pool.py's logger: these records were logged under it

CANCEL_GRACE_S = 0.4  # a cancelled chunk's process gets this long to stop, then it is replaced
START_TIMEOUT_S = 120.0
POLL_S = 0.05
# A worker process's young generation (CPython's default: 700): a chunk's results leave no cycles,
# and at the default the collector took 1.6% of the process's CPU freeing next to nothing.
POOL_GC_THRESHOLD = 7000


class WorkerDied(RuntimeError):
    """The Prolog worker processes running a chunk died twice (it was retried once)."""


@dataclass
class _Task:
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    future: Future
    scope: CancelScope | None
    attempts: int = 0
    id: int = field(default_factory=itertools.count().__next__)


_STOP = None


class PrologPool:
    """`workers` Prolog processes; `submit(fn, *args, **kwargs)` runs a module-level `fn` on one."""

    def __init__(self, workers: int, nice: int = 0) -> None:
        import multiprocessing  # here, not at the top: most processes never start a pool

        self.workers = workers
        self.nice = nice  # added to each process's niceness: a lower CPU priority than the caller's
        self._ctx = multiprocessing.get_context("spawn")
        self._tasks: queue.Queue = queue.Queue()
        self._closed = False
        self._lock = threading.Lock()
        self._procs: dict[int, Any] = {}  # slot -> running process (absent while (re)starting)
        self.restarts = 0
        self._slots = [threading.Thread(target=self._slot, args=(i,), name=f"ambit-prolog-pool-{i}", daemon=True)
                       for i in range(workers)]
        for t in self._slots:
            t.start()

    # -- any thread ----------------------------------------------------------------
    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        if self._closed:
            raise RuntimeError("Prolog pool shut down")
        fut: Future = Future()
        scope = current_scope()
        if scope is not None:
            scope.track(fut)
        self._tasks.put(_Task(fn, args, kwargs, fut, scope))
        return fut

    def alive(self) -> int:
        """Processes started and able to take work now."""
        with self._lock:
            return sum(p.is_alive() for p in self._procs.values())

    def pids(self) -> list[int]:
        with self._lock:
            return [p.pid for p in self._procs.values() if p.is_alive()]

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        self._closed = True
        if cancel_futures:
            while True:
                try:
                    task = self._tasks.get_nowait()
                except queue.Empty:
                    break
                if task is not _STOP:
                    task.future.cancel()
        for _ in self._slots:
            self._tasks.put(_STOP)
        if wait:
            for t in self._slots:
                t.join(10)

    # -- slot threads ----------------------------------------------------------------
    def _start(self, slot: int) -> tuple[Any, Any]:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_child_main, args=(child, self.nice), name=f"ambit-prolog-{slot}",
                                 daemon=True)
        proc.start()
        child.close()
        try:
            started = parent.poll(START_TIMEOUT_S) and parent.recv() == "ready"
        except (EOFError, OSError):
            started = False
        if not started:
            proc.kill()
            raise RuntimeError(f"a Prolog worker process did not start (exit code {proc.exitcode})")
        with self._lock:
            self._procs[slot] = proc
        return proc, parent

    def _drop(self, slot: int, proc: Any, conn: Any) -> None:
        with self._lock:
            self._procs.pop(slot, None)
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        conn.close()

    def _slot(self, slot: int) -> None:
        proc = conn = None
        while True:
            try:
                task = self._tasks.get(timeout=0.25)
            except queue.Empty:  # idle: replace a process that died between tasks
                if proc is not None and not proc.is_alive():
                    self._drop(slot, proc, conn)
                    log.warning("idle Prolog worker process %s died (exit code %s); replacing it",
                                proc.pid, proc.exitcode)
                    self.restarts += 1
                    proc = conn = None
                    try:
                        proc, conn = self._start(slot)
                    except Exception:  # noqa: BLE001 - tried again at the next task
                        log.exception("cannot restart a Prolog worker process")
                continue
            if task is _STOP:
                break
            if not task.future.set_running_or_notify_cancel():
                continue
            if proc is None or not proc.is_alive():
                if proc is not None:
                    self._drop(slot, proc, conn)
                    self.restarts += 1
                try:
                    proc, conn = self._start(slot)
                except Exception as e:  # noqa: BLE001 - handed to the caller
                    proc = conn = None
                    task.future.set_exception(e)
                    time.sleep(1.0)
                    continue
            if not self._run(task, proc, conn):
                self._drop(slot, proc, conn)
                log.warning("Prolog worker process %s died (exit code %s); replacing it", proc.pid, proc.exitcode)
                self.restarts += 1
                self._retry(task, f"exit code {proc.exitcode}")
                proc = conn = None
                try:  # at once, not at the next task: health counts the processes able to work
                    proc, conn = self._start(slot)
                except Exception:  # noqa: BLE001 - tried again at the next task
                    log.exception("cannot restart a Prolog worker process")
        if proc is not None and proc.is_alive():
            with contextlib.suppress(OSError):
                conn.send(("stop",))
            proc.join(5)
            if proc.is_alive():
                proc.kill()

    def _retry(self, task: _Task, why: str) -> None:
        """Run a chunk whose process died once more (on the next free process), or fail it."""
        if task.future.done():
            return
        if task.attempts >= 1:
            task.future.set_exception(WorkerDied(
                "the Prolog worker process running this work died twice (it was retried once on another "
                f"process); the work may crash Prolog ({why})"))
            return
        retry = _Task(task.fn, task.args, task.kwargs, Future(), task.scope, task.attempts + 1)
        retry.future.add_done_callback(lambda f: chain_future(f, task.future))
        self._tasks.put(retry)

    def _run(self, task: _Task, proc: Any, conn: Any) -> bool:
        """Send `task` to `proc` and wait; False when the process died (or was killed) first."""
        from multiprocessing.connection import wait

        try:
            conn.send(("run", task.id, task.fn, task.args, task.kwargs))
        except (OSError, ValueError):
            return False
        cancel_sent_at: float | None = None
        while True:
            ready = wait([conn, proc.sentinel], timeout=POLL_S)
            if conn in ready:
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    return False
                if kind == "ok":
                    task.future.set_result(value)
                else:
                    task.future.set_exception(value)
                return True
            if proc.sentinel in ready:
                return False
            if task.scope is not None and task.scope.cancelled:
                now = time.monotonic()
                if cancel_sent_at is None:
                    cancel_sent_at = now
                    try:
                        conn.send(("cancel",))
                    except OSError:
                        return False
                elif now - cancel_sent_at > CANCEL_GRACE_S:
                    log.warning("Prolog worker process %s did not stop a cancelled call; replacing it", proc.pid)
                    task.future.set_exception(cancelled_error())  # so it is not retried
                    proc.kill()
                    return False


def _child_main(conn: Any, nice: int = 0) -> None:
    """A worker process: the parent's tasks one at a time, each in its own cancel scope."""
    from ambit.logic.runtime.worker import worker

    if nice:
        os.nice(nice)
    gc.set_threshold(POOL_GC_THRESHOLD, *gc.get_threshold()[1:])
    worker()
    conn.send("ready")
    send_lock = threading.Lock()
    current: list[CancelScope] = []
    jobs: queue.Queue = queue.Queue()

    def runner() -> None:
        while True:
            msg = jobs.get()
            if msg is None:
                return
            _, task_id, fn, args, kwargs = msg
            with cancellable() as scope:
                current[:] = [scope]
                try:
                    reply = ("ok", fn(*args, **kwargs))
                except BaseException as e:  # noqa: BLE001 - handed to the parent
                    reply = ("err", e)
                current.clear()
            with send_lock:
                try:
                    conn.send(reply)
                except Exception as e:  # noqa: BLE001 - an unpicklable result or error
                    conn.send(("err", RuntimeError(f"{type(e).__name__}: {e}")))

    thread = threading.Thread(target=runner, name="ambit-pool-runner", daemon=True)
    thread.start()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the parent went away
            break
        if msg[0] == "run":
            jobs.put(msg)
        elif msg[0] == "cancel":
            for scope in list(current):
                scope.cancel()
        elif msg[0] == "stop":
            break
    jobs.put(None)
    thread.join(5)
    os._exit(0)


__all__ = ["CANCEL_GRACE_S", "POLL_S", "POOL_GC_THRESHOLD", "PrologPool", "START_TIMEOUT_S", "WorkerDied"]
