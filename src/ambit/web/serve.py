"""`ambit serve --http PORT`: the web application, served beside the gRPC server.

By default a process of its own (`web.process`) serves the page, so what is sent to the web port
costs its resources, never the gRPC server's (docs/web.md#why-a-process-of-its-own);
`--http-in-process` (and `start`) serves it on a thread. A non-loopback bind needs TLS and a token
file, `--insecure` or not (browser pages are what cross-site attacks aim at). The socket is bound
before the gRPC server starts, so a port in use is one line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
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

from ambit._net import is_loopback
from ambit.server.guard.limits import DEFAULT_CALLS_PER_PEER, DEFAULT_PROLOG_SLICE_S, Limits
from ambit.server.service import DEFAULT_PROLOG_SECONDS
from ambit.server.service.deadline import DEFAULT_SLOTS
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


@dataclass(frozen=True)
class WebConfig:
    """The web port's settings from `ambit serve`'s options (JSON on the web process's stdin)."""

    host: str = "127.0.0.1"
    port: int = 0  # --http (0: a free port)
    runs: tuple[str, ...] = ()  # the runs viewer's folders
    tls_cert: str | None = None  # the server's TLS and token file, which the web port serves too
    tls_key: str | None = None
    tls_client_ca: str | None = None
    auth_token_file: str | None = None
    in_process: bool = False  # on a thread of the server instead of a process of its own
    nice: int = DEFAULT_NICE
    cpus: int | None = None  # the web process's CPUs (None: one of two to four, a quarter of more; 0: any)
    limits: WebLimits = WebLimits()
    log_level: str = "INFO"
    # the server's own settings, for the web process's service core
    prolog_seconds: float = DEFAULT_PROLOG_SECONDS
    prolog_slice: float = DEFAULT_PROLOG_SLICE_S
    prover: str = "prolog"
    workers: int = DEFAULT_SLOTS
    max_queue: int = Limits.max_queue
    max_calls_per_peer: int = DEFAULT_CALLS_PER_PEER

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> WebConfig:
        """The settings of `ambit serve --http` (`server.__main__.parse_args`)."""
        d = WebLimits()
        limits = WebLimits(max_connections=args.http_max_connections or d.max_connections,
                           request_timeout_s=args.http_timeout or d.request_timeout_s,
                           keepalive_s=args.http_keepalive or d.keepalive_s,
                           max_body_bytes_in_flight=args.http_max_body_bytes or d.max_body_bytes_in_flight)
        return cls(host=args.host, port=args.http, runs=tuple(args.runs), tls_cert=args.tls_cert, tls_key=args.tls_key,
                   tls_client_ca=args.tls_client_ca, auth_token_file=args.auth_token_file,
                   in_process=args.http_in_process, nice=args.http_nice, cpus=args.http_cpus, limits=limits,
                   log_level=args.log_level, prolog_seconds=args.prolog_seconds, prolog_slice=args.prolog_slice,
                   prover=args.prover, workers=args.workers, max_queue=args.max_queue,
                   max_calls_per_peer=args.max_calls_per_peer)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> WebConfig:
        return cls(**{**d, "runs": tuple(d["runs"]), "limits": WebLimits(**d["limits"])})

    @property
    def tls(self) -> dict:
        """uvicorn's TLS options (none without a certificate)."""
        if self.tls_cert is None:
            return {}
        out: dict = {"ssl_certfile": self.tls_cert, "ssl_keyfile": self.tls_key}
        if self.tls_client_ca:
            out.update(ssl_ca_certs=self.tls_client_ca, ssl_cert_reqs=ssl.CERT_REQUIRED)
        return out


def web_server(core: Any, config: WebConfig, sock: socket.socket, runs: Runs | None, tokens: Any,
               upstream: Any = None) -> uvicorn.Server:
    """The web application over `core` on the bound `sock` (loopback: its own addresses as Host)."""
    host, port = config.host, sock.getsockname()[1]
    hosts = loopback_hosts(port, host) if is_loopback(host) else None
    app = make_app(core, runs, tokens, hosts, upstream, config.limits)
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                         timeout_graceful_shutdown=5, server_header=False,
                                         **uvicorn_options(config.limits), **config.tls))


