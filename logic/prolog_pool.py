"""Prolog work spread over worker processes, so that a batch uses every core.

pyswip binds the Python side to one thread, and one embedded Prolog serves each process; a
pool of processes started with `spawn` (never `fork`: a forked copy of a process that already
embeds Prolog is unsafe), each with its own `PrologWorker`, runs independent goals side by
side. Goals and answers cross as text and JSON values, as with the in-process worker.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

_POOLS: dict[int, ProcessPoolExecutor] = {}
_LOCK = threading.Lock()


def _solve(program: str, goal: str, time_limit: float) -> Any:
    """In a pool process: `goal`'s JSON answer from `program` (loaded once per process)."""
    from .prolog_worker import worker

    w = worker()
    w.consult(program)
    return w.query_json_quiet(goal, time_limit=time_limit)


def pool(workers: int) -> ProcessPoolExecutor:
    """The process-wide pool of `workers` Prolog processes, started on first use."""
    with _LOCK:
        if workers not in _POOLS:
            _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        return _POOLS[workers]


def submit(program: str, goal: str, time_limit: float, workers: int) -> Future:
    """Solve `goal` (a `query_json_quiet` goal binding `Out`) on one of `workers` processes;
    a Future of its value, or of its PrologError."""
    return pool(workers).submit(_solve, program, goal, time_limit)


__all__ = ["pool", "submit"]
