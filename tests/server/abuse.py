"""Attack helpers shared by the abuse tests and `benchmarks/load_test.py --silent`: calls that
send their headers and never a message, opened from several connections at once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import grpc


class SilentCalls:
    """`n` calls to `method` spread over `connections` channels, each sending its metadata and
    then nothing until `close()`; runs on its own event loop thread (no thread per call)."""

    def __init__(self, address: str, n: int, connections: int = 5, method: str = "/ambit.v1.AmbitService/Canonicalize",
                 metadata: tuple[tuple[str, str], ...] = ()) -> None:
        self.address, self.n, self.connections, self.method, self.metadata = address, n, connections, method, metadata
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.outcomes: list[Any] = []
        self._thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    def __enter__(self) -> "SilentCalls":
        self._thread.start()
        if not self.started.wait(60):
            raise TimeoutError("silent calls not opened within 60 s")
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(30)

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        # distinct options keep grpc from sharing one subchannel (one connection) between them
        channels = [grpc.aio.insecure_channel(self.address, options=[("ambit.attack.connection", i)])
                    for i in range(self.connections)]

        async def never() -> Any:
            await self._stop.wait()
            if False:  # an async generator that yields nothing
                yield b""

        calls = [channels[i % self.connections].stream_unary(self.method)(never(), metadata=self.metadata)
                 for i in range(self.n)]
        for ch in channels:
            await ch.channel_ready()
        await asyncio.sleep(0.5)  # the headers are on their way
        self.started.set()
        await self._stop.wait()
        for c in calls:
            c.cancel()
        self.outcomes = await asyncio.gather(*(c.code() for c in calls), return_exceptions=True)
        for ch in channels:
            await ch.close()


def pigeonhole(holes: int) -> tuple[list[str], str]:
    """A hard entailment in folio: `holes + 1` pigeons in `holes` holes, one pigeon a hole (the
    premises are inconsistent, which a connection prover finds only after an exponential
    search, and the Herbrand/SAT stage by DPLL, exponential too: 7 holes take about 0.5 s on a
    2-core machine, 8 about 3 s, 10 far more than any budget)."""
    pigeons = [f"p{i}" for i in range(holes + 1)]
    hs = [f"h{j}" for j in range(holes)]
    premises = [" ∨ ".join(f"In({p},{h})" for h in hs) for p in pigeons]
    premises += [f"¬(In({a},{h}) ∧ In({b},{h}))" for h in hs
                 for i, a in enumerate(pigeons) for b in pigeons[i + 1:]]
    return premises, "Q(c)"


def die(items: list) -> list:
    """A pool task that kills its worker process, every time (a chunk that crashes Prolog)."""
    import os

    os._exit(9)
