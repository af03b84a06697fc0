"""The `ambit logic equiv|entails` commands: the dialect decides who answers. `equiv` in AmP's
dialects goes to `equiv.py`, everything else to `prove.py`; both share `common.py`."""

from __future__ import annotations

from typing import IO

from ambit.logic.cli.common import dialect_of
from ambit.logic.syntax.dialect import DEFAULT_DIALECT


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """argv[0] is the subcommand, `equiv` or `entails`; argv is read once to route on `--from`."""
    cmd = argv[0]
    d = dialect_of(argv[1:], DEFAULT_DIALECT[cmd])
    if cmd == "equiv" and d is not None and d.amp:
        from ambit.logic.cli.equiv import main as amp_main

        return amp_main(argv, stdin, stdout)
    from ambit.logic.cli.prove import main as full_main

    return full_main(argv, stdin, stdout)
