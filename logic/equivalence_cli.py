"""`python -m logic equiv`: equivalence of two LFs, or of many pairs as JSON lines.

    python -m logic equiv "exists x . man(x)" "exists y . man(y)" [--format fol|lisp]
    python -m logic equiv --jsonl < pairs.jsonl     # {"a": ..., "b": ..., "format"?: ...} per line

With --jsonl every input line gets one output line, in order; a line that cannot be read gets
{"error": ...} and the run goes on, ending with exit status 2. Pairs are checked in batches
(one Prolog round trip per batch).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from .equivalence import DEFAULT_INFERENCES, DEFAULT_TIME_LIMIT, equivalent, equivalent_batch
from .errors import LFParseError
from .parse import FORMATS, parse
from .prolog_worker import PrologError

BATCH = 256


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m logic equiv", description="Logical equivalence of two LFs.")
    p.add_argument("a", nargs="?", help="first LF")
    p.add_argument("b", nargs="?", help="second LF")
    p.add_argument("--format", "-f", choices=FORMATS, default="fol", help="LF format (default fol)")
    p.add_argument("--jsonl", action="store_true", help="read {a, b, format?} JSON lines on stdin")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per pair")
    p.add_argument("--inferences", type=int, default=DEFAULT_INFERENCES, help="inference budget per stage")
    return p


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand name `equiv`."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    args = _parser().parse_args(argv[1:] if argv and argv[0] == "equiv" else argv)
    budget = {"time_limit": args.time_limit, "inferences": args.inferences}
    if args.jsonl:
        return _jsonl(stdin, stdout, args.format, budget)
    if args.a is None or args.b is None:
        _parser().print_usage(sys.stderr)
        print("error: give two LFs, or --jsonl", file=sys.stderr)
        return 2
    try:
        v = equivalent(args.a, args.b, args.format, **budget)
    except LFParseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(v.verdict, file=stdout)
    print(json.dumps(v.to_dict(), indent=2), file=stdout)
    return 0


def _jsonl(stdin: IO[str], stdout: IO[str], default_fmt: str, budget: dict) -> int:
    status = 0
    pending: list[tuple[int, object, object]] = []  # (line index, a AST, b AST)
    results: dict[int, dict] = {}
    next_out = 0
    n = 0

    def flush() -> None:
        nonlocal next_out
        nonlocal status
        if pending:
            try:
                verdicts = [v.to_dict() for v in equivalent_batch([(a, b) for _, a, b in pending], **budget)]
            except PrologError as e:
                verdicts, status = [{"error": str(e)}] * len(pending), 2
            for (i, _, _), v in zip(pending, verdicts):
                results[i] = v
            pending.clear()
        while next_out in results:
            stdout.write(json.dumps(results.pop(next_out)) + "\n")
            next_out += 1
        stdout.flush()

    for n, line in enumerate(stdin):
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not isinstance(row.get("a"), str) or not isinstance(row.get("b"), str):
                raise ValueError('expected an object {"a": LF, "b": LF, "format"?: "fol"|"lisp"}')
            fmt = row.get("format", default_fmt)
            if fmt not in FORMATS:
                raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
            pending.append((n, parse(row["a"], fmt), parse(row["b"], fmt)))
        except LFParseError as e:
            results[n] = {"error": str(e), "details": e.to_dict()}
            status = 2
        except ValueError as e:  # json.JSONDecodeError is a ValueError
            results[n] = {"error": str(e)}
            status = 2
        if len(pending) >= BATCH:
            flush()
    flush()
    return status
