"""Start the gRPC server: bind at once (health NOT_SERVING), load model and Prolog, then SERVING.
A `grpc.aio` server on its own loop thread (`server.loop`), handlers on `workers` threads; stopping
drains (new calls UNAVAILABLE, the port open while in-flight RPCs finish within the grace)."""

from __future__ import annotations

import logging
import socket
import threading
import time
from concurrent import futures
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
from ambit.server.model import ModelBackend
from ambit.server.backends import check_backend, entry_for, load_backend, worker_for
from ambit.server.reflection import enable_reflection
from ambit.server.guard.security import ServerSecurity
from ambit.server.service import DEFAULT_PROLOG_SECONDS, AmbitCore, ServiceError
from ambit.server.service.core import start_prolog
from ambit.server.service.deadline import DEFAULT_SLOTS, Admission
from ambit.server.servicer import AmbitServicer

if TYPE_CHECKING:
    from ambit.server.remote import RemoteOptions

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
        if self.tokens is not None:
            self.tokens.reload_logged()

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
        """The same health status for the server, for AmbitService, and on the health port."""
        async def set_all() -> None:
            for name in ("", SERVICE_NAME):
                await self.health.set(name, status)

        self.loop.call(set_all)
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
        """Health NOT_SERVING for good, new calls UNAVAILABLE; calls in flight go on."""
        self.draining.set()
        self.loop.call(self.health.enter_graceful_shutdown)
        for mirror in self.health_mirrors:
            mirror.enter_graceful_shutdown()

    def stop(self, grace: float | None = 5.0) -> None:
        """Drain, give in-flight RPCs `grace` seconds (then cancel them), stop; the port stays open
        meanwhile, so probes see NOT_SERVING and new calls a clear UNAVAILABLE."""
        if self._stopped:
            return
        self._stopped = True
        t0 = time.monotonic()
        self.drain()
        self.in_flight.wait_idle(grace)
        left = None if grace is None else max(0.0, grace - (time.monotonic() - t0))
        self.loop.call(lambda: self.server.stop(left))
        if self.core.worker is not None:
            self.core.worker.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.loop.close()

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self.loop.call(lambda: self.server.wait_for_termination(timeout))


@dataclass(frozen=True)
class ServeConfig:
    """What a server is started with, resolved once (`server.__main__.config_of`, `serve`)."""

    model: str | None = None  # a model spec (None: the default; `server.backends` says which backend serves it)
    port: int = 0  # 0 picks a free port (`RunningServer.port`)
    host: str = "127.0.0.1"
    device: str | None = None
    dtype: str | None = None
    workers: int = DEFAULT_SLOTS  # handler threads: calls served at once (more wait, up to `limits.max_queue`)
    max_batch: int = 16
    batch_wait_ms: float = 5.0
    limits: Limits = Limits()
    prolog_seconds: float = DEFAULT_PROLOG_SECONDS
    prolog_workers: int = 1  # > 1: batch equivalence and entailment RPCs over that many Prolog processes
    no_model: bool = False  # the logic RPCs only (also model="none")
    security: ServerSecurity = ServerSecurity()  # TLS and tokens: an exposed bind needs both
    remote: RemoteOptions | None = None  # the options of an `openai:<MODEL>@<BASE_URL>` spec
    max_calls_per_peer: int = DEFAULT_CALLS_PER_PEER  # calls in flight per client connection (0: no limit)
    prolog_slice: float = DEFAULT_PROLOG_SLICE_S  # seconds on the server's own Prolog before the long lane
    prover: str = "prolog"  # or "portfolio": E and Z3 after Prolog, on what it left UNKNOWN
    # a plaintext Unix socket for the web process, in a folder only this user can open (docs/web.md)
    local_socket: str | None = None

    def __post_init__(self) -> None:
        if self.prover not in PROVERS:
            raise ValueError(f"prover must be one of {', '.join(PROVERS)}, got {self.prover!r}")

    @property
    def serves_model(self) -> bool:
        return not (self.no_model or self.model == NO_MODEL)


def serve(*args: Any, backend: ModelBackend | None = None, wait: bool = True, **settings: Any) -> RunningServer:
    """Start an ambit server in this process; the settings are `ServeConfig`'s fields."""
    return start(ServeConfig(*args, **settings), backend, wait)


def start(config: ServeConfig, backend: ModelBackend | None = None, wait: bool = True) -> RunningServer:
    """Bind at once, then load the model (or use `backend`) and Prolog, in the background when
    `wait=False`; with `wait=True`, return once ready or raise StartupFailed."""
    config.security.validate(config.host)
    if config.serves_model and backend is None:
        entry_for(config.model)  # UnknownBackend (a ValueError) before anything binds
    running = _listen(config)
    if not wait:
        threading.Thread(target=_load, args=(running, config, backend), name="ambit-load", daemon=True).start()
        return running
    _load(running, config, backend)
    if running.startup_error is not None:
        running.stop(0)
        running.wait_ready()
    return running


