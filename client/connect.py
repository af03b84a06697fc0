"""Open a :class:`Client` on ``--server`` addresses, or on a server started in-process
(``server.serve(model=..., port=0)``) when no address is given."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from client.api import Client
from client.credentials import ClientSecurity


@contextlib.contextmanager
def connect(servers: str | None, model: str | None = None, timeout: float | None = 600.0,
            quiet: bool = False, security: ClientSecurity | None = None) -> Iterator[Client]:
    """Yield a client; an embedded server (private port, default model) is stopped on exit.
    ``security`` (TLS files, token) applies to ``servers``; the embedded server is loopback
    plaintext and needs none."""
    if servers:
        with Client(servers, timeout=timeout, security=security) as client:
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
