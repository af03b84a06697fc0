"""`ambit serve --http PORT`: the web application, served beside the gRPC server.

By default (`ambit serve --http`) the page is served by a process of its own (`web.process`),
started and watched by the server: it has its own service core and Prolog for the logic pages,
runs at a lower CPU priority (`--http-nice`) on CPUs of its own (`--http-cpus`), and reaches the gRPC server over a Unix socket in a
private folder for what needs the model (`web.upstream`). Whatever is sent to the web port then
costs that process's memory, descriptors, threads and event loop, never the gRPC server's
(docs/web.md#why-a-process-of-its-own). `--http-in-process` (and `start`, for an embedding or a
test) serves it on a thread of the server's own process instead, on the server's own core.

Safe by default, like the gRPC port and stricter: it binds `--host` (loopback unless told), and a
non-loopback address is refused unless the server has TLS (`--tls-cert`/`--tls-key`, which the
HTTP port serves too) and a token file (`--auth-token-file`); `--insecure` does not lift this for
the web port, since a browser page is what cross-site attacks aim at. The socket is bound here,
before the gRPC server starts, so a port in use is one line, and `--http 0` picks a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import logging
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

import uvicorn

from ambit.web.app import make_app
from ambit.web.guard import loopback_hosts
from ambit.web.limits import WebLimits
from ambit.web.protocol import uvicorn_options
from ambit.web.runs import Runs

log = logging.getLogger("ambit.web")

DEFAULT_NICE = 10  # the web process's CPU priority below the gRPC server's
RESTART_DELAY_S = 1.0  # before a web process that died is started again


class WebConfigError(ValueError):
    """The web port cannot be served as asked (one line, for `ambit serve` to print)."""


@dataclass
class WebServer:
    """A started web server (on a thread of this process): `url`, `stop()`."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str
    app: Any = None

    def stop(self, timeout: float = 5.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        for part in (getattr(self.app, "api", None), getattr(self.app, "runs", None)):
            if part is not None:
                part.close()

    def reload(self) -> None:
        """Tokens are the server's own store here: nothing to do."""


def is_loopback(host: str) -> bool:
    name = host.strip("[]")
    if name.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def limits_of(args: argparse.Namespace) -> WebLimits:
    """The web port's bounds from the command line (defaults for an embedding's Namespace)."""
    d = WebLimits()
    return WebLimits(
        max_connections=getattr(args, "http_max_connections", None) or d.max_connections,
        request_timeout_s=getattr(args, "http_timeout", None) or d.request_timeout_s,
        keepalive_s=getattr(args, "http_keepalive", None) or d.keepalive_s,
        max_body_bytes_in_flight=getattr(args, "http_max_body_bytes", None) or d.max_body_bytes_in_flight,
    )


@dataclass
class PreparedWeb:
    """The web port, checked and bound, before the gRPC server starts: `launch(running)` serves it."""

    args: argparse.Namespace
    sock: socket.socket
    runs: Runs | None
    private: str | None = None  # the folder of the gRPC server's socket for the web process

    @property
    def url(self) -> str:
        host, port = self.args.host, self.sock.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
        return f"{'https' if self.args.tls_cert else 'http'}://{shown}:{port}/"

    @property
    def in_process(self) -> bool:
        return bool(getattr(self.args, "http_in_process", False))

    @property
    def upstream_socket(self) -> str | None:
        """The Unix socket the gRPC server must also listen on for the web process (None in process)."""
        if self.in_process:
            return None
        if self.private is None:
            self.private = tempfile.mkdtemp(prefix="ambit-web-")  # mode 0700: this user only
        return os.path.join(self.private, "grpc.sock")

    def launch(self, running: Any) -> "WebServer | WebProcess":
        """Serve the page for `running` (a `server.app.RunningServer`): in a process of its own,
        or on a thread of this one with `--http-in-process`."""
        if self.in_process:
            return self.start(running)
        proc = WebProcess(self, self.upstream_socket or "")
        proc.start()
        return proc

    def start(self, running: Any) -> WebServer:
        """Serve the web application for `running` (its service core and token store) on a
        thread of this process, on the bound socket."""
        host, port = self.args.host, self.sock.getsockname()[1]
        hosts = loopback_hosts(port, host) if is_loopback(host) else None
        limits = limits_of(self.args)
        app = make_app(running.core, self.runs, running.tokens, hosts, limits=limits)
        server = uvicorn.Server(config(app, self.args, limits))
        thread = threading.Thread(target=_run, args=(server, self.sock), name="ambit-web", daemon=True)
        thread.start()
        return WebServer(server, thread, self.url, app)


def config(app: Any, args: argparse.Namespace, limits: WebLimits) -> uvicorn.Config:
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5,
                          server_header=False, **uvicorn_options(limits), **_tls_options(args))


