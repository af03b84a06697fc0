"""`ambit logic equiv|entails --from DIALECT ...`: first-order checks in every dialect (`equiv` in
AmP's `fol`/`lisp` goes to cli/equiv.py). For one story --time-limit covers reading the problem
too; a TPTP problem file is read with its roles (logic/syntax/tptp_problem.py)."""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from ambit.logic.engine import prove
from ambit.logic.cli import jsonl
from ambit.logic.provers import portfolio
from ambit.logic import error_json as E
from ambit.logic.cli.common import (DEFAULT_MAX_CHARS, add_dialect_options, equivalence_in_time, explain,
                                    formulas_first_dash, is_premises_formula, parse_hint, say_where_formulas_go, positive_chars, positive_inferences, positive_seconds, premises_is_a_file,
                                    too_long, usage_with_default)
from ambit.logic.syntax.dialect import DEFAULT_DIALECT, Dialect, dialect
from ambit.logic.syntax.reading import ArityError, ProblemError, Reading, read_pair, read_story, record
from ambit.logic.errors import LFParseError
from ambit.logic.syntax.tptp_problem import (CONCLUSION_ROLE, MAX_BYTES, MAX_INCLUDES, PREMISE_ROLES, Limits, ReadingTimeLimit,
                           TPTPProblemError, read_problem_file, read_text_file, statements)

BATCH = 64


def _parser(cmd: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"ambit logic {cmd}")
    add_dialect_options(p, DEFAULT_DIALECT[cmd])
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin, one answer per line on stdout")
    p.add_argument("--time-limit", type=positive_seconds, default=prove.DEFAULT_TIME_LIMIT,
                   help=f"seconds per item, reading a problem included (default {prove.DEFAULT_TIME_LIMIT})")
    p.add_argument("--inferences", type=positive_inferences, default=prove.DEFAULT_INFERENCES,
                   help=f"inference budget per stage (default {prove.DEFAULT_INFERENCES:,})")
    p.add_argument("--max-domain", type=int, default=prove.DEFAULT_MAX_DOMAIN, help="largest model searched")
    p.add_argument("--prover", choices=portfolio.PROVERS, default=None,
                   help="prolog: ambit's prover alone; portfolio: with E and Z3 beside it "
                        "(default: portfolio when eprover is installed, else prolog)")
    p.add_argument("--max-chars", type=positive_chars, default=DEFAULT_MAX_CHARS,
                   help=f"longest formula read, in characters (default {DEFAULT_MAX_CHARS}, the server's limit)")
    p.add_argument("--tptp-root", type=Path, default=None,
                   help="folder that TPTP include('...') statements are read from (refused without it)")
    p.add_argument("--tptp-max-includes", type=jsonl.positive_int, default=MAX_INCLUDES,
                   help=f"include statements followed in one problem, repeats counted (default {MAX_INCLUDES})")
    p.add_argument("--tptp-max-bytes", type=jsonl.positive_int, default=MAX_BYTES,
                   help=f"bytes of a problem file and its includes, repeats counted (default {MAX_BYTES:,})")
    p.add_argument("--tptp-max-statements", type=jsonl.positive_int, default=Limits.max_statements,
                   help=f"statements of a problem and its includes, repeats counted (default "
                        f"{Limits.max_statements:,})")
    p.add_argument("--workers", type=jsonl.worker_count, default=1,
                   help="with --jsonl: Prolog processes checking batches side by side (default 1)")
    if cmd == "equiv":
        p.add_argument("a", nargs="?")
        p.add_argument("b", nargs="?")
    else:
        p.add_argument("problem", nargs="?", help="with --from tptp: a TPTP problem file (axioms and a conjecture)")
        p.add_argument("--premises", metavar="FILE",
                       help="file with one premise per line, - for stdin (with --from tptp: a TPTP file, roles read)")
        p.add_argument("--conclusion", metavar="TEXT")
    usage_with_default(p, "--from DIALECT", DEFAULT_DIALECT[cmd])
    say_where_formulas_go(p)
    return p


