"""Batches spread over worker processes, so that a batch uses every core; workers that die are
replaced, and work whose caller went away is stopped.

pyswip binds the Python side to one thread, and one embedded Prolog serves each process. A pool
of processes started with `spawn` (never `fork`: a forked copy of a process that already embeds
Prolog is unsafe) runs the chunks of a batch side by side, each process with its own Prolog.
A chunk travels whole: the worker process reads the formulas, asks its Prolog and checks the
evidence, so the parent's share of the work is splitting the batch and joining the answers.

This module keeps the pools a process has started (a batch pool per number of workers, and the
long lane of `PrologWorker.enable_lanes`), cuts batches into chunks and joins their answers. The
pool itself, its processes replaced when they die and its chunks stopped when their caller's
scope is cancelled, is `PrologPool` (process_pool.py, re-exported here with `WorkerDied`).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable, Sequence

from ambit.logic.runtime.cancel import cancelled_error
from ambit.logic.runtime.process_pool import PrologPool, WorkerDied

CHUNKS_PER_WORKER = 4  # smaller chunks balance the load; each chunk costs one round trip
MIN_CHUNK = 8

_POOLS: dict[int, PrologPool] = {}
_LOCK = threading.Lock()


def pool(workers: int) -> PrologPool:
    """The process-wide pool of `workers` processes, started on first use."""
    import multiprocessing.util  # noqa: F401 - its exit handler (which ends daemon processes) first,
    # so that ours, registered after it, runs before it and stops the processes in order
    with _LOCK:
        if workers not in _POOLS:
            if not _POOLS:
                atexit.register(shutdown)
            _POOLS[workers] = PrologPool(workers)
        return _POOLS[workers]


_LANE: list[PrologPool] = []
LANE_NICE = 10


def lane() -> PrologPool:
    """The long lane of `PrologWorker.enable_lanes`: one Prolog process of its own, started on
    first use (apart from the batch pools, so that health and batches do not count it), at a
    lower CPU priority (`LANE_NICE`): on a machine with few cores, the calls it runs (hard ones,
    by definition) then take CPU from the server's event loop and fast lane only when they idle."""
    import multiprocessing.util  # noqa: F401 - see pool()

    with _LOCK:
        if not _LANE:
            if not _POOLS:
                atexit.register(shutdown)
            _LANE.append(PrologPool(1, nice=LANE_NICE))
        return _LANE[0]


def long_lane_call(goal: str, out_var: str, time_limit: float, inferences: int | None,
                   programs: tuple[str, ...]) -> Future:
    """A call in the long lane (`lane()`): a Future of its value; a worker with lanes enabled
    holds this as its `long_lane`."""
    return lane().submit(_long_lane_call, goal, out_var, time_limit, inferences, programs)


def _long_lane_call(goal: str, out_var: str, time_limit: float, inferences: int | None,
                    programs: tuple[str, ...]) -> Any:
    """In the long lane's process: the call, with the programs the caller's Prolog had loaded."""
    from ambit.logic.runtime.worker import worker

    w = worker()
    for path in programs:
        w.consult(path)
    return w.query_json(goal, out_var, time_limit, inferences)


def enable_lanes(worker: Any, slice_s: float) -> None:
    """Two lanes for `worker` (`PrologWorker.enable_lanes`), the long one in `lane()`'s process."""
    worker.enable_lanes(slice_s, long_lane_call)


def pools() -> list[PrologPool]:
    """The pools started in this process."""
    with _LOCK:
        return list(_POOLS.values())


def shutdown() -> None:
    """Stop every pool (at exit, before the interpreter tears down the modules they use)."""
    with _LOCK:
        ps = list(_POOLS.values()) + _LANE
        _POOLS.clear()
        _LANE.clear()
    for p in ps:
        p.shutdown(wait=True, cancel_futures=True)


def chunks(n: int, workers: int) -> list[range]:
    """`range(n)` cut into about CHUNKS_PER_WORKER pieces per worker, of nearly equal sizes (at
    least MIN_CHUNK items each, unless there are fewer)."""
    k = max(1, min(workers * CHUNKS_PER_WORKER, n // MIN_CHUNK))
    bounds = [n * i // k for i in range(k + 1)]
    return [range(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def map_chunks(fn: Callable[..., list], items: Sequence[Any], workers: int, /, **kwargs: Any) -> list:
    """`fn(chunk, **kwargs)` for chunks of `items` on `workers` processes, concatenated in order
    (the same list `fn(items, **kwargs)` gives). `fn` must be a module-level function. The first
    exception a chunk raises is raised here (`WorkerDied` when its processes died twice;
    PrologError `cancelled` when the caller's scope was cancelled)."""
    items = list(items)
    futures = [pool(workers).submit(fn, items[r.start:r.stop], **kwargs) for r in chunks(len(items), workers)]
    out: list = []
    try:
        for f in futures:
            try:
                out.extend(f.result())
            except Exception as e:  # noqa: BLE001 - CancelledError of a dropped chunk, among others
                from concurrent.futures import CancelledError

                if isinstance(e, CancelledError):
                    raise cancelled_error() from None
                raise
    finally:
        for f in futures:
            f.cancel()
    return out


def _ready(programs: tuple[str, ...]) -> int:
    from ambit.logic.runtime.worker import worker

    for p in programs:
        worker().consult(p)
    time.sleep(0.3)  # stay busy, so that each of the first tasks lands on its own process
    return os.getpid()


def warm_programs(programs: tuple[str, ...]) -> int:
    """In a pool process: load `programs` (files in logic/engine/prolog/); its pid."""
    from ambit.logic.runtime.worker import worker

    for p in programs:
        worker().consult(p)
    return os.getpid()


def warm(workers: int, *programs: str) -> None:
    """Start the `workers` processes and load `programs` (files in logic/engine/prolog/) in each, so
    that a batch does not pay for start-up."""
    p = pool(workers)
    futures = [p.submit(_ready, programs) for _ in range(workers)]
    for f in futures:
        f.result()


__all__ = ["PrologPool", "WorkerDied", "chunks", "enable_lanes", "lane", "long_lane_call", "map_chunks", "pool", "pools",
           "shutdown", "warm"]
