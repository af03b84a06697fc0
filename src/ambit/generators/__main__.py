"""`ambit generate <command> ...`: every input the evaluations need, as JSONL.

Commands: amp, amp-prompts (AmP), radd-parse, radd (RADD), implicature, folio.
Each family's command line lives beside its code (`ambit/generators/<family>/cli.py`).
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {"amp": "ambit.generators.amp.cli", "amp-prompts": "ambit.generators.amp.cli",
            "radd-parse": "ambit.generators.radd.cli", "radd": "ambit.generators.radd.cli",
            "implicature": "ambit.generators.implicature.cli",
            "folio": "ambit.generators.folio.cli"}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        if argv:
            print(f"\nunknown command {argv[0]!r}", file=sys.stderr)
        return 2
    return importlib.import_module(COMMANDS[argv[0]]).main(argv) or 0


if __name__ == "__main__":
    from ambit._entry import run_quietly_on_broken_pipe

    run_quietly_on_broken_pipe(main)  # `... | head` ends quietly