class WebProcess:
    """The web page's own process (`python -m ambit.web`), serving the bound socket it inherits;
    started again if it dies; stopped with the server. Its settings go on its stdin, which it
    holds open: when this process ends, however it ends, the web process sees the end of its
    stdin and stops."""

    def __init__(self, prepared: PreparedWeb, upstream: str) -> None:
        self.prepared = prepared
        self.url = prepared.url
        self.upstream = upstream
        self.proc: subprocess.Popen | None = None
        self._stopping = threading.Event()
        self._watch: threading.Thread | None = None

    def settings(self) -> dict:
        a = self.prepared.args
        limits = limits_of(a)
        return {
            "fd": self.prepared.sock.fileno(), "host": a.host, "upstream": f"unix:{self.upstream}",
            "runs": list(getattr(a, "runs", []) or []), "tls_cert": a.tls_cert, "tls_key": a.tls_key,
            "tls_client_ca": a.tls_client_ca, "auth_token_file": a.auth_token_file,
            "log_level": getattr(a, "log_level", "INFO"), "nice": getattr(a, "http_nice", DEFAULT_NICE),
            "cpus": web_cpus(getattr(a, "http_cpus", None)),
            "prolog_seconds": getattr(a, "prolog_seconds", None), "prolog_slice": getattr(a, "prolog_slice", None),
            "prover": getattr(a, "prover", "prolog"), "workers": getattr(a, "workers", 64),
            "max_queue": getattr(a, "max_queue", None), "max_calls_per_peer": getattr(a, "max_calls_per_peer", None),
            "limits": limits.__dict__,
        }

    def start(self) -> None:
        self._spawn()
        self._watch = threading.Thread(target=self._keep, name="ambit-web-watch", daemon=True)
        self._watch.start()

    def _spawn(self) -> None:
        fd = self.prepared.sock.fileno()
        self.proc = subprocess.Popen([sys.executable, "-m", "ambit.web"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     pass_fds=(fd,), close_fds=True, start_new_session=True)
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(self.settings()) + "\n").encode())
        self.proc.stdin.flush()

    def _keep(self) -> None:
        """Start the web process again when it dies (not when it was told to stop)."""
        while not self._stopping.is_set():
            proc = self.proc
            if proc is None:
                return
            code = proc.wait()
            if self._stopping.is_set():
                return
            log.error("the web process ended (exit %s); starting it again in %g s", code, RESTART_DELAY_S)
            _close(proc)
            if self._stopping.wait(RESTART_DELAY_S):
                return
            self._spawn()

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def reload(self) -> None:
        """Re-read the token file there too (SIGHUP)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGHUP)

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        proc = self.proc
        if proc is not None:
            _close(proc)  # the end of its stdin: it stops serving and exits
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)
        self.prepared.sock.close()
        if self.prepared.private is not None:
            shutil.rmtree(self.prepared.private, ignore_errors=True)


def web_cpus(n: int | None) -> list[int]:
    """The CPUs the web process runs on: the last `n` of this process's (None: one of two to four,
    a quarter of more; 0, or a single CPU: no pinning, an empty list)."""
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return []
    if n is None:
        n = 1 if len(allowed) <= 4 else len(allowed) // 4
    if n <= 0 or len(allowed) < 2 or n >= len(allowed):
        return []
    return allowed[-n:]


def _close(proc: subprocess.Popen) -> None:
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass


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
    """`prepare(args)`, then serve on a thread of this process for `running` (an embedding, a test)."""
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
        sock.listen(1024)
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
