"""The web page's own process (`python -m ambit.web`, started by `serve.WebProcess`): settings on
the first line of stdin, whose end stops it; the listening socket inherited. Its own core and
Prolog, under the server's bounds, at a lower priority on CPUs of its own, so what the page is
made to compute leaves the rest to the gRPC server (reached for the model: `upstream.Upstream`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import threading

import uvicorn

from ambit import _scrub
from ambit.server.guard.auth import TokenStore
from ambit.server.guard.limits import Limits
from ambit.server.service import AmbitCore
from ambit.server.service.core import start_prolog
from ambit.server.service.deadline import Admission
from ambit.web import logs
from ambit.web.runs import Runs
from ambit.web.serve import WebConfig, web_server
from ambit.web.upstream import Upstream

log = logging.getLogger("ambit.web")


def core_of(c: WebConfig) -> AmbitCore:
    """This process's service core, under the server's own limits and admission bounds."""
    limits = Limits(max_queue=c.max_queue)
    admission = Admission(slots=c.workers, max_queue=c.max_queue, per_client=c.max_calls_per_peer)
    return AmbitCore(limits, c.prolog_seconds, 1, c.prover, admission)


def main() -> int:
    line = sys.stdin.buffer.readline()
    if not line:
        return 2
    settings = json.loads(line)
    config = WebConfig.from_json(settings["config"])
    with contextlib.suppress(OSError, AttributeError):
        os.nice(config.nice)
        if settings["cpus"]:  # its own CPUs (and its Prolog processes', which inherit them)
            os.sched_setaffinity(0, set(settings["cpus"]))
    logging.basicConfig(level=config.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(_scrub.ScrubFilter())
    logs.install(config.limits.log_every_s)

    core = core_of(config)
    # Prolog loaded before the first request is read (which waits in the socket's queue meanwhile)
    start_prolog(1, config.prolog_slice)
    tokens = TokenStore(config.auth_token_file) if config.auth_token_file else None
    runs = Runs(list(config.runs)) if config.runs else None
    sock = socket.socket(fileno=int(settings["fd"]))
    upstream = Upstream(settings["upstream"], core.limits.max_message_bytes)
    server = web_server(core, config, sock, runs, tokens, upstream)
    # the server passes its SIGHUP on (handled even without a token file: it must not end the process)
    signal.signal(signal.SIGHUP, lambda *_: tokens is not None and tokens.reload_logged(log, "web: "))
    threading.Thread(target=_until_stdin_ends, args=(server,), name="ambit-web-parent", daemon=True).start()
    try:
        asyncio.run(server.serve(sockets=[sock]))
    finally:
        server.config.app.api.close()
        if runs is not None:
            runs.close()
    return 0


def _until_stdin_ends(server: uvicorn.Server) -> None:
    """Stop serving once stdin ends: the server closed it, or is gone."""
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.buffer.read(4096):
            pass
    server.should_exit = True