def _error(e: Exception, field: str, index: int | None, fmt: str | None = None) -> dict:
    """The one error shape (`logic.error_json`), with the premise's `index`; `pos` and `kind` stay
    beside `position` and `code` (the fields this output gave before the shape)."""
    hint = parse_hint(e.text, fmt, "--from") if isinstance(e, LFParseError) and fmt else None
    if isinstance(e, _TooLong):
        out = E.error_object("too_long", str(e), field, e.max_chars, index=index, expected=[])
    else:
        out = E.from_exception(e, field, hint=hint, index=index)
    body = out["error"]
    body.setdefault("index", index)
    body.setdefault("expected", [])
    body["pos"] = body.get("position")
    if isinstance(e, ArityError):
        body["kind"] = e.problem
    return out


class _Role(TPTPProblemError):
    """A TPTP statement given in a role its place does not take (a conjecture as a premise)."""

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, message)
        self.source, self.line = "", 0


class _TooLong(ValueError):
    def __init__(self, message: str, max_chars: int) -> None:
        super().__init__(message)
        self.max_chars = max_chars


def _formula(text: Any, fmt: Dialect, max_chars: int, field: str, index: int | None, roles: tuple[str, ...]):
    """One formula of a JSON line: a string within `max_chars`; in TPTP, of one of `roles`."""
    if not isinstance(text, str):
        raise _Bad(f"{'a premise' if field == 'premises' else f'field {field!r}'} must be a formula string",
                   field, index)
    if msg := too_long(text, max_chars):
        raise _Bad(_TooLong(msg, max_chars), field, index)
    if fmt.problem_files and text.lstrip().startswith("fof"):
        try:
            sts = statements(text)
        except TPTPProblemError as e:
            raise _Bad(e, field, index) from None
        if len(sts) == 1 and sts[0].role not in roles:
            given = "a premise" if field == "premises" else field
            raise _Bad(_Role(f"fof({sts[0].name}, {sts[0].role}, ...) given as {given}: expected the role "
                             f"{' or '.join(roles)}"), field, index)
    return text


_ANY_ROLE = (*PREMISE_ROLES, CONCLUSION_ROLE)


def _read_equiv(row: Any, fmt: Dialect, max_chars: int) -> tuple[tuple, Reading]:
    if not isinstance(row, dict):
        raise _Bad("expected an object {\"a\": ..., \"b\": ...}", "", None)
    a, b = (_formula(row.get(k), fmt, max_chars, k, None, _ANY_ROLE) for k in ("a", "b"))
    try:
        fa, fb, reading = read_pair(a, b, fmt)
    except ProblemError as e:
        raise _Bad(e.cause, e.field, e.index) from None
    return (fa, fb), reading


def _read_story(row: Any, fmt: Dialect, max_chars: int) -> tuple[tuple, Reading]:
    if not isinstance(row, dict) or not isinstance(row.get("premises"), list):
        raise _Bad("expected an object {\"premises\": [...], \"conclusion\": ...}", "premises", None)
    ps = [_formula(p, fmt, max_chars, "premises", i, PREMISE_ROLES) for i, p in enumerate(row["premises"])]
    c = _formula(row.get("conclusion"), fmt, max_chars, "conclusion", None, (CONCLUSION_ROLE,))
    try:
        fps, fc, reading = read_story(ps, c, fmt)
    except ProblemError as e:
        raise _Bad(e.cause, e.field, e.index) from None
    return (fps, fc), reading


class _Bad(Exception):
    def __init__(self, err: Any, field: str, index: int | None) -> None:
        super().__init__(str(err))
        self.err = err if isinstance(err, Exception) else ValueError(err)
        self.field, self.index = field, index


