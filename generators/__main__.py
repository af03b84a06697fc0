"""`python -m generators <command> ...`: every input the evaluations need, as JSONL.

Commands: amp, amp-prompts (AmP), radd-parse, radd (RADD), implicature, folio.
Each family's command line lives beside its code (`generators/<family>/cli.py`).
"""

from __future__ import annotations

import importlib
import signal
import sys

COMMANDS = {
    "amp": "generators.amp.cli",
    "amp-prompts": "generators.amp.cli",
    "radd-parse": "generators.radd.cli",
    "radd": "generators.radd.cli",
    "implicature": "generators.implicature.cli",
    "folio": "generators.folio.cli",
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        if argv and argv[0] not in ("-h", "--help"):
            print(f"\nunknown command {argv[0]!r}", file=sys.stderr)
            return 2
        return 0 if argv else 2
    return importlib.import_module(COMMANDS[argv[0]]).main(argv) or 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends quietly
    sys.exit(main())
