"""What every entry point shares (`ambit`, `python -m ambit.logic`, `python -m ambit.generators`):
running a command's `main` so that `... | head` ends it quietly. A module of the bottom layer, so
an entry point never reaches a higher layer (the client, the server) to get it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys


def run_quietly_on_broken_pipe(main_fn, *args) -> None:
    """Run a command's `main` and exit with its status; when stdout's reader goes, quietly, with
    SIGPIPE's status (141). SIGPIPE itself stays ignored: restored, a write to any closed socket
    (a model endpoint dying mid-request) would kill the process instead of retrying."""
    try:
        code = main_fn(*args)
        sys.stdout.flush()
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        sys.exit(128 + signal.SIGPIPE)
    sys.exit(code)
