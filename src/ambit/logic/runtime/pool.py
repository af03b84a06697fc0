"""Batches spread over worker processes (`PrologPool`, process_pool.py), each with its own
Prolog, so that a batch uses every core; the long lane's process too (`lane`).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from concurrent.futures import CancelledError, Future
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
    """The long lane of `PrologWorker.enable_lanes`: one Prolog process apart from the batch
    pools, at a lower CPU priority (`LANE_NICE`), so its hard calls do not starve the server."""
    import multiprocessing.util  # noqa: F401 - see pool()

    with _LOCK:
        if not _LANE:
            if not _POOLS:
                atexit.register(shutdown)
            _LANE.append(PrologPool(1, nice=LANE_NICE))
        return _LANE[0]


def long_lane_call(goal: str, out_var: str, time_limit: float, inferences: int | None,
                   programs: tuple[str, ...]) -> Future:
    """A call in the long lane (`lane()`): a Future of its value (a worker's `long_lane`)."""
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
    """`range(n)` cut into about CHUNKS_PER_WORKER even pieces per worker (of MIN_CHUNK+)."""
    k = max(1, min(workers * CHUNKS_PER_WORKER, n // MIN_CHUNK))
    bounds = [n * i // k for i in range(k + 1)]
    return [range(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def map_chunks(fn: Callable[..., list], items: Sequence[Any], workers: int, /, **kwargs: Any) -> list:
    """`fn(chunk, **kwargs)` for chunks of `items` on `workers` processes, joined in order."""
    items = list(items)
    futures = [pool(workers).submit(fn, items[r.start:r.stop], **kwargs) for r in chunks(len(items), workers)]
    out: list = []
    try:
        for f in futures:
            try:
                out.extend(f.result())
            except CancelledError:  # a dropped chunk
                raise cancelled_error() from None
    finally:
        for f in futures:
            f.cancel()
    return out


def _ready(programs: tuple[str, ...]) -> int:
    pid = warm_programs(programs)
    time.sleep(0.3)  # stay busy, so that each of the first tasks lands on its own process
    return pid


def warm_programs(programs: tuple[str, ...]) -> int:
    """In a pool process: load `programs` (files in logic/engine/prolog/); its pid."""
    from ambit.logic.runtime.worker import worker

    for p in programs:
        worker().consult(p)
    return os.getpid()


def warm(workers: int, *programs: str) -> None:
    """Start the `workers` processes and load `programs` in each, so a batch pays no start-up."""
    p = pool(workers)
    futures = [p.submit(_ready, programs) for _ in range(workers)]
    for f in futures:
        f.result()


__all__ = ["PrologPool", "WorkerDied", "chunks", "enable_lanes", "lane", "long_lane_call", "map_chunks", "pool", "pools",
           "shutdown", "warm"]