def _answer(cmd: str, fmt: Dialect, budget: dict, max_chars: int, lines: list[str]) -> list[tuple[str, bool]]:
    """One batch of JSON lines: (output line, ok) per line, in order."""
    out: list[tuple[str, bool] | None] = [None] * len(lines)
    todo: list[tuple[int, tuple]] = []
    readings: list[Reading] = []
    read = _read_equiv if cmd == "equiv" else _read_story
    for n, line in enumerate(lines):
        try:
            item, reading = read(json.loads(line), fmt, max_chars)
            todo.append((n, item))
            readings.append(reading)
        except _Bad as e:
            out[n] = (json.dumps(_error(e.err, e.field, e.index, fmt), ensure_ascii=False), False)
        except ValueError as e:  # not JSON
            out[n] = (json.dumps(_error(e, "", None), ensure_ascii=False), False)
    if todo:
        check = portfolio.equivalent_batch if cmd == "equiv" else portfolio.decide_batch
        try:
            results = check([x for _, x in todo], fmt, **budget)
            answers = [(record(x, r).to_dict(), True) for x, r in zip(results, readings)]
        except Exception as e:  # noqa: BLE001 - reported on each line, the run goes on
            answers = [(E.error_object("engine_error", str(e) or type(e).__name__, index=None, expected=[], pos=None),
                        False)] * len(todo)
        for (n, _), (a, ok) in zip(todo, answers):
            out[n] = (json.dumps(a, ensure_ascii=False), ok)
    return out  # type: ignore[return-value]


def _budget(args: argparse.Namespace) -> dict:
    return {"inferences": args.inferences, "max_domain": args.max_domain, "time_limit": args.time_limit,
            "prover": args.prover}


