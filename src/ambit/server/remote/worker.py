"""The model worker of a remote backend: the `server.batcher.Worker` interface, with jobs on up
to `max_concurrency` threads (the endpoint batches on its side). Cancelling a running job's future
stops its HTTP requests (`stopping`): no retry runs after the caller left."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from ambit.server.batcher import QueueFull

from ambit.server.remote import stopping


class _Job(Future):
    """A job's future: `cancel()` also asks the job to stop when it is already running."""

    stop_requested = False

    def cancel(self) -> bool:
        self.stop_requested = True
        return super().cancel()


class ConcurrentWorker:
    """Runs `fn(backend)` jobs concurrently; `max_batch` (reported by GetModelInfo) is the concurrency."""

    def __init__(self, backend: Any, max_concurrency: int, max_queue: int = 256) -> None:
        self.backend, self.max_batch, self.max_queue = backend, max_concurrency, max_queue
        self._pool = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="ambit-remote")
        self._lock = threading.Lock()
        self._pending = 0
        self._waiting: set[Future] = set()  # submitted, not finished: cancelled by close()
        self._closed = False
        self.batches = self.jobs = self.rejected = 0
        self.busy_seconds = 0.0

    def submit_score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> Future:
        return self.submit_call(lambda b: b.score_batch([(prompt, list(candidates))], end_marker=end_marker)[0])

    def submit_call(self, fn: Callable[[Any], Any]) -> Future:
        fut = _Job()
        with self._lock:
            if self._closed:
                raise RuntimeError("model worker is closed")
            if self._pending >= self.max_queue:
                self.rejected += 1
                raise QueueFull(f"model queue full ({self.max_queue} pending jobs)")
            self._pending += 1
            self._waiting.add(fut)
        self._pool.submit(self._run, fn, fut)
        return fut

    def _run(self, fn: Callable[[Any], Any], fut: _Job) -> None:
        t0 = time.perf_counter()
        try:
            if not fut.set_running_or_notify_cancel():
                return
            try:
                with stopping.stop_when(lambda: fut.stop_requested):
                    result = fn(self.backend)
                fut.set_result(result)
            except BaseException as e:  # noqa: BLE001 - handed to the waiting request
                fut.set_exception(e)
        finally:
            with self._lock:
                self._pending -= 1
                self._waiting.discard(fut)
                self.jobs += 1
                self.batches += 1
                self.busy_seconds += time.perf_counter() - t0

    def queued(self) -> int:
        with self._lock:
            return self._pending

    def close(self, timeout: float | None = 5.0) -> None:
        with self._lock:
            self._closed = True
            waiting = list(self._waiting)
        self._pool.shutdown(wait=False, cancel_futures=True)
        for fut in waiting:
            fut.cancel()
        self.backend.close()  # the endpoint's connections and cache
