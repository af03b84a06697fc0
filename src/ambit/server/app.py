"""Start the gRPC server: service core, servicer and interceptor, health checking, reflection,
model loading, shutdown.

`serve(...)` binds the port at once with health NOT_SERVING, loads the model and starts
Prolog (in the background when `wait=False`), then turns health SERVING. The server is a
`grpc.aio` server on its own event-loop thread (`server.loop`): calls wait for their messages
there, and handlers run on a pool of `workers` threads. `RunningServer.stop` turns health
NOT_SERVING and refuses new calls (UNAVAILABLE) at once, keeps the port open while in-flight
RPCs finish within the grace period, cancels what is left, and stops the model worker.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc
from grpc_health.v1 import _async as aio_health
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ambit.logic.provers.portfolio import PROVERS
from ambit.proto.v1 import ambit_pb2, ambit_pb2_grpc

from ambit.server import StartupFailed
from ambit.server.guard.auth import AuthInterceptor, TokenStore
from ambit.server.guard.interceptor import InFlight, ReadyGate, RpcInterceptor
from ambit.server.guard.limits import DEFAULT_CALLS_PER_PEER, DEFAULT_PROLOG_SLICE_S, Limits
from ambit.server.loop import LoopThread
from ambit.server.backends import check_backend, entry_for, worker_for
from ambit.server.reflection import enable_reflection
from ambit.server.guard.security import ServerSecurity
from ambit.server.service import DEFAULT_PROLOG_SECONDS, AmbitCore, ServiceError
from ambit.server.service.core import start_prolog
from ambit.server.service.deadline import Admission
from ambit.server.servicer import AmbitServicer
from ambit.server.stats import Stats

log = logging.getLogger("ambit.server")

SERVICE_NAME = ambit_pb2.DESCRIPTOR.services_by_name["AmbitService"].full_name
NO_MODEL = "none"  # model spec that means: logic-only server


@dataclass
class RunningServer:
    """A started server: `.port`, `.address`, `.wait_ready()`, `.stop(grace)`."""

    server: grpc.aio.Server
    port: int
    host: str
    core: AmbitCore
    health: aio_health.HealthServicer
    loop: LoopThread
    executor: futures.ThreadPoolExecutor
    serving: threading.Event
    draining: threading.Event
    in_flight: InFlight
    tokens: TokenStore | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    startup_error: BaseException | None = None
    health_mirrors: list = field(default_factory=list)  # sync HealthServicers kept in step (--health-port)
    _stopped: bool = False

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def reload_tokens(self) -> None:
        """Re-read the token file (SIGHUP); a bad file keeps the current tokens and is logged."""
        if self.tokens is None:
            return
        try:
            log.info("token file reloaded: %d token(s)", self.tokens.reload())
        except ValueError as e:
            log.error("token file not reloaded, current tokens kept: %s", e)

    def wait_ready(self, timeout: float | None = None) -> None:
        """Block until the model is loaded and Prolog started; re-raise a startup failure."""
        if not self.ready.wait(timeout):
            raise TimeoutError(f"server {self.address} not ready after {timeout} s")
        if self.startup_error is not None:
            raise StartupFailed(f"server startup failed: {self.startup_reason}") from self.startup_error

    @property
    def startup_reason(self) -> str:
        """The startup failure in words: its message, or its type where it has none."""
        e = self.startup_error
        return "" if e is None else (str(e) or type(e).__name__)

    def set_health(self, status: int) -> None:
        """The same health status for the server as a whole and for AmbitService (and on the
        health port's servicer, when there is one)."""
        _set_health(self.loop, self.health, status)
        for mirror in self.health_mirrors:
            for name in ("", SERVICE_NAME):
                mirror.set(name, status)

    def mirror_health(self, servicer: health.HealthServicer) -> None:
        """Keep `servicer` (a sync HealthServicer of another port) at this server's status."""
        self.health_mirrors.append(servicer)
        up = self.serving.is_set() and not self.draining.is_set()
        status = health_pb2.HealthCheckResponse.SERVING if up else health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME):
            servicer.set(name, status)
        if self.draining.is_set():
            servicer.enter_graceful_shutdown()

    def drain(self) -> None:
        """Health NOT_SERVING (for good) and new AmbitService calls UNAVAILABLE; calls in
        flight go on."""
        self.draining.set()
        self.loop.call(self.health.enter_graceful_shutdown)
        for mirror in self.health_mirrors:
            mirror.enter_graceful_shutdown()

    def stop(self, grace: float | None = 5.0) -> None:
        """Drain: health NOT_SERVING and new calls UNAVAILABLE at once, in-flight RPCs get
        `grace` seconds to finish (then they are cancelled); then stop."""
        if self._stopped:
            return
        self._stopped = True
        t0 = time.monotonic()
        self.drain()
        # the port stays open while calls finish, so probes see NOT_SERVING and new calls
        # get a clear UNAVAILABLE; what still runs when the grace ends is cancelled
        self.in_flight.wait_idle(grace)
        left = None if grace is None else max(0.0, grace - (time.monotonic() - t0))
        self.loop.call(lambda: self.server.stop(left))
        if self.core.worker is not None:
            self.core.worker.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.loop.close()

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self.loop.call(lambda: self.server.wait_for_termination(timeout))


