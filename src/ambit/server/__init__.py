"""ambit's gRPC server: `ambit serve`, or in-process `server.serve(...) -> RunningServer`. The app
is loaded lazily, so importing `server.lm` (which has no grpc imports) does not pull in grpc."""

from __future__ import annotations

from typing import Any

__all__ = ["serve", "start", "ServeConfig", "RunningServer"]


class StartupFailed(RuntimeError):
    """The server could not load its model or start Prolog; the message is one line saying why."""


def describe_model(spec: str | None) -> Any:
    """A server of `spec`'s `ModelFacts`, without loading weights (StartupFailed as the server)."""
    from ambit.server.lm.loading import ModelLoadError, describe_model as describe

    try:
        return describe(spec)
    except ModelLoadError as err:
        raise StartupFailed(f"server startup failed: {err}") from None


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ambit.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'ambit.server' has no attribute {name!r}")
