"""``ambit <command> ...``: the one command line (also ``python -m ambit``). Every command loads
only what it needs, and one whose optional dependencies are missing names the extra."""

from __future__ import annotations

import importlib
import sys

from ambit import _extras
from ambit._entry import run_quietly_on_broken_pipe
from ambit._extras import MissingExtra

# command -> (module with main(argv), whether main gets argv without the command word, summary)
ROUTED = {
    "eval": ("ambit.client.__main__", False, "run an evaluation suite, or compare runs (ambit eval -h)"),
    "serve": ("ambit.server.__main__", True, "start the gRPC server (ambit serve -h)"),
    "logic": ("ambit.logic.__main__", True, "canon | check | equiv | entails, locally, no server (ambit logic -h)"),
    "generate": ("ambit.generators.__main__", True, "amp | amp-prompts | radd | radd-parse | implicature | folio "
                                                    "inputs as JSONL (ambit generate -h)"),
    "explain": ("ambit.client.__main__", False, "explain readings: paraphrases, situations, a question "
                                                  "(ambit explain -h)"),
}
# what to use instead when a command's extra is missing (the client commands say it themselves)
INSTEAD = {"serve": "`ambit logic ...` (local checks, no server)"}
# one-off calls to a server (ambit.client.__main__): --server host:port, or an embedded server
CLIENT_COMMANDS = ("parse", "score", "equiv", "entails", "canon", "radd", "health", "info", "stats")


def version() -> str:
    from ambit import __version__

    return __version__


def usage() -> str:
    lines = [f"usage: ambit [--version] <command> ...  (ambit {version()})", "",
             "ambit: what a language model thinks an ambiguous sentence means, checked by logic.", "",
             "commands:"]
    lines += [f"  {name:<9} {summary}" for name, (_, _, summary) in ROUTED.items()]
    lines += [f"  {name:<9} one-off call to a server (ambit {name} -h)" for name in CLIENT_COMMANDS]
    lines += ["", "Client calls take --server HOST:PORT[,HOST:PORT...]; without it they start an embedded",
              "server with the default model (needs ambit-semantics[local]). `ambit COMMAND --help` for options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"ambit {version()}")
        return 0
    command = argv[0]
    try:
        if command in ROUTED:
            module, strip, _ = ROUTED[command]
            return importlib.import_module(module).main(argv[1:] if strip else argv) or 0
        if command in CLIENT_COMMANDS:
            from ambit.client.__main__ import main as client_main

            return client_main(argv)
    except MissingExtra as err:  # checked before the command starts: one line, no traceback
        print(err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line and the shell's status for SIGINT, no traceback
        print(f"ambit {command}: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as err:  # an import the command made at load time
        message = _extras.for_module(err.name, INSTEAD.get(command))
        if message is None:
            raise
        print(message, file=sys.stderr)
        return 2
    print(f"ambit: unknown command {command!r}\n\n{usage()}", file=sys.stderr)
    return 2


def entry() -> None:
    """The console script: `... | head` ends quietly."""
    run_quietly_on_broken_pipe(main)


if __name__ == "__main__":
    entry()
