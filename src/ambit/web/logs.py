"""Repeated log lines counted, not written: a flood of failing requests is a few lines a minute,
never a line each."""

from __future__ import annotations

import logging
import threading
import time


class RepeatFilter(logging.Filter):
    """Passes the first record of a kind in every `every_s` seconds, with the count dropped."""

    def __init__(self, every_s: float = 10.0, max_kinds: int = 1000) -> None:
        super().__init__()
        self.every_s = every_s
        self.max_kinds = max_kinds
        self._lock = threading.Lock()
        self._seen: dict[tuple, list] = {}  # kind -> [time last written, dropped since]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, record.levelno, str(record.msg)[:200])
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(kind)
            if seen is not None and now - seen[0] < self.every_s:
                seen[1] += 1
                return False
            dropped = seen[1] if seen is not None else 0
            if len(self._seen) >= self.max_kinds:  # forget the oldest kinds
                for key in sorted(self._seen, key=lambda k: self._seen[k][0])[: self.max_kinds // 2]:
                    del self._seen[key]
            self._seen[kind] = [now, 0]
        if dropped:
            record.msg = f"{record.msg} [and {dropped} more like it in the last {now - seen[0]:.0f} s]"
        if record.exc_info and seen is not None:
            record.exc_info, record.exc_text = None, None  # a repeat's traceback was written before
        return True


def install(every_s: float, logger: logging.Logger | None = None) -> RepeatFilter:
    """Put one RepeatFilter on every handler of `logger` (default: the root logger)."""
    f = RepeatFilter(every_s)
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(f)
    return f
