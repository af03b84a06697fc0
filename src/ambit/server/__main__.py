"""`ambit serve --port 50051 [--model SPEC] ...`: prints `ambit server listening on HOST:PORT` once
bound (how --port 0 callers learn the port), then `ambit server ready`. SIGTERM/SIGINT: drain
within --grace; SIGHUP: re-read --auth-token-file. A non-loopback --host needs TLS and tokens."""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from ambit import _extras, _scrub
from ambit.logic.provers.portfolio import PROVERS

from ambit.server.app import RunningServer, ServeConfig, start
from ambit.server.health_port import serve_health
from ambit.server.guard.limits import Limits
from ambit.server.guard.security import ServerSecurity

log = logging.getLogger("ambit.server")

DEFAULT_PORT = 50051  # also client.connect.DEFAULT_PORT: a --server address without a port dials it
MAX_WORKERS = 1024  # RPC handler threads (100,000 threads end in a crash, not an error)


def _port(text: str) -> int:
    """argparse type: a TCP port, 0 to 65535 (0: a free one); 99999 must not quietly bind another."""
    n = _int(text)
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535, not {n}")
    return n


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def _count(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        n = _int(text)
        if n < low or (high is not None and n > high):
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {n}" if high is not None
                                             else f"must be at least {low}, not {n}")
        return n
    return parse


def _seconds(zero_ok: bool) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
        if not (0 <= x < float("inf") if zero_ok else 0 < x < float("inf")):
            raise argparse.ArgumentTypeError(f"must be a {'finite number ≥ 0' if zero_ok else 'positive, finite number'} "
                                             f"of seconds, not {text}")
        return x
    return parse


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="ambit serve", description="ambit gRPC server")
    _server_options(ap)
    _model_and_security_options(ap)
    _web_options(ap)
    args = ap.parse_args(argv)
    if args.runs and args.http is None:
        ap.error("--runs needs --http PORT (the runs viewer is a web page)")
    given = [o for o in ("in_process", "cpus", "max_connections", "timeout", "keepalive", "max_body_bytes")
             if getattr(args, "http_" + o) not in (None, False)]
    if given and args.http is None:
        ap.error(f"--http-{given[0].replace('_', '-')} needs --http PORT")
    return args


def _server_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--host", default=ServeConfig.host, help=f"address to bind (default {ServeConfig.host})")
    ap.add_argument("--port", type=_port, default=DEFAULT_PORT,
                    help=f"port (default {DEFAULT_PORT}, where clients dial an address without one); "
                         "0 picks a free one (printed)")
    ap.add_argument("--model", default=None, help="model spec or folder (default: SmolLM2-135M-Instruct)")
    ap.add_argument("--no-model", action="store_true", help="logic RPCs only; model RPCs answer FAILED_PRECONDITION")
    ap.add_argument("--device", default=None, help="cpu, cuda, cuda:0 ... (default: the engine's choice)")
    ap.add_argument("--dtype", default=None, help="float32, bfloat16, float16 (default: the engine's choice)")
    ap.add_argument("--workers", type=_count(1, MAX_WORKERS), default=ServeConfig.workers,
                    help=f"RPC handler threads (default {ServeConfig.workers})")
    ap.add_argument("--max-batch", type=_count(1), default=ServeConfig.max_batch,
                    help="most scoring requests per model batch (1 = no batching)")
    ap.add_argument("--batch-wait-ms", type=_seconds(zero_ok=True), default=ServeConfig.batch_wait_ms,
                    help="how long to collect a batch (default 5 ms)")
    ap.add_argument("--max-queue", type=_count(1), default=Limits.max_queue,
                    help="pending model jobs, and calls waiting for a handler thread, before "
                         "RESOURCE_EXHAUSTED (default 256)")
    ap.add_argument("--prolog-seconds", type=_seconds(zero_ok=False), default=ServeConfig.prolog_seconds,
                    help="default Prolog budget per check, capped by the request deadline (default 5)")
    ap.add_argument("--prolog-workers", type=_count(1, 256), default=ServeConfig.prolog_workers,
                    help="Prolog processes for batch equivalence/entailment RPCs (default 1: in the server's own)")
    ap.add_argument("--max-calls-per-peer", type=_count(0), default=ServeConfig.max_calls_per_peer,
                    help=f"calls in flight per client connection before RESOURCE_EXHAUSTED with a retry hint "
                         f"(default {ServeConfig.max_calls_per_peer}; 0: no limit)")
    ap.add_argument("--prolog-slice", type=_seconds(zero_ok=True), default=ServeConfig.prolog_slice,
                    help=f"seconds a Prolog call runs on the server's own Prolog before it moves to a "
                         f"long-lane process, so trivial checks never wait behind hard ones "
                         f"(default {ServeConfig.prolog_slice:g}; 0: one lane)")


