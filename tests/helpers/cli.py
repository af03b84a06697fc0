"""`python -m ambit.logic ARGV` in process, with stdin given: (exit code, stdout, stderr)."""

from __future__ import annotations

import contextlib
import io
import sys


def run_logic(argv: list[str], stdin: str = "") -> tuple[int | str | None, str, str]:
    """Run `ambit logic` in this process with `stdin`; an exit by SystemExit gives its code."""
    from ambit.logic.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        old = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
        finally:
            sys.stdin = old
    return code, out.getvalue(), err.getvalue()