def _jsonl(cmd: str, args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    answer = functools.partial(_answer, cmd, args.fmt, _budget(args), args.max_chars)
    # one process: big batches (fewer Prolog round trips); several: small ones (even shares)
    return jsonl.run(stdin, stdout, answer, BATCH if args.workers == 1 else BATCH // 4, args.workers)


class _Usage(Exception):
    """A command line that cannot be run as given: the message says what to give instead."""


def _story(args: argparse.Namespace, deadline: float | None = None) -> tuple[list, Any, list[str] | None, Reading]:
    """Premises, conclusion, (TPTP problems) the premises' names, and how they were read, from the
    command line, read until `deadline` (time.monotonic()) at most: ReadingTimeLimit past it."""
    if args.problem is not None and args.premises is not None:
        raise _Usage("give a problem file or --premises FILE, not both")
    path = args.problem or args.premises
    if args.problem is not None and not args.fmt.problem_files:
        raise _Usage("a problem file alone is read in TPTP only (--from tptp); in "
                     f"{args.fmt} give --premises FILE --conclusion TEXT")
    if path is None:
        raise _Usage("give --premises FILE and --conclusion TEXT (or, with --from tptp, a problem file), or --jsonl")
    if args.premises is not None and is_premises_formula(args.premises):
        raise _Usage(premises_is_a_file(args.premises))
    if args.fmt.problem_files:
        limits = Limits(args.max_chars, args.tptp_max_includes, args.tptp_max_bytes,
                        max_statements=args.tptp_max_statements)
        problem = read_problem_file("/dev/stdin" if path == "-" else path, args.tptp_root, limits=limits, free_variables=args.free_variables,
                                    deadline=deadline)
        if problem.conclusion is not None and args.conclusion is not None:
            raise _Usage(f"{path} has a conjecture ({problem.conclusion[0]}) and --conclusion gives another: "
                         "a problem has one conjecture")
        if problem.conclusion is None and args.conclusion is None:
            raise _Usage(f"{path} has no conjecture: add fof(name, conjecture, ...) or give --conclusion TEXT")
        conclusion = problem.conclusion[1] if problem.conclusion else _checked_text(args.conclusion, args)
        names = [n for n, _ in problem.premises]
        premises, conclusion, reading = _read(path, [f for _, f in problem.premises], conclusion, args,
                                              [f"{path}: {n}" for n in names], None, deadline)
        return premises, conclusion, names, reading
    if args.conclusion is None:
        raise _Usage("give --conclusion TEXT")
    text = read_text_file("/dev/stdin" if path == "-" else path)  # - is standard input, as the usage says
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise _Usage(f"{path}: no premises (the file is empty or blank). A story needs at least one premise; "
                     "to ask whether a conclusion holds with no premises, send {\"premises\": [], \"conclusion\": "
                     "...} with --jsonl")
    for n, line in lines:
        if msg := too_long(line, args.max_chars):
            raise _Usage(f"{path}:{n}: a formula of {msg}")
    premises, conclusion, reading = _read(path, [t for _, t in lines], _checked_text(args.conclusion, args), args,
                                          [f"{path}:{n}" for n, _ in lines], [n for n, _ in lines], deadline)
    return premises, conclusion, None, reading


def _read(path: str, premises: list, conclusion: Any, args: argparse.Namespace, labels: list[str],
          lines: list[int] | None, deadline: float | None = None) -> tuple[list, Any, Reading]:
    """`read_story` with its errors named by file and line (`lines`: each premise's line)."""
    try:
        return read_story(premises, conclusion, args.fmt, labels=labels, deadline=deadline)
    except ProblemError as e:
        if isinstance(e.cause, ArityError):
            raise _Usage(str(e.cause)) from None
        where = "--conclusion" if e.field == "conclusion" else (
            f"{path}:{lines[e.index]}" if lines is not None else labels[e.index])
        raise _Usage(f"{where}: {_hinted(e.cause, args.fmt)}") from None


def _hinted(cause: Exception, fmt: str) -> str:
    """A reading error, with the hint that names the fix when it is a parse error (common.explain)."""
    return explain(cause, cause.text, fmt, "--from") if isinstance(cause, LFParseError) else str(cause)


def _checked_text(text: str, args: argparse.Namespace) -> str:
    if msg := too_long(text, args.max_chars):
        raise _Usage(f"a formula of {msg}")
    return text


def _entails(args: argparse.Namespace) -> dict:
    """The story's answer within --time-limit, reading included; past it UNKNOWN (`time_limit`)."""
    deadline = time.monotonic() + args.time_limit
    try:
        premises, conclusion, names, reading = _story(args, deadline)
    except ReadingTimeLimit:
        return _out_of_time(args)
    left = deadline - time.monotonic()
    if left <= 0:
        return _out_of_time(args)
    answer = record(portfolio.decide(premises, conclusion, args.fmt, **{**_budget(args), "time_limit": left}),
                    reading).to_dict()
    if names is not None:
        answer["premises_used_names"] = [names[i] for i in answer.get("premises_used", [])]
    return answer


def _out_of_time(args: argparse.Namespace) -> dict:
    """UNKNOWN with reason `time_limit`: the time limit ran out while the story was read."""
    d = args.fmt
    return record(prove.Decision("UNKNOWN", reason="time_limit"),
                  Reading(d.name, d.free_variables, symbols=d.symbols)).to_dict()


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand (`equiv` or `entails`)."""
    cmd = argv[0]
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    parser = _parser(cmd)
    args = parser.parse_args(formulas_first_dash(parser, argv[1:]))
    args.fmt = dialect(args.fmt, args.free_variables, args.symbols)  # resolved once: the Dialect from here on
    if args.jsonl:
        return _jsonl(cmd, args, stdin, stdout)
    try:
        if cmd == "equiv":
            if args.a is None or args.b is None:
                raise _Usage("give two formulas, or --jsonl")
            a, b = _checked_text(args.a, args), _checked_text(args.b, args)
            try:  # within --time-limit, reading included
                answer = equivalence_in_time(a, b, args.fmt, _budget(args)).to_dict()
            except ProblemError as e:
                cause = e.cause
                raise _Usage(str(cause) if isinstance(cause, ArityError)
                             else f"{e.field.upper()}: {_hinted(cause, args.fmt)}") from None
        else:
            answer = _entails(args)
    except (_Usage, LFParseError, TPTPProblemError) as e:
        print(f"error: {_hinted(e, args.fmt) if isinstance(e, LFParseError) else e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    print(answer["verdict"], file=stdout)
    print(json.dumps(answer, indent=2, ensure_ascii=False), file=stdout)
    return 0
