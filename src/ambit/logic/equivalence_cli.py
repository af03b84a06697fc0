"""`ambit logic equiv`: equivalence of two LFs, or of many pairs as JSON lines.

    ambit logic equiv "exists x . man(x)" "exists y . man(y)" [--format fol|lisp]
    ambit logic equiv --jsonl < pairs.jsonl     # {"a": ..., "b": ..., "format"?: ...} per line

With --jsonl every input line gets one output line, in order; a line that cannot be read gets
{"error": ...} and the run goes on, ending with exit status 2. Pairs are checked in batches
(one Prolog round trip per batch).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import IO

from .equivalence import DEFAULT_INFERENCES, DEFAULT_TIME_LIMIT, equivalent, equivalent_batch
from . import jsonl
from .cli_common import DEFAULT_MAX_CHARS, explain, positive_chars, positive_inferences, positive_seconds, too_long
from .errors import LFParseError
from .parse import FORMATS, parse
from .prolog_worker import PrologError

BATCH = 256


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ambit logic equiv", description="Logical equivalence of two LFs.")
    p.add_argument("a", nargs="?", help="first LF")
    p.add_argument("b", nargs="?", help="second LF")
    p.add_argument("--format", "-f", choices=FORMATS, default="fol", help="LF format (default fol)")
    p.add_argument("--jsonl", action="store_true", help="read {a, b, format?} JSON lines on stdin")
    p.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds per pair, kept by Prolog (default {DEFAULT_TIME_LIMIT})")
    p.add_argument("--inferences", type=positive_inferences, default=DEFAULT_INFERENCES,
                   help=f"inference budget per stage (default {DEFAULT_INFERENCES:,})")
    p.add_argument("--max-chars", type=positive_chars, default=DEFAULT_MAX_CHARS,
                   help=f"longest LF read, in characters (default {DEFAULT_MAX_CHARS}, the server's limit)")
    p.add_argument("--workers", type=jsonl.positive_int, default=1,
                   help="with --jsonl: Prolog processes checking batches side by side (default 1)")
    return p


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand name `equiv`."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    args = _parser().parse_args(argv[1:] if argv and argv[0] == "equiv" else argv)
    budget = {"time_limit": args.time_limit, "inferences": args.inferences}
    if args.jsonl:
        return _jsonl(stdin, stdout, args.format, budget, args.workers, args.max_chars)
    if args.a is None or args.b is None:
        _parser().print_usage(sys.stderr)
        print("error: give two LFs, or --jsonl", file=sys.stderr)
        return 2
    for name, text in (("A", args.a), ("B", args.b)):
        if msg := too_long(text, args.max_chars):
            print(f"error: {name}: {msg}", file=sys.stderr)
            return 2
    try:
        v = equivalent(args.a, args.b, args.format, **budget)
    except LFParseError as e:
        text = args.a if e.text == args.a else args.b
        print(f"error: {explain(e, text, args.format, '--format')}", file=sys.stderr)
        return 2
    print(v.verdict, file=stdout)
    print(json.dumps(v.to_dict(), indent=2), file=stdout)
    return 0


def _answer(default_fmt: str, budget: dict, max_chars: int, lines: list[str]) -> list[tuple[str, bool]]:
    """One batch of JSON lines: (output line, ok) per line, in order."""
    out: list[tuple[str, bool] | None] = [None] * len(lines)
    todo: list[tuple[int, object, object]] = []  # (line index, a AST, b AST)
    for n, line in enumerate(lines):
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not isinstance(row.get("a"), str) or not isinstance(row.get("b"), str):
                raise ValueError('expected an object {"a": LF, "b": LF, "format"?: "fol"|"lisp"}')
            fmt = row.get("format", default_fmt)
            if fmt not in FORMATS:
                raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
            for k in ("a", "b"):
                if msg := too_long(row[k], max_chars):
                    raise ValueError(f"field {k!r}: {msg}")
            todo.append((n, parse(row["a"], fmt), parse(row["b"], fmt)))
        except LFParseError as e:
            out[n] = (json.dumps({"error": explain(e, e.text, fmt, "--format"), "details": e.to_dict()}), False)
        except ValueError as e:  # json.JSONDecodeError is a ValueError
            out[n] = (json.dumps({"error": str(e)}), False)
    if todo:
        try:
            verdicts = [(v.to_dict(), True) for v in equivalent_batch([(a, b) for _, a, b in todo], **budget)]
        except PrologError as e:
            verdicts = [({"error": str(e)}, False)] * len(todo)
        for (n, _, _), (v, ok) in zip(todo, verdicts):
            out[n] = (json.dumps(v), ok)
    return out  # type: ignore[return-value]


def _jsonl(stdin: IO[str], stdout: IO[str], default_fmt: str, budget: dict, workers: int = 1,
           max_chars: int = DEFAULT_MAX_CHARS) -> int:
    answer = functools.partial(_answer, default_fmt, budget, max_chars)
    # one process: big batches (fewer Prolog round trips); several: small ones (even shares)
    return jsonl.run(stdin, stdout, answer, BATCH if workers == 1 else BATCH // 4, workers)
