"""Batches spread over worker processes, so that a batch uses every core.

pyswip binds the Python side to one thread, and one embedded Prolog serves each process. A pool
of processes started with `spawn` (never `fork`: a forked copy of a process that already embeds
Prolog is unsafe) runs the chunks of a batch side by side, each process with its own Prolog.
A chunk travels whole: the worker process reads the formulas, asks its Prolog and checks the
evidence, so the parent's share of the work is splitting the batch and joining the answers.
"""

from __future__ import annotations

import atexit
import threading
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_POOLS: dict[int, ProcessPoolExecutor] = {}
_LOCK = threading.Lock()
CHUNKS_PER_WORKER = 4  # smaller chunks balance the load; each chunk costs one round trip
MIN_CHUNK = 8


def pool(workers: int) -> ProcessPoolExecutor:
    """The process-wide pool of `workers` processes, started on first use."""
    import multiprocessing  # here, not at the top: most processes never start a pool
    from concurrent.futures import ProcessPoolExecutor

    with _LOCK:
        if workers not in _POOLS:
            if not _POOLS:
                atexit.register(shutdown)
            _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        return _POOLS[workers]


def shutdown() -> None:
    """Stop every pool (at exit, before the interpreter tears down the modules they use)."""
    with _LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for p in pools:
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
    exception a chunk raises is raised here."""
    items = list(items)
    futures = [pool(workers).submit(fn, items[r.start:r.stop], **kwargs) for r in chunks(len(items), workers)]
    out: list = []
    for f in futures:
        out.extend(f.result())
    return out


def _ready(programs: tuple[str, ...]) -> int:
    import os
    import time

    from .prolog_worker import worker

    for p in programs:
        worker().consult(p)
    time.sleep(0.3)  # stay busy, so that each of the first tasks lands on its own process
    return os.getpid()


def warm(workers: int, *programs: str) -> None:
    """Start the `workers` processes and load `programs` (files in logic/prolog/) in each, so
    that a batch does not pay for start-up."""
    p = pool(workers)
    futures = [p.submit(_ready, programs) for _ in range(workers)]
    for f in futures:
        f.result()


__all__ = ["chunks", "map_chunks", "pool", "shutdown", "warm"]
