"""ambit's gRPC server: `ambit serve`, or in-process `server.serve(...) -> RunningServer` (the same
as `server.start(server.ServeConfig(...))`).

`server.lm` (the language model: loading, scorer, decoder) has no grpc imports; `serve`, `start`,
`ServeConfig` and `RunningServer` are loaded lazily so importing the model does not pull in grpc.
"""

from __future__ import annotations

from typing import Any

__all__ = ["serve", "start", "ServeConfig", "RunningServer"]


class StartupFailed(RuntimeError):
    """The server could not load its model or start Prolog: the message is one line saying why
    (`RunningServer.wait_ready`; `serve(wait=True)` raises it)."""


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ambit.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'ambit.server' has no attribute {name!r}")
