"""The JSON-lines loop of `ambit logic equiv|entails --jsonl`: one output line per input line, in
order, whatever fails. With `workers` > 1 each process (logic/runtime/pool.py) reads, parses and
answers its own lines, so the parent only moves text."""

from __future__ import annotations

import argparse
from collections import deque
from itertools import islice
from typing import IO, Callable, Iterator

Answer = Callable[[list[str]], list[tuple[str, bool]]]
IN_FLIGHT_PER_WORKER = 2


MAX_WORKERS = 256  # Prolog processes one command may start (100,000 ended in "libgcc_s.so.1 must be installed")


def worker_count(text: str) -> int:
    """argparse type: a number of worker processes, from 1 to MAX_WORKERS."""
    n = positive_int(text)
    if n > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_WORKERS} (worker processes), not {n}")
    return n


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def batches(stdin: IO[str], size: int) -> Iterator[list[str]]:
    it = iter(stdin)
    while lines := list(islice(it, size)):
        yield lines


def run(stdin: IO[str], stdout: IO[str], answer: Answer, batch: int, workers: int = 1) -> int:
    """Answer every line of `stdin` on `stdout`; 0, or 2 when some line got an error. `answer`
    must be picklable (a module-level function or a partial of one) when `workers` > 1."""
    failed = False

    def emit(results: list[tuple[str, bool]]) -> None:
        nonlocal failed
        for text, ok in results:
            stdout.write(text + "\n")
            failed = failed or not ok
        stdout.flush()

    if workers <= 1:
        for lines in batches(stdin, batch):
            emit(answer(lines))
        return 2 if failed else 0
    from ambit.logic.runtime import pool as prolog_pool

    pool = prolog_pool.pool(workers)
    window: deque = deque()
    for lines in batches(stdin, batch):
        window.append(pool.submit(answer, lines))
        if len(window) >= workers * IN_FLIGHT_PER_WORKER:
            emit(window.popleft().result())
    while window:
        emit(window.popleft().result())
    return 2 if failed else 0


__all__ = ["Answer", "batches", "positive_int", "run"]