def _listen(c: ServeConfig) -> RunningServer:
    """The server bound and started, health NOT_SERVING, with the web API's admission."""
    credentials, tokens = c.security.credentials(), c.security.token_store()
    core = AmbitCore(c.limits, c.prolog_seconds, c.prolog_workers, c.prover,
                     Admission(slots=c.workers, max_queue=c.limits.max_queue, per_client=c.max_calls_per_peer))
    serving, draining, in_flight = threading.Event(), threading.Event(), InFlight()
    loop = LoopThread()
    executor = futures.ThreadPoolExecutor(max_workers=c.workers, thread_name_prefix="ambit-rpc")
    try:
        server, health_servicer = loop.call(lambda: _grpc_server(
            core, executor, c.limits, tokens, serving, draining, in_flight))
        bound = _bind(server, c.host, c.port, credentials)
        if c.local_socket is not None and server.add_insecure_port(f"unix:{c.local_socket}") == 0:
            raise BindError(f"cannot listen on the web process's socket {c.local_socket}")
        loop.call(server.start)
    except BaseException:
        executor.shutdown(wait=False)
        loop.close()
        raise
    return RunningServer(server, bound, c.host, core, health_servicer, loop, executor, serving, draining, in_flight,
                         tokens)


def _load(running: RunningServer, c: ServeConfig, backend: ModelBackend | None) -> None:
    """Start Prolog and load the model, then SERVING; a failure goes to `running.startup_error`."""
    try:
        t0 = time.monotonic()
        start_prolog(c.prolog_workers, c.prolog_slice)
        if c.serves_model:
            be = backend if backend is not None else load_backend(c.model, c.device, c.dtype, c.remote)
            check_backend(be)
            info = be.info()
            running.core.attach_model(worker_for(be, c.max_batch, c.batch_wait_ms / 1000.0, c.limits.max_queue), info)
        if not running._stopped:
            running.serving.set()
            running.set_health(health_pb2.HealthCheckResponse.SERVING)
            if c.prolog_workers > 1:
                threading.Thread(target=_watch_prolog_pool, args=(running,), name="ambit-health", daemon=True).start()
        info = running.core.model_info
        log.info("ready model=%s device=%s dtype=%s max_batch=%d in %.1f s", info.get("model_id", NO_MODEL),
                 info.get("device", "-"), info.get("dtype", "-"), c.max_batch, time.monotonic() - t0)
    except ServiceError as e:  # a model that cannot serve (an endpoint refusing, unreachable): one line
        log.debug("startup failed", exc_info=True)  # the caller reports it (wait_ready, the CLI)
        running.startup_error = e
    except BaseException as e:  # noqa: BLE001 - reported through wait_ready / the CLI
        log.exception("startup failed")
        running.startup_error = e
    finally:
        running.ready.set()


def _bind(server: grpc.aio.Server, host: str, port: int, credentials: Any) -> int:
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
    """BindError with the system's reason when `host:port` cannot be bound (before gRPC logs)."""
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


async def _grpc_server(
    core: AmbitCore, executor: futures.Executor, limits: Limits, tokens: TokenStore | None,
    serving: threading.Event, draining: threading.Event, in_flight: InFlight,
) -> tuple[grpc.aio.Server, aio_health.HealthServicer]:
    """An unstarted `grpc.aio` server (made on the loop): AmbitService, health and reflection."""
    options = [("grpc.max_receive_message_length", limits.max_message_bytes),
               ("grpc.max_send_message_length", limits.max_message_bytes), ("grpc.so_reuseport", 0)]
    interceptors: list[grpc.aio.ServerInterceptor] = [] if tokens is None else [AuthInterceptor(tokens)]
    interceptors += [ReadyGate(serving, SERVICE_NAME, draining),
                     RpcInterceptor(core.stats, SERVICE_NAME, executor, core.open_call, in_flight)]
    server = grpc.aio.server(options=options, interceptors=interceptors)
    ambit_pb2_grpc.add_AmbitServiceServicer_to_server(AmbitServicer(core), server)
    health_servicer = aio_health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    enable_reflection((SERVICE_NAME, health.SERVICE_NAME), server)  # v1 and v1alpha
    return server, health_servicer


def _watch_prolog_pool(running: RunningServer, every_s: float = 0.25) -> None:
    """Health NOT_SERVING while no Prolog worker process can take work, until the server drains."""
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
