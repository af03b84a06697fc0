"""An asyncio event loop on its own thread, for the `grpc.aio` server: RPCs wait for their messages
here, so a call that sends headers but no message holds no thread (a sync `grpc.server` would)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Awaitable, Callable


class LoopThread:
    """A running event loop on a daemon thread; `call` runs a coroutine there and waits."""

    def __init__(self, name: str = "ambit-aio") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def call(self, make: Callable[[], Awaitable[Any]], timeout: float | None = None) -> Any:
        """Await `make()` on the loop (made there, so that it binds to this loop); its result."""

        async def run() -> Any:
            return await make()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and its thread (after the server on it has stopped)."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5.0)