@dataclass
class WebServer:
    """A started web server (on a thread of this process): `url`, `stop()`."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str

    @property
    def app(self) -> Any:
        return self.server.config.app

    def stop(self, timeout: float = 5.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        for part in (self.app.api, self.app.runs):
            if part is not None:
                part.close()

    def reload(self) -> None:
        """Tokens are the server's own store here: nothing to do."""


@dataclass
class PreparedWeb:
    """The web port, checked and bound, before the gRPC server starts: `launch(running)` serves it."""

    config: WebConfig
    sock: socket.socket
    runs: Runs | None
    private: str | None = None  # the folder of the gRPC server's socket for the web process

    @property
    def url(self) -> str:
        host, port = self.config.host, self.sock.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
        return f"{'https' if self.config.tls_cert else 'http'}://{shown}:{port}/"

    @property
    def upstream_socket(self) -> str | None:
        """The Unix socket the gRPC server must also listen on for the web process (None in process)."""
        if self.config.in_process:
            return None
        if self.private is None:
            self.private = tempfile.mkdtemp(prefix="ambit-web-")  # mode 0700: this user only
        return os.path.join(self.private, "grpc.sock")

    def launch(self, running: Any) -> "WebServer | WebProcess":
        """Serve the page for `running` (a `server.app.RunningServer`): a process, or a thread."""
        if self.config.in_process:
            return self.start(running)
        proc = WebProcess(self, self.upstream_socket or "")
        proc.start()
        return proc

    def start(self, running: Any) -> WebServer:
        """Serve the web application for `running` on a thread of this process."""
        server = web_server(running.core, self.config, self.sock, self.runs, running.tokens)
        thread = threading.Thread(target=_run, args=(server, self.sock), name="ambit-web", daemon=True)
        thread.start()
        return WebServer(server, thread, self.url)


class WebProcess:
    """The web page's own process (`python -m ambit.web`), started again if it dies; its settings
    go on its stdin, whose end, however this process ends, stops it."""

    def __init__(self, prepared: PreparedWeb, upstream: str) -> None:
        self.prepared = prepared
        self.url = prepared.url
        self.upstream = upstream
        self.proc: subprocess.Popen | None = None
        self._stopping = threading.Event()
        self._watch: threading.Thread | None = None

    def settings(self) -> dict:
        """The first line of the web process's stdin: its config, its socket, its CPUs, the upstream."""
        c = self.prepared.config
        return {"config": c.to_json(), "fd": self.prepared.sock.fileno(), "upstream": f"unix:{self.upstream}",
                "cpus": web_cpus(c.cpus)}

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
    """The last `n` of this process's CPUs (None: one of two to four, a quarter of more; [] for 0
    or a single CPU: no pinning)."""
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
    with contextlib.suppress(OSError):
        if proc.stdin is not None:
            proc.stdin.close()


def prepare(config: WebConfig) -> PreparedWeb:
    """Check the bind rule and the --runs folders and bind the port (else a WebConfigError)."""
    host = config.host
    if not is_loopback(host) and not (config.tls_cert is not None and config.auth_token_file is not None):
        raise WebConfigError(f"--http: refusing to serve the web pages on {host} (not a loopback address) "
                             "without TLS and a token: add --tls-cert FILE --tls-key FILE and --auth-token-file FILE")
    runs = Runs(list(config.runs)) if config.runs else None
    return PreparedWeb(config, _bind(host, config.port), runs)


def start(running: Any, config: WebConfig) -> WebServer:
    """`prepare(config)`, then serve on a thread of this process for `running` (an embedding, a test)."""
    return prepare(config).start(running)


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