def _model_and_security_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--prover", choices=PROVERS, default=ServeConfig.prover,
                    help="full first-order checks (folio, nltk, tptp): prolog (ambit's prover alone, the "
                         "default: one Prolog call per check) or portfolio (Prolog first, then E and Z3 on "
                         "what it left UNKNOWN, within the same time limit; up to four prover processes "
                         "per such check)")
    ap.add_argument("--grace", type=_seconds(zero_ok=True), default=5.0,
                    help="seconds in-flight RPCs get at shutdown (default 5)")
    ap.add_argument("--health-port", type=_port, default=None,
                    help="also serve gRPC health alone, plaintext, on this port of --host (probes that "
                         "cannot speak TLS: Kubernetes grpc probes, the image's HEALTHCHECK)")
    ap.add_argument("--tls-cert", help="PEM certificate chain: serve TLS (with --tls-key)")
    ap.add_argument("--tls-key", help="PEM private key of --tls-cert")
    ap.add_argument("--tls-client-ca", help="PEM CA bundle: require and verify client certificates (mTLS)")
    ap.add_argument("--auth-token-file", help="accepted bearer tokens, one per line; re-read on SIGHUP")
    ap.add_argument("--insecure", action="store_true",
                    help="allow a non-loopback --host without TLS and a token (logs a warning)")
    ap.add_argument("--api-key-file", help="API key of an openai:<MODEL>@<BASE_URL> model (first line; default $OPENAI_API_KEY)")
    ap.add_argument("--max-concurrency", type=int, default=None,
                    help="most requests in flight to an openai: model's endpoint (default 16)")
    ap.add_argument("--remote-cache", default=None,
                    help="response cache folder of an openai: model (default $AMBIT_CACHE/remote-responses; none: off)")
    ap.add_argument("--remote-cache-max-bytes", default=None,
                    help="bound of the response cache on disk, oldest entries evicted first (default 512MiB)")
    ap.add_argument("--max-response-bytes", default=None,
                    help="most bytes an openai: model's answer may have; a longer one is an error (default 8MiB)")
    ap.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])


def _web_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--http", type=_port, default=None, metavar="PORT",
                    help="also serve the web playground and runs viewer on this port of --host, from a "
                         "process of its own beside this server (needs ambit-semantics[web]; 0 picks a free port, "
                         "printed; docs/web.md)")
    ap.add_argument("--runs", action="append", default=[], metavar="DIR",
                    help="with --http: an `ambit eval --out` folder the runs viewer shows (repeat for several)")
    web = ap.add_argument_group("web port bounds (with --http; docs/web.md)")
    web.add_argument("--http-in-process", action="store_true",
                     help="serve the web page on a thread of this process instead of a process of its own "
                          "(what is sent to the web port then shares the gRPC server's CPU, memory and descriptors)")
    web.add_argument("--http-nice", type=_count(0, 19), default=10,
                     help="CPU priority of the web page's process below the gRPC server's (default 10; 0: the same)")
    web.add_argument("--http-cpus", type=_count(0, 4096), default=None,
                     help="CPUs the web page's process runs on, the last of this process's (default: 1 of 2 to 4, "
                          "a quarter of more; 0: any), so that what it is made to compute leaves the rest to gRPC")
    web.add_argument("--http-max-connections", type=_count(1, 100_000), default=None,
                     help="web connections open at once; one more is closed when accepted (default 256)")
    web.add_argument("--http-timeout", type=_seconds(zero_ok=False), default=None,
                     help="seconds a web request may take to send its headers and body (default 10)")
    web.add_argument("--http-keepalive", type=_seconds(zero_ok=False), default=None,
                     help="seconds an idle web keep-alive connection stays open (default 5)")
    web.add_argument("--http-max-body-bytes", type=_count(1024), default=None,
                     help="bytes of web request bodies being read at once; beyond them 503 (default 67108864)")


