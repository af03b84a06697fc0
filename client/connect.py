"""Open a :class:`Client` on ``--server`` addresses, or on a server started in-process
(``server.serve(model=..., port=0)``) when no address is given."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from client.api import Client


@contextlib.contextmanager
def connect(servers: str | None, model: str | None = None, timeout: float | None = 600.0,
            quiet: bool = False) -> Iterator[Client]:
    """Yield a client; an embedded server (private port, default model) is stopped on exit."""
    if servers:
        with Client(servers, timeout=timeout) as client:
            yield client
        return
    import server  # the server package: heavy imports (torch, model) only when embedding
    if not quiet:
        print(f"starting embedded server (model: {model or 'default'}) ...", file=sys.stderr, flush=True)
    srv = server.serve(model=model, port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}", timeout=timeout) as client:
            yield client
    finally:
        srv.stop(1.0)
