"""The web page's own process (`python -m ambit.web`), as `ambit serve --http` starts it
(`serve.WebProcess`): its settings are the first line of its stdin (JSON), the listening socket is
an inherited descriptor, and the end of its stdin (the server stopping, or gone however it went)
stops it.

It serves the page on a service core of its own, with its own Prolog (started here, with the
server's `--prolog-seconds`, `--prolog-slice` and `--prover`) and the server's admission bounds
(`--workers`, `--max-queue`, `--max-calls-per-peer`), at a lower CPU priority (`--http-nice`), and
reaches the gRPC server over its Unix socket for the model (`upstream.Upstream`). It runs on the
CPUs the server gives it (`--http-cpus`: by default one of two to four, a quarter of more), so
that whatever the page is made to compute leaves the other CPUs to the gRPC server. The token file
is read here too, and read again on SIGHUP (which the server passes on). Repeated log lines are
counted, not written (`logs.RepeatFilter`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import sys
import threading
from typing import Any

import uvicorn

from ambit import _scrub
from ambit.server.guard.auth import TokenStore
from ambit.server.guard.limits import DEFAULT_CALLS_PER_PEER, DEFAULT_PROLOG_SLICE_S, Limits
from ambit.server.service import DEFAULT_PROLOG_SECONDS, AmbitCore
from ambit.server.service.deadline import DEFAULT_SLOTS, Admission
from ambit.server.service.core import start_prolog
from ambit.web import logs
from ambit.web.app import make_app
from ambit.web.guard import loopback_hosts
from ambit.web.limits import WebLimits
from ambit.web.runs import Runs
from ambit.web.serve import config, is_loopback
from ambit.web.upstream import Upstream

log = logging.getLogger("ambit.web")


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def core_of(cfg: dict) -> AmbitCore:
    """This process's service core, under the server's own limits and admission bounds."""
    limits = Limits(max_queue=_or(cfg.get("max_queue"), Limits.max_queue))
    admission = Admission(slots=_or(cfg.get("workers"), DEFAULT_SLOTS), max_queue=limits.max_queue,
                          per_client=_or(cfg.get("max_calls_per_peer"), DEFAULT_CALLS_PER_PEER))
    return AmbitCore(limits, _or(cfg.get("prolog_seconds"), DEFAULT_PROLOG_SECONDS), 1, cfg.get("prover") or "prolog",
                     admission)


def main() -> int:
    line = sys.stdin.buffer.readline()
    if not line:
        return 2
    cfg = json.loads(line)
    try:
        os.nice(int(cfg.get("nice") or 0))
        if cfg.get("cpus"):  # its own CPUs (and its Prolog processes', which inherit them)
            os.sched_setaffinity(0, set(cfg["cpus"]))
    except (OSError, AttributeError):
        pass
    logging.basicConfig(level=cfg.get("log_level") or "INFO", stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    limits = WebLimits(**cfg.get("limits", {}))
    for handler in logging.getLogger().handlers:
        handler.addFilter(_scrub.ScrubFilter())
    logs.install(limits.log_every_s)

    core = core_of(cfg)
    # Prolog started and its programs loaded before the first request is read (meanwhile,
    # connections wait in the listening socket's queue): a request must not race the loading
    start_prolog(1, _or(cfg.get("prolog_slice"), DEFAULT_PROLOG_SLICE_S))
    tokens = TokenStore(cfg["auth_token_file"]) if cfg.get("auth_token_file") else None
    runs = Runs(cfg["runs"]) if cfg.get("runs") else None
    sock = socket.socket(fileno=int(cfg["fd"]))
    host, port = cfg["host"], sock.getsockname()[1]
    hosts = loopback_hosts(port, host) if is_loopback(host) else None
    app = make_app(core, runs, tokens, hosts, Upstream(cfg["upstream"], core.limits.max_message_bytes), limits)
    tls = argparse.Namespace(tls_cert=cfg.get("tls_cert"), tls_key=cfg.get("tls_key"),
                             tls_client_ca=cfg.get("tls_client_ca"))
    server = uvicorn.Server(config(app, tls, limits))

    def reload(*_: Any) -> None:
        if tokens is not None:
            try:
                log.info("web: token file reloaded: %d token(s)", tokens.reload())
            except ValueError as e:
                log.error("web: token file not reloaded, current tokens kept: %s", e)

    signal.signal(signal.SIGHUP, reload)
    threading.Thread(target=_until_stdin_ends, args=(server,), name="ambit-web-parent", daemon=True).start()
    try:
        asyncio.run(server.serve(sockets=[sock]))
    finally:
        app.api.close()
        if runs is not None:
            runs.close()
    return 0


def _until_stdin_ends(server: uvicorn.Server) -> None:
    """Stop serving once stdin ends: the server closed it, or is gone."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    server.should_exit = True
