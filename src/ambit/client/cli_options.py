"""Options every ``ambit`` command shares besides the TLS and token ones: ``--log-level`` (gRPC's
own log lines silenced below DEBUG) and ``--prolog-seconds``."""

from __future__ import annotations

import argparse
import logging
import os
import sys

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def add_log_level(p: argparse.ArgumentParser) -> None:
    p.add_argument("--log-level", choices=LOG_LEVELS, default="WARNING",
                   help="log level (DEBUG also shows gRPC's own log lines)")


def add_prolog_seconds(p: argparse.ArgumentParser) -> None:
    p.add_argument("--prolog-seconds", type=float, default=0.0,
                   help="Prolog budget per check (grouping, explanation); 0: the server's (--prolog-seconds, 5)")


def quiet_grpc(argv: list[str]) -> None:
    """Silence gRPC's C-core log lines (printed raw on stderr) unless ``--log-level DEBUG`` is in
    ``argv`` (below DEBUG a ``GRPC_VERBOSITY`` already set is kept); must run before gRPC starts."""
    level = "WARNING"
    for a, nxt in zip(argv, [*argv[1:], ""]):
        if a == "--log-level" or a.startswith("--log-level="):
            level = a.partition("=")[2] or nxt
    if level in LOG_LEVELS and level != "WARNING":
        logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    if level == "DEBUG":
        os.environ["GRPC_VERBOSITY"] = "INFO"  # gRPC's handshake lines are INFO; its DEBUG adds a banner
    else:
        os.environ.setdefault("GRPC_VERBOSITY", "NONE")


def failed(err: BaseException) -> int:
    """Print a command's error on stderr; its exit status (1: the server refused it, else 2)."""
    from ambit import _extras
    from ambit.client.errors import AmbitError

    if isinstance(err, AmbitError):
        print(f"error: {err.code}: {err.message}", file=sys.stderr)
        for v in err.violations:
            print(f"  {v['field']}: {v['description']}", file=sys.stderr)
        return 1
    print(err if isinstance(err, _extras.MissingExtra) else f"error: {err}", file=sys.stderr)
    return 2
