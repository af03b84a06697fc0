"""`ambit logic equiv` in AmP's formats (a full first-order dialect goes to cli/prove.py): two LFs,
or many pairs as JSON lines, checked in batches of one Prolog round trip each."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import IO

from ambit.logic.engine.equivalence import DEFAULT_INFERENCES, DEFAULT_TIME_LIMIT
from ambit.logic.cli import jsonl
from ambit.logic import error_json as E
from ambit.logic.cli.common import (DEFAULT_MAX_CHARS, add_dialect_options, equivalence_in_time, explain,
                         formulas_first_dash, parse_hint, positive_chars, say_where_formulas_go,
                         positive_inferences, positive_seconds, too_long, usage_with_default)
from ambit.logic.syntax.dialect import DEFAULT_DIALECT, dialect
from ambit.logic.syntax.reading import ProblemError, read_pair, record
from ambit.logic.errors import LFParseError
from ambit.logic.syntax.parse import FORMATS
from ambit.logic.runtime.worker import PrologError

BATCH = 256


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ambit logic equiv", description="Logical equivalence of two LFs.")
    p.add_argument("a", nargs="?", help="first LF")
    p.add_argument("b", nargs="?", help="second LF")
    add_dialect_options(p, DEFAULT_DIALECT["equiv"])
    p.add_argument("--jsonl", action="store_true", help="read {a, b, format?} JSON lines on stdin")
    p.add_argument("--prover", choices=("prolog", "portfolio"), default="prolog",
                   help="prolog (default in AmP's formats): AmP's procedure, then ambit's engine; "
                        "portfolio: E and Z3 beside it (logic/provers/portfolio.py)")
    p.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds per pair, kept by Prolog (default {DEFAULT_TIME_LIMIT})")
    p.add_argument("--inferences", type=positive_inferences, default=DEFAULT_INFERENCES,
                   help=f"inference budget per stage (default {DEFAULT_INFERENCES:,})")
    p.add_argument("--max-chars", type=positive_chars, default=DEFAULT_MAX_CHARS,
                   help=f"longest LF read, in characters (default {DEFAULT_MAX_CHARS}, the server's limit)")
    p.add_argument("--max-domain", type=int, default=None, help="largest model searched (default: the engine's)")
    p.add_argument("--workers", type=jsonl.worker_count, default=1,
                   help="with --jsonl: Prolog processes checking batches side by side (default 1)")
    usage_with_default(p, "--from DIALECT", DEFAULT_DIALECT["equiv"])
    say_where_formulas_go(p)
    return p


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand name `equiv`."""
    rest = argv[1:] if argv and argv[0] == "equiv" else argv
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    parser = _parser()
    args = parser.parse_args(formulas_first_dash(parser, rest))
    if args.fmt not in FORMATS:
        raise SystemExit(f"ambit logic equiv: {args.fmt} is a full first-order dialect: use ambit.logic.cli.main")
    budget = {"time_limit": args.time_limit, "inferences": args.inferences, "prover": args.prover}
    if args.max_domain is not None:
        budget["max_domain"] = args.max_domain
    if args.jsonl:
        return _jsonl(stdin, stdout, args.fmt, budget, args.workers, args.max_chars, args.free_variables,
                      args.symbols)
    if args.a is None or args.b is None:
        _parser().print_usage(sys.stderr)
        print("error: give two LFs, or --jsonl", file=sys.stderr)
        return 2
    for name, text in (("A", args.a), ("B", args.b)):
        if msg := too_long(text, args.max_chars):
            print(f"error: {name}: {msg}", file=sys.stderr)
            return 2
    try:
        v = equivalence_in_time(args.a, args.b, dialect(args.fmt, args.free_variables, args.symbols), budget)
    except ProblemError as e:
        if isinstance(e.cause, LFParseError):
            text = args.a if e.field == "a" else args.b
            print(f"error: {e.field.upper()}: {explain(e.cause, text, args.fmt, '--from')}", file=sys.stderr)
        else:
            print(f"error: {e.cause}", file=sys.stderr)
        return 2
    print(v.verdict, file=stdout)
    print(json.dumps(v.to_dict(), indent=2, ensure_ascii=False), file=stdout)
    return 0


def _answer(default_fmt: str, budget: dict, max_chars: int, lines: list[str],
            free_variables: str | None = None, symbols: str | None = None) -> list[tuple[str, bool]]:
    """One batch of JSON lines: (output line, ok) per line, in order."""
    out: list[tuple[str, bool] | None] = [None] * len(lines)
    todo: list[tuple[int, object, object, object]] = []  # (line index, a AST, b AST, reading)
    for n, line in enumerate(lines):
        fmt = default_fmt
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not isinstance(row.get("a"), str) or not isinstance(row.get("b"), str):
                field = "" if not isinstance(row, dict) else next(k for k in ("a", "b") if not isinstance(row.get(k), str))
                raise _Bad(E.error_object("invalid_request", 'expected an object {"a": LF, "b": LF, "format"?: '
                                          '"fol"|"lisp"}', field))
            fmt = row.get("format", default_fmt)
            if fmt not in FORMATS:
                raise _Bad(E.error_object("unknown_dialect", f"unknown format {fmt!r}: expected one of "
                                          f"{', '.join(FORMATS)}", "format"))
            for k in ("a", "b"):
                if msg := too_long(row[k], max_chars):
                    raise _Bad(E.error_object("too_long", f"field {k!r}: {msg}", k, max_chars))
            todo.append((n, *read_pair(row["a"], row["b"], fmt, free_variables, symbols)))
        except _Bad as e:
            out[n] = (json.dumps(e.error, ensure_ascii=False), False)
        except ProblemError as e:
            hint = parse_hint(e.cause.text, fmt, "--from") if isinstance(e.cause, LFParseError) else None
            out[n] = (json.dumps(E.from_exception(e.cause, e.field, hint=hint), ensure_ascii=False), False)
        except ValueError as e:  # json.JSONDecodeError is a ValueError
            out[n] = (json.dumps(E.from_exception(e), ensure_ascii=False), False)
    if todo:
        from ambit.logic.provers import portfolio  # AmP's procedure first, `prover` as asked

        try:
            pairs = [(a, b) for _, a, b, _ in todo]
            checked = portfolio.equivalent_batch(pairs, default_fmt, **budget)
            verdicts = [(record(v, r).to_dict(), True) for v, (_, _, _, r) in zip(checked, todo)]
        except PrologError as e:
            verdicts = [(E.error_object("engine_error", str(e)), False)] * len(todo)
        for (n, _, _, _), (v, ok) in zip(todo, verdicts):
            out[n] = (json.dumps(v, ensure_ascii=False), ok)
    return out  # type: ignore[return-value]


class _Bad(Exception):
    """A line refused before it is read: its error object."""

    def __init__(self, error: dict) -> None:
        super().__init__(error["error"]["message"])
        self.error = error


def _jsonl(stdin: IO[str], stdout: IO[str], default_fmt: str, budget: dict, workers: int = 1,
           max_chars: int = DEFAULT_MAX_CHARS, free_variables: str | None = None, symbols: str | None = None) -> int:
    answer = functools.partial(_answer, default_fmt, budget, max_chars, free_variables=free_variables,
                               symbols=symbols)
    # one process: big batches (fewer Prolog round trips); several: small ones (even shares)
    return jsonl.run(stdin, stdout, answer, BATCH if workers == 1 else BATCH // 4, workers)
