"""Open a :class:`Client` on ``--server`` addresses (default port 50051), or on a server started
in-process when none is given; ``lazy`` (``ambit eval``) starts it on the first call that needs it,
so a rerun with nothing left to do never loads the weights (:func:`known_facts`)."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any

from ambit.client.api import Client
from ambit.client.credentials import ClientSecurity

DEFAULT_PORT = 50051  # ambit serve's default --port


def with_default_port(servers: str) -> str:
    """``servers`` with ``:50051`` added to every address that names no port (``::1`` →
    ``[::1]:50051``); targets with a scheme (``dns:///...``, ``unix:...``) are left as given."""
    def with_port(addr: str) -> str:
        if not addr or ":/" in addr or addr.startswith("unix:"):
            return addr
        if addr.startswith("["):
            return addr if "]:" in addr else f"{addr}:{DEFAULT_PORT}"
        if addr.count(":") > 1:  # a bare IPv6 address
            return f"[{addr}]:{DEFAULT_PORT}"
        return addr if ":" in addr else f"{addr}:{DEFAULT_PORT}"
    return ",".join(with_port(a.strip()) for a in servers.split(","))


@contextlib.contextmanager
def connect(servers: str | None, model: str | None = None, timeout: float | None = 600.0,
            quiet: bool = False, security: ClientSecurity | None = None, remote=None,
            dtype: str | None = None, lazy: bool = False) -> Iterator[Any]:
    """Yield a client; an embedded server (loopback, needing no ``security``) is stopped on exit.
    ``remote``, ``dtype``: the embedded server's. With ``lazy`` a local model's server starts on its
    first call; an ``openai:`` model's at once (a bad key should fail before any work)."""
    if servers and dtype:
        raise ValueError(f"--dtype {dtype} applies to the embedded server; start a running server "
                         "with ambit serve --dtype instead")
    if servers:
        with Client(with_default_port(servers), timeout=timeout, security=security) as client:
            yield client
        return
    embedded = LazyEmbedded(model, timeout, quiet, remote, dtype)
    try:
        if not lazy or remote is not None or _is_remote(model):
            embedded.start()
        yield embedded.client if embedded.started else embedded
    finally:
        embedded.close()


def require_model(servers: str | None, model: str | None, instead: str | None = None) -> None:
    """Without `--server`: MissingExtra for the first extra the embedded model lacks."""
    if not servers:
        from ambit import _extras
        from ambit.server.backends import extras_for

        _extras.require(extras_for(model), instead)


def _is_remote(model: str | None) -> bool:
    from ambit.server.remote import is_remote

    return is_remote(model)


class LazyEmbedded:
    """A client of an embedded server that starts on the first RPC made through it (until then
    :meth:`facts` reads the model's config); a failed start is raised again by every later call."""

    def __init__(self, model: str | None, timeout: float | None, quiet: bool = False,
                 remote: Any = None, dtype: str | None = None) -> None:
        self.model, self.timeout, self.quiet, self.remote, self.dtype = model, timeout, quiet, remote, dtype
        self.client: Client | None = None
        self._server: Any = None
        self._error: BaseException | None = None
        self._facts: Any = None
        self._lock = threading.Lock()

    @property
    def started(self) -> bool:
        return self.client is not None

    @property
    def servers(self) -> list[str]:
        """The server's address once started; one embedded server in any case (``--workers``' default)."""
        return self.client.servers if self.client is not None else ["embedded"]

    def facts(self) -> Any:
        """The model's facts (`server.describe_model`), read once without loading the weights."""
        with self._lock:
            if self._facts is None:
                from ambit.server import describe_model

                self._facts = describe_model(self.model)
            return self._facts

    def start(self) -> Client:
        """The client of the started server (started now if it is not yet)."""
        with self._lock:
            if self.client is not None:
                return self.client
            if self._error is not None:
                raise self._error
            from ambit import server  # heavy imports (torch, the model) only when embedding
            if not self.quiet:
                from ambit.server.remote.spec import redact  # credentials in an openai: URL are never shown
                print(f"starting embedded server (model: {redact(self.model or 'default')}"
                      f"{f', dtype: {self.dtype}' if self.dtype else ''}) ...", file=sys.stderr, flush=True)
            try:
                self._server = server.serve(model=self.model, port=0, remote=self.remote, dtype=self.dtype)
            except Exception as err:  # a model that cannot load fails every later call the same way
                self._error = err
                raise
            self.client = Client(f"127.0.0.1:{self._server.port}", timeout=self.timeout)
            return self.client

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.start(), name)  # an RPC: the server starts on the first one

    def close(self) -> None:
        """Close the client and stop the server, if they were started."""
        if self.client is not None:
            self.client.close()
        if self._server is not None:
            self._server.stop(1.0)


def known_facts(client: Any) -> Any:
    """What a lazy embedded client knows of its model without starting it; None for another."""
    return client.facts() if isinstance(client, LazyEmbedded) else None
