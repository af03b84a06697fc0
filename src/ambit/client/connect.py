"""Open a :class:`Client` on ``--server`` addresses, or on a server started in-process
(``server.serve(model=..., port=0)``) when no address is given. An address without a port
dials the server's default port, 50051 (``ambit serve``'s default)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from ambit.client.api import Client
from ambit.client.credentials import ClientSecurity

DEFAULT_PORT = 50051  # ambit serve's default --port


def with_default_port(servers: str) -> str:
    """``servers`` (``host[:port][,host[:port]...]``) with ``:50051`` added to every address
    that names no port: ``localhost`` → ``localhost:50051``, ``::1`` or ``[::1]`` →
    ``[::1]:50051``. Targets with a scheme (``dns:///...``, ``unix:...``) are left as given."""
    out = []
    for addr in (a.strip() for a in servers.split(",")):
        if not addr or ":/" in addr or addr.startswith("unix:"):
            out.append(addr)
        elif addr.startswith("["):
            out.append(addr if "]:" in addr else f"{addr}:{DEFAULT_PORT}")
        elif addr.count(":") > 1:  # a bare IPv6 address
            out.append(f"[{addr}]:{DEFAULT_PORT}")
        elif ":" not in addr:
            out.append(f"{addr}:{DEFAULT_PORT}")
        else:
            out.append(addr)
    return ",".join(out)


@contextlib.contextmanager
def connect(servers: str | None, model: str | None = None, timeout: float | None = 600.0,
            quiet: bool = False, security: ClientSecurity | None = None, remote=None,
            dtype: str | None = None) -> Iterator[Client]:
    """Yield a client; an embedded server (private port, default model) is stopped on exit.
    ``security`` (TLS files, token) applies to ``servers``; the embedded server is loopback
    plaintext and needs none. ``remote``: `server.remote.RemoteOptions` of an embedded server whose
    model is ``openai:<MODEL>@<BASE_URL>``. ``dtype`` is the embedded server's (running servers
    have their own)."""
    if servers and dtype:
        raise ValueError(f"--dtype {dtype} applies to the embedded server; start a running server "
                         "with ambit serve --dtype instead")
    if servers:
        with Client(with_default_port(servers), timeout=timeout, security=security) as client:
            yield client
        return
    from ambit import server  # the server package: heavy imports (torch, model) only when embedding
    if not quiet:
        from ambit.server.remote.spec import redact  # credentials in an openai: URL are never shown
        print(f"starting embedded server (model: {redact(model or 'default')}"
              f"{f', dtype: {dtype}' if dtype else ''}) ...", file=sys.stderr, flush=True)
    srv = server.serve(model=model, port=0, remote=remote, dtype=dtype)
    try:
        with Client(f"127.0.0.1:{srv.port}", timeout=timeout) as client:
            yield client
    finally:
        srv.stop(1.0)
