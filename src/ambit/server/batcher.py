"""The one place the model runs: a thread that owns the backend, batches scoring jobs arriving
within `max_wait_s`, runs decoding alone, and refuses jobs past `max_queue` (`QueueFull`)."""

from __future__ import annotations

import collections
import logging
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

log = logging.getLogger("ambit.server.batcher")


class Worker(Protocol):
    """A model worker (`server.backends.worker_for`): it owns the backend and closes it."""

    backend: Any  # a server.model.ModelBackend
    max_batch: int
    batches: int
    jobs: int
    rejected: int
    busy_seconds: float

    def submit_score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> Future: ...
    def submit_call(self, fn: Callable[[Any], Any]) -> Future: ...
    def queued(self) -> int: ...
    def close(self, timeout: float | None = 5.0) -> None: ...


class QueueFull(RuntimeError):
    """More pending model jobs than the queue allows."""


@dataclass
class _ScoreJob:
    prompt: str
    candidates: list[str]
    end_marker: bool
    future: Future = field(default_factory=Future)


@dataclass
class _CallJob:
    fn: Callable[[Any], Any]  # called with the backend on the model thread
    future: Future = field(default_factory=Future)


class ModelWorker:
    """Owns `backend` (a server.model.ModelBackend) on one thread."""

    def __init__(self, backend: Any, max_batch: int = 16, max_wait_s: float = 0.005, max_queue: int = 256) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self.backend, self.max_batch = backend, max_batch
        self.max_wait_s, self.max_queue = max_wait_s, max_queue
        self._pending: collections.deque = collections.deque()
        self._cond = threading.Condition()
        self._closed = False
        self.batches = self.jobs = self.rejected = 0
        self.busy_seconds = 0.0
        self._thread = threading.Thread(target=self._loop, name="ambit-model", daemon=True)
        self._thread.start()

    def submit_score(self, prompt: str, candidates: list[str], end_marker: bool = False) -> Future:
        return self._put(_ScoreJob(prompt, list(candidates), end_marker))

    def submit_call(self, fn: Callable[[Any], Any]) -> Future:
        """Run `fn(backend)` alone on the model thread (decoding)."""
        return self._put(_CallJob(fn))

    def _put(self, job) -> Future:
        with self._cond:
            if self._closed:
                raise RuntimeError("model worker is closed")
            if len(self._pending) >= self.max_queue:
                self.rejected += 1
                raise QueueFull(f"model queue full ({self.max_queue} pending jobs)")
            self._pending.append(job)
            self._cond.notify()
        return job.future

    def queued(self) -> int:
        with self._cond:
            return len(self._pending)

    def close(self, timeout: float | None = 5.0) -> None:
        with self._cond:
            self._closed = True
            for job in self._pending:
                job.future.cancel()
            self._pending.clear()
            self._cond.notify_all()
        self._thread.join(timeout)
        self.backend.close()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                first = self._pending.popleft()
            if isinstance(first, _CallJob):
                t0 = time.perf_counter()
                self._run_call(first)
            else:
                batch = self._collect(first)
                t0 = time.perf_counter()
                self._run_scores(batch)
            self.busy_seconds += time.perf_counter() - t0

    def _collect(self, first: _ScoreJob) -> list[_ScoreJob]:
        """`first` plus scoring jobs with the same end_marker arriving within max_wait_s."""
        batch = [first]
        deadline = time.monotonic() + self.max_wait_s
        with self._cond:
            while len(batch) < self.max_batch:
                same = [j for j in self._pending
                        if isinstance(j, _ScoreJob) and j.end_marker == first.end_marker]
                for job in same[: self.max_batch - len(batch)]:
                    self._pending.remove(job)
                    batch.append(job)
                left = deadline - time.monotonic()
                if len(batch) >= self.max_batch or left <= 0 or self._closed:
                    break
                if not same:
                    self._cond.wait(left)
        return batch

    def _run_call(self, job: _CallJob) -> None:
        if not job.future.set_running_or_notify_cancel():
            return
        self.jobs += 1
        try:
            job.future.set_result(job.fn(self.backend))
        except BaseException as e:  # noqa: BLE001 - handed to the waiting request
            job.future.set_exception(e)

    def _run_scores(self, batch: list[_ScoreJob]) -> None:
        live = [j for j in batch if j.future.set_running_or_notify_cancel()]
        if not live:
            return
        self.batches += 1
        self.jobs += len(live)
        try:
            results = self.backend.score_batch([(j.prompt, j.candidates) for j in live], end_marker=live[0].end_marker)
            if len(results) != len(live):
                raise RuntimeError(f"score_batch returned {len(results)} results for {len(live)} jobs")
        except Exception as e:  # noqa: BLE001 - isolate the job that fails
            if len(live) == 1:
                live[0].future.set_exception(e)
                return
            log.warning("batch of %d failed; rescoring one by one", len(live), exc_info=True)
            for j in live:
                try:
                    alone = self.backend.score_batch([(j.prompt, j.candidates)], end_marker=j.end_marker)
                    j.future.set_result(alone[0])
                except Exception as e:  # noqa: BLE001
                    j.future.set_exception(e)
            return
        for j, r in zip(live, results):
            j.future.set_result(r)

