"""`ambit serve --port 50051 [--model SPEC] [--device D] [--dtype T] [--workers N] ...`

Prints `ambit server listening on HOST:PORT` as soon as the port is bound (with --port 0 this
is how callers learn the port), then `ambit server ready` once the model is loaded and Prolog
is up (health SERVING). SIGTERM/SIGINT: drain, finish in-flight RPCs within --grace, exit 0.
SIGHUP: re-read --auth-token-file. Security options (`server.security`): --tls-cert/--tls-key
(TLS), --tls-client-ca (mTLS), --auth-token-file (bearer tokens); a non-loopback --host needs
TLS and a token file, or --insecure (exit 2 with a message saying what to add). --health-port P
also serves health alone, plaintext, on a second port (probes that cannot speak TLS).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading

from ambit.logic.provers.portfolio import PROVERS

from ambit.server.app import serve
from ambit.server.health_port import serve_health
from ambit.server.guard.limits import DEFAULT_CALLS_PER_PEER, DEFAULT_PROLOG_SLICE_S, Limits
from ambit.server.guard.security import ServerSecurity
from ambit.server.service import DEFAULT_PROLOG_SECONDS

DEFAULT_PORT = 50051  # also client.connect.DEFAULT_PORT: a --server address without a port dials it


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="ambit serve", description="ambit gRPC server")
    ap.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT,
                    help=f"port (default {DEFAULT_PORT}, where clients dial an address without one); "
                         "0 picks a free one (printed)")
    ap.add_argument("--model", default=None, help="model spec or folder (default: SmolLM2-135M-Instruct)")
    ap.add_argument("--no-model", action="store_true", help="logic RPCs only; model RPCs answer FAILED_PRECONDITION")
    ap.add_argument("--device", default=None, help="cpu, cuda, cuda:0 ... (default: the engine's choice)")
    ap.add_argument("--dtype", default=None, help="float32, bfloat16, float16 (default: the engine's choice)")
    ap.add_argument("--workers", type=int, default=64, help="RPC handler threads (default 64)")
    ap.add_argument("--max-batch", type=int, default=16, help="most scoring requests per model batch (1 = no batching)")
    ap.add_argument("--batch-wait-ms", type=float, default=5.0, help="how long to collect a batch (default 5 ms)")
    ap.add_argument("--max-queue", type=int, default=Limits.max_queue,
                    help="pending model jobs before RESOURCE_EXHAUSTED (default 256)")
    ap.add_argument("--prolog-seconds", type=float, default=DEFAULT_PROLOG_SECONDS,
                    help="default Prolog budget per check, capped by the request deadline (default 5)")
    ap.add_argument("--prolog-workers", type=int, default=1,
                    help="Prolog processes for batch equivalence/entailment RPCs (default 1: in the server's own)")
    ap.add_argument("--max-calls-per-peer", type=int, default=DEFAULT_CALLS_PER_PEER,
                    help=f"calls in flight per client connection before RESOURCE_EXHAUSTED with a retry hint "
                         f"(default {DEFAULT_CALLS_PER_PEER}; 0: no limit)")
    ap.add_argument("--prolog-slice", type=float, default=DEFAULT_PROLOG_SLICE_S,
                    help=f"seconds a Prolog call runs on the server's own Prolog before it moves to a "
                         f"long-lane process, so trivial checks never wait behind hard ones "
                         f"(default {DEFAULT_PROLOG_SLICE_S:g}; 0: one lane)")
    ap.add_argument("--prover", choices=PROVERS, default="prolog",
                    help="full first-order checks (folio, nltk, tptp): prolog (ambit's prover alone, the "
                         "default: one Prolog call per check) or portfolio (Prolog first, then E and Z3 on "
                         "what it left UNKNOWN, within the same time limit; up to four prover processes "
                         "per such check)")
    ap.add_argument("--grace", type=float, default=5.0, help="seconds in-flight RPCs get at shutdown (default 5)")
    ap.add_argument("--health-port", type=int, default=None,
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
    return ap.parse_args(argv)


def _remote_options(args: argparse.Namespace):
    """RemoteOptions for an `openai:` --model (SpecError, a ValueError, names a bad value); else None."""
    from ambit.server.remote import RemoteOptions, is_remote, parse_spec

    if not is_remote(args.model):
        return None
    parse_spec(args.model)
    return RemoteOptions.from_args(args.api_key_file, args.max_concurrency, args.remote_cache,
                                   args.max_response_bytes, args.remote_cache_max_bytes)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    security = ServerSecurity(args.tls_cert, args.tls_key, args.tls_client_ca, args.auth_token_file, args.insecure)
    try:
        remote = _remote_options(args)
        running = serve(
            model=args.model, port=args.port, host=args.host, device=args.device, dtype=args.dtype,
            workers=args.workers, max_batch=args.max_batch, batch_wait_ms=args.batch_wait_ms,
            limits=Limits(max_queue=args.max_queue), prolog_seconds=args.prolog_seconds,
            prolog_workers=args.prolog_workers,
            no_model=args.no_model, wait=False, security=security, remote=remote,
            max_calls_per_peer=args.max_calls_per_peer, prolog_slice=args.prolog_slice,
            prover=args.prover,
        )
    except (ValueError, OSError) as e:  # SecurityConfigError, TokenFileError, SpecError, BindError: bad options
        print(f"ambit server: {e}", file=sys.stderr, flush=True)
        return 2
    if security.exposed_unprotected(args.host):
        logging.getLogger("ambit.server").warning(
            "--insecure: serving %s without TLS and a token; anyone who can reach it can use it", args.host)
    signal.signal(signal.SIGHUP, lambda *_: running.reload_tokens())
    print(f"ambit server listening on {running.address}", flush=True)
    health_server = None
    if args.health_port is not None:
        try:
            health_server, health_port = serve_health(running, args.host, args.health_port)
        except OSError as e:
            running.stop(0)
            print(f"ambit server: --health-port: {e}", file=sys.stderr, flush=True)
            return 2
        print(f"ambit health listening on {args.host}:{health_port}", flush=True)
    while not running.ready.wait(0.1):
        if stop.is_set():
            break
    if running.startup_error is not None:
        running.stop(0)
        print(f"ambit server failed to start: {running.startup_error}", file=sys.stderr, flush=True)
        return 1
    if not stop.is_set():
        print("ambit server ready", flush=True)
    stop.wait()
    logging.getLogger("ambit.server").info("shutting down (grace %.1f s)", args.grace)
    running.stop(args.grace)
    if health_server is not None:
        health_server.stop(0)
    print("ambit server stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
