"""`ambit serve --http PORT`: the web application in the gRPC server's own process, on its service
core, served by uvicorn on a thread of its own.

Safe by default, like the gRPC port and stricter: it binds `--host` (loopback unless told), and a
non-loopback address is refused unless the server has TLS (`--tls-cert`/`--tls-key`, which the
HTTP port serves too) and a token file (`--auth-token-file`); `--insecure` does not lift this for
the web port, since a browser page is what cross-site attacks aim at. The socket is bound here,
before uvicorn starts, so a port in use is one line, and `--http 0` picks a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import socket
import ssl
import threading
from dataclasses import dataclass
from typing import Any

import uvicorn

from ambit.web.app import make_app
from ambit.web.guard import loopback_hosts
from ambit.web.runs import Runs


class WebConfigError(ValueError):
    """The web port cannot be served as asked (one line, for `ambit serve` to print)."""


@dataclass
class WebServer:
    """A started web server: `url`, `stop()`."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str

    def stop(self, timeout: float = 5.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)


def is_loopback(host: str) -> bool:
    name = host.strip("[]")
    if name.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass
class PreparedWeb:
    """The web port, checked and bound, before the gRPC server starts: `start(running)` serves it."""

    args: argparse.Namespace
    sock: socket.socket
    runs: Runs | None

    def start(self, running: Any) -> WebServer:
        """Serve the web application for `running` (a `server.app.RunningServer`: its service core
        and token store) on the bound socket."""
        host, port = self.args.host, self.sock.getsockname()[1]
        hosts = loopback_hosts(port, host) if is_loopback(host) else None
        app = make_app(running.core, self.runs, running.tokens, hosts)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=5, server_header=False, **_tls_options(self.args))
        server = uvicorn.Server(config)
        thread = threading.Thread(target=_run, args=(server, self.sock), name="ambit-web", daemon=True)
        thread.start()
        shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
        return WebServer(server, thread, f"{'https' if self.args.tls_cert else 'http'}://{shown}:{port}/")


def prepare(args: argparse.Namespace) -> PreparedWeb:
    """Check the web options (the bind rule, the --runs folders) and bind `args.host`:`args.http`;
    WebConfigError (one line) when they cannot be served."""
    host, tls = args.host, args.tls_cert is not None
    if not is_loopback(host) and not (tls and args.auth_token_file is not None):
        raise WebConfigError(f"--http: refusing to serve the web pages on {host} (not a loopback address) "
                             "without TLS and a token: add --tls-cert FILE --tls-key FILE and --auth-token-file FILE")
    runs = Runs(args.runs) if args.runs else None
    return PreparedWeb(args, _bind(host, args.http), runs)


def start(running: Any, args: argparse.Namespace) -> WebServer:
    """`prepare(args)`, then serve for `running` (an embedding, a test)."""
    return prepare(args).start(running)


def _run(server: uvicorn.Server, sock: socket.socket) -> None:
    asyncio.run(server.serve(sockets=[sock]))


def _bind(host: str, port: int) -> socket.socket:
    name = host.strip("[]")
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as e:
        raise WebConfigError(f"--http: cannot listen on {host}:{port}: {e.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise WebConfigError(f"--http: cannot listen on {host}:{port}: {e.strerror}") from None
    return sock


def _tls_options(args: argparse.Namespace) -> dict:
    if args.tls_cert is None:
        return {}
    out: dict = {"ssl_certfile": args.tls_cert, "ssl_keyfile": args.tls_key}
    if args.tls_client_ca:
        out.update(ssl_ca_certs=args.tls_client_ca, ssl_cert_reqs=ssl.CERT_REQUIRED)
    return out
