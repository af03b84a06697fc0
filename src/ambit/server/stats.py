"""Per-method request counters and the one-line-per-request log (no gRPC import: a status code is
read by its `name`, so the gRPC-free service core holds them)."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("ambit.server.rpc")


@dataclass
class MethodCounter:
    requests: int = 0
    errors: int = 0
    total_seconds: float = 0.0


class Stats:
    """Thread-safe counters; `record` also writes the request's log line."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._methods: dict[str, MethodCounter] = {}
        self.batch_items = 0

    def record(self, method: str, code: Any, seconds: float, request_id: str = "", items: int = 0) -> None:
        with self._lock:
            c = self._methods.setdefault(method, MethodCounter())
            c.requests += 1
            c.errors += code.name != "OK"
            c.total_seconds += seconds
            self.batch_items += items
        level = logging.ERROR if code.name == "INTERNAL" else logging.INFO
        log.log(level, "rpc method=%s code=%s latency_ms=%.2f request_id=%s%s", method, code.name,
                seconds * 1000, request_id or "-", f" items={items}" if items else "")

    def snapshot(self) -> dict[str, MethodCounter]:
        with self._lock:
            return {k: MethodCounter(v.requests, v.errors, v.total_seconds) for k, v in self._methods.items()}

    def uptime(self) -> float:
        return time.monotonic() - self.started