def serve(
    model: str | None = None,
    port: int = 0,
    host: str = "127.0.0.1",
    device: str | None = None,
    dtype: str | None = None,
    workers: int = 64,
    max_batch: int = 16,
    batch_wait_ms: float = 5.0,
    limits: Limits = Limits(),
    prolog_seconds: float = DEFAULT_PROLOG_SECONDS,
    prolog_workers: int = 1,
    backend: Any = None,
    no_model: bool = False,
    wait: bool = True,
    security: ServerSecurity = ServerSecurity(),
    remote: Any = None,
    max_calls_per_peer: int = DEFAULT_CALLS_PER_PEER,
    prolog_slice: float = DEFAULT_PROLOG_SLICE_S,
    prover: str = "prolog",
    local_socket: str | None = None,
) -> RunningServer:
    """Start an ambit server in this process.

    model: a model spec (None: the default model; `server.backends` says which backend serves
    it); `no_model=True` (or model="none") serves the logic RPCs only. `backend`: a loaded
    `server.model.ModelBackend` in place of the spec's. port=0 picks a
    free port (see `.port`). With `wait=True` returns once ready (health SERVING).
    `security`: TLS, mTLS and token options (`server.security`: exposed binds need both).
    `prolog_workers` > 1: batch equivalence and entailment RPCs spread over that many Prolog
    processes (started with the server). `max_calls_per_peer`: calls in flight per client
    connection before RESOURCE_EXHAUSTED (0: no limit). `prolog_slice`: seconds a Prolog call
    runs on the server's own Prolog before it moves to a long-lane process (0: one lane).
    `prover`: full first-order checks by "prolog" alone or by the "portfolio" (Prolog, then E
    and Z3 on what it left UNKNOWN, within the same time limit).
    `local_socket`: also serve, plaintext, on this Unix socket (the web page's own process reaches
    the server there; it lies in a folder only this user can open: docs/web.md).
    `remote`: `server.remote.RemoteOptions` for a model spec `openai:<MODEL>@<BASE_URL>` (API key,
    --max-concurrency, response cache).
    """
    security.validate(host)
    credentials, tokens = security.credentials(), security.token_store()
    no_model = no_model or model == NO_MODEL
    stats = Stats()
    if prover not in PROVERS:
        raise ValueError(f"prover must be one of {', '.join(PROVERS)}, got {prover!r}")
    if not no_model and backend is None:
        entry_for(model)  # UnknownBackend (a ValueError) before anything binds
    # every call waits for one of `workers` slots (its handler thread), at most `max_queue` wait,
    # at most `max_calls_per_peer` per client connection: the same admission the web API uses
    core = AmbitCore(limits, prolog_seconds, prolog_workers, prover,
                     Admission(slots=workers, max_queue=limits.max_queue, per_client=max_calls_per_peer))
    serving, draining, in_flight = threading.Event(), threading.Event(), InFlight()
    loop = LoopThread()
    executor = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ambit-rpc")
    try:
        server, health_servicer = loop.call(lambda: _grpc_server(
            core, stats, executor, limits, tokens, serving, draining, in_flight))
        bound = _bind(server, host, port, credentials)
        if local_socket is not None and server.add_insecure_port(f"unix:{local_socket}") == 0:
            raise BindError(f"cannot listen on the web process's socket {local_socket}")
        loop.call(server.start)
    except BaseException:
        executor.shutdown(wait=False)
        loop.close()
        raise
    running = RunningServer(server, bound, host, core, health_servicer, loop, executor, serving, draining, in_flight,
                            tokens)

    def load() -> None:
        try:
            t0 = time.monotonic()
            start_prolog(prolog_workers, prolog_slice)
            if not no_model:
                be = backend if backend is not None else _load_backend(model, device, dtype, remote)
                check_backend(be)
                info = be.info()
                core.attach_model(worker_for(be, max_batch, batch_wait_ms / 1000.0, limits.max_queue), info)
            if not running._stopped:
                serving.set()
                running.set_health(health_pb2.HealthCheckResponse.SERVING)
                if prolog_workers > 1:
                    threading.Thread(target=_watch_prolog_pool, args=(running,), name="ambit-health",
                                     daemon=True).start()
            _log_ready(core, max_batch, time.monotonic() - t0)
        except ServiceError as e:  # a model that cannot serve (an endpoint refusing, unreachable): one line
            log.debug("startup failed", exc_info=True)  # the caller reports it (wait_ready, the CLI)
            running.startup_error = e
        except BaseException as e:  # noqa: BLE001 - reported through wait_ready / the CLI
            log.exception("startup failed")
            running.startup_error = e
        finally:
            running.ready.set()

    if wait:
        load()
        if running.startup_error is not None:
            running.stop(0)
            running.wait_ready()
    else:
        threading.Thread(target=load, name="ambit-load", daemon=True).start()
    return running


