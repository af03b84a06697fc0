"""Progress reporting: a tqdm bar (rate, ETA) on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Count finished items; ``update()`` after each one, ``close()`` at the end."""

    def __init__(self, total: int, desc: str, done: int = 0, stream: TextIO | None = None,
                 every_s: float = 10.0, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.total, self.desc, self.n, self.start_n = total, desc, done, done
        self.every_s = every_s
        self.t0 = self._last = time.monotonic()
        use_tty = self.stream.isatty() if tty is None else tty
        self._bar = None
        if use_tty:
            from tqdm import tqdm
            self._bar = tqdm(total=total, initial=done, desc=desc, file=self.stream,
                             unit="item", dynamic_ncols=True)
        elif done:
            self._line(f"resuming: {done}/{total} already done")

    def _line(self, text: str) -> None:
        print(f"[{self.desc}] {text}", file=self.stream, flush=True)

    def update(self, n: int = 1) -> None:
        self.n += n
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.monotonic()
        if now - self._last >= self.every_s or self.n >= self.total:
            self._last = now
            self._line(self.status())

    def status(self) -> str:
        elapsed = time.monotonic() - self.t0
        fresh = self.n - self.start_n
        rate = fresh / elapsed if elapsed > 0 else 0.0
        left = self.total - self.n
        eta = f"{left / rate:.0f}s" if rate > 0 else "?"
        return f"{self.n}/{self.total} items, {rate:.2f} items/s, elapsed {elapsed:.0f}s, ETA {eta}"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        else:
            self._line("done: " + self.status())