def config_of(args: argparse.Namespace, local_socket: str | None = None) -> ServeConfig:
    """The server's settings from the command line (SpecError for a bad `openai:` --model)."""
    security = ServerSecurity(args.tls_cert, args.tls_key, args.tls_client_ca, args.auth_token_file, args.insecure)
    return ServeConfig(
        model=args.model, port=args.port, host=args.host, device=args.device, dtype=args.dtype,
        workers=args.workers, max_batch=args.max_batch, batch_wait_ms=args.batch_wait_ms,
        limits=Limits(max_queue=args.max_queue), prolog_seconds=args.prolog_seconds,
        prolog_workers=args.prolog_workers, no_model=args.no_model, security=security, remote=_remote_options(args),
        max_calls_per_peer=args.max_calls_per_peer, prolog_slice=args.prolog_slice, prover=args.prover,
        local_socket=local_socket)


def _remote_options(args: argparse.Namespace):
    """RemoteOptions for an `openai:` --model (SpecError, a ValueError, names a bad value); else None."""
    from ambit.server.remote import RemoteOptions, is_remote, parse_spec

    if not is_remote(args.model):
        return None
    parse_spec(args.model)
    return RemoteOptions.from_args(args.api_key_file, args.max_concurrency, args.remote_cache,
                                   args.max_response_bytes, args.remote_cache_max_bytes)


def _check_extras(args: argparse.Namespace) -> None:
    """What this server will need, checked before it binds or prints "listening" (MissingExtra)."""
    _extras.require(("server",), "`ambit logic ...` (local checks, no server)")
    if not args.no_model:
        from ambit.server.backends import extras_for

        _extras.require(extras_for(args.model)[1:], "--no-model (the logic RPCs alone)")
    if args.http is not None:
        _extras.require(("web",), "the server without --http")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        _check_extras(args)
    except _extras.MissingExtra as err:
        return _fail(str(err), 2)
    logging.basicConfig(level=args.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    for handler in logging.getLogger().handlers:  # every line the server logs is scrubbed of secrets
        handler.addFilter(_scrub.ScrubFilter())
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        web = _prepare_web(args)  # checked and bound before the gRPC server starts: a refusal starts nothing
        config = config_of(args, None if web is None else web.upstream_socket)
        running = start(config, wait=False)
    except (ValueError, OSError) as e:  # SecurityConfigError, TokenFileError, SpecError, BindError, WebConfigError
        return _fail(f"ambit server: {e}", 2)
    if config.security.exposed_unprotected(args.host):
        log.warning("--insecure: serving %s without TLS and a token; anyone who can reach it can use it", args.host)
    print(f"ambit server listening on {running.address}", flush=True)
    return _serve(running, web, args, stop)


def _prepare_web(args: argparse.Namespace) -> Any:
    """The web port bound, None without --http; imported by name: nothing imports ambit.web."""
    if args.http is None:
        return None
    web = importlib.import_module("ambit.web.serve")
    return web.prepare(web.WebConfig.from_args(args))


def _serve(running: RunningServer, prepared: Any, args: argparse.Namespace, stop: threading.Event) -> int:
    """Launch the web page and the health port, say when ready, serve until `stop`, then drain."""
    web = None if prepared is None else prepared.launch(running)
    if web is not None:
        print(f"ambit web listening on {web.url}", flush=True)
    signal.signal(signal.SIGHUP, lambda *_: _reload(running, web))
    health_server = None
    if args.health_port is not None:
        try:
            health_server, health_port = serve_health(running, args.host, args.health_port)
        except OSError as e:
            _stop(running, web, 0)
            return _fail(f"ambit server: --health-port: {e}", 2)
        print(f"ambit health listening on {args.host}:{health_port}", flush=True)
    while not running.ready.wait(0.1) and not stop.is_set():
        pass
    if running.startup_error is not None:
        _stop(running, web, 0)
        return _fail(f"ambit server failed to start: {running.startup_reason}", 1)
    if not stop.is_set():
        print("ambit server ready", flush=True)
    stop.wait()
    log.info("shutting down (grace %.1f s)", args.grace)
    _stop(running, web, args.grace)
    if health_server is not None:
        health_server.stop(0)
    print("ambit server stopped", flush=True)
    return 0


def _reload(running: RunningServer, web: Any) -> None:
    """SIGHUP: re-read the token file, here and in the web page's process."""
    running.reload_tokens()
    if web is not None:
        web.reload()


def _stop(running: RunningServer, web: Any, grace: float) -> None:
    if web is not None:
        web.stop()
    running.stop(grace)


def _fail(message: str, code: int) -> int:
    print(message, file=sys.stderr, flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
