"""ambit's gRPC server: `ambit serve`, or in-process `server.serve(...) -> RunningServer`.

`server.engine` (model loading, scorer, decoder) has no grpc imports; `serve` and
`RunningServer` are loaded lazily so importing the engine does not pull in grpc.
"""

from __future__ import annotations

from typing import Any

__all__ = ["serve", "RunningServer"]


class StartupFailed(RuntimeError):
    """The server could not load its model or start Prolog: the message is one line saying why
    (`RunningServer.wait_ready`; `serve(wait=True)` raises it)."""


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ambit.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'ambit.server' has no attribute {name!r}")