def _bind(server: grpc.aio.Server, host: str, port: int, credentials: Any) -> int:
    """Bind host:port, plaintext or with TLS credentials; the bound port (port 0 picks one).
    BindError (one line) when the address is malformed or the port is taken."""
    address = f"{host}:{port}"
    _check_free(host, port)
    try:
        bound = server.add_insecure_port(address) if credentials is None else server.add_secure_port(address, credentials)
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise BindError(f"cannot listen on {address}: the port is in use or the address is not one this machine has"
                        + (" (an IPv6 address goes in brackets: --host [::1])" if host.count(":") > 1
                           and not host.startswith("[") else ""))
    return bound


class BindError(OSError):
    """The server cannot listen on the address it was given."""


def _check_free(host: str, port: int) -> None:
    """BindError, with the system's reason, when `host:port` cannot be bound (a port in use, an
    address this machine does not have), before gRPC tries (it logs its own lines first)."""
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise BindError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    for family, kind, proto, _, addr in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(addr)
            except OSError as e:
                raise BindError(f"cannot listen on {host}:{port}: {e.strerror}") from None


def _log_ready(core: AmbitCore, max_batch: int, seconds: float) -> None:
    info = core.model_info
    log.info("ready model=%s device=%s dtype=%s max_batch=%d in %.1f s", info.get("model_id", NO_MODEL),
             info.get("device", "-"), info.get("dtype", "-"), max_batch, seconds)


async def _grpc_server(
    core: AmbitCore, stats: Stats, executor: futures.Executor, limits: Limits, tokens: TokenStore | None,
    serving: threading.Event, draining: threading.Event, in_flight: InFlight,
) -> tuple[grpc.aio.Server, aio_health.HealthServicer]:
    """An unstarted `grpc.aio` server (made on the loop) with AmbitService behind the
    interceptors (the token check when `tokens` is given; UNAVAILABLE until `serving` is set
    and once `draining` is; per-peer limit, handler pool, deadlines, statuses, stats), health
    (NOT_SERVING until the model is loaded, open without a token) and reflection. Calls wait for
    their message on the loop, holding no handler thread."""
    options = [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", limits.max_message_bytes),
        ("grpc.so_reuseport", 0),
    ]
    interceptors: list[grpc.aio.ServerInterceptor] = [] if tokens is None else [AuthInterceptor(tokens)]
    interceptors += [ReadyGate(serving, SERVICE_NAME, draining), RpcInterceptor(stats, SERVICE_NAME, executor, core.open_call, in_flight)]
    server = grpc.aio.server(options=options, interceptors=interceptors)
    ambit_pb2_grpc.add_AmbitServiceServicer_to_server(AmbitServicer(core, stats), server)
    health_servicer = aio_health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    enable_reflection((SERVICE_NAME, health.SERVICE_NAME), server)  # v1 and v1alpha
    return server, health_servicer


def _set_health(loop: LoopThread, health_servicer: aio_health.HealthServicer, status: int) -> None:
    """The same health status for the server as a whole and for AmbitService."""

    async def set_all() -> None:
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, status)

    loop.call(set_all)


def _watch_prolog_pool(running: RunningServer, every_s: float = 0.25) -> None:
    """Health NOT_SERVING while no Prolog worker process can take work (all died, being
    replaced), SERVING again once one can; until the server drains."""
    from ambit.logic.runtime import pool as prolog_pool

    serving = True
    while not running.draining.wait(every_s):
        pools = prolog_pool.pools()
        able = not pools or all(p.alive() > 0 for p in pools)
        if able != serving and not running.draining.is_set():
            serving = able
            log.warning("Prolog worker processes %s", "back: SERVING" if able else "all down: NOT_SERVING")
            running.set_health(health_pb2.HealthCheckResponse.SERVING if able
                               else health_pb2.HealthCheckResponse.NOT_SERVING)


def _load_backend(model: str | None, device: str | None, dtype: str | None, remote: Any = None) -> Any:
    from ambit.server.backends import load_backend

    return load_backend(model, device=device, dtype=dtype, remote=remote)
