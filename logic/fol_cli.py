"""`python -m logic equiv|entails --from folio|nltk|tptp ...`: full first-order checks.

    python -m logic equiv A B --from folio
    python -m logic equiv --from folio --jsonl          # {"a": ..., "b": ...} per line
    python -m logic entails --from folio --premises FILE --conclusion TEXT
    python -m logic entails --from folio --jsonl        # {"premises": [...], "conclusion": ...}
    python -m logic entails --from tptp --prover prolog ...   # ambit's prover alone (default: the portfolio
                                                              # of logic/portfolio.py when E is installed)

JSONL: exactly one output line per input line, in order: the verdict with its evidence, or
{"error": {"message", "field", "index", "pos", "expected"}} for a line that cannot be read;
the run goes on and the exit status is 2 when some line failed.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import IO, Any

from . import fol, jsonl, portfolio
from .errors import LFParseError
from .parse import DIALECTS, parse

BATCH = 64


def _parser(cmd: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"python -m logic {cmd}")
    p.add_argument("--from", dest="fmt", choices=DIALECTS, default="folio", help="input dialect (default folio)")
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin, one answer per line on stdout")
    p.add_argument("--inferences", type=int, default=fol.DEFAULT_INFERENCES, help="inference budget per stage")
    p.add_argument("--max-domain", type=int, default=fol.DEFAULT_MAX_DOMAIN, help="largest model searched")
    p.add_argument("--prover", choices=portfolio.PROVERS, default=None,
                   help="prolog: ambit's prover alone; portfolio: with E and Z3 beside it "
                        "(default: portfolio when eprover is installed, else prolog)")
    p.add_argument("--workers", type=jsonl.positive_int, default=1,
                   help="with --jsonl: Prolog processes checking batches side by side (default 1)")
    if cmd == "equiv":
        p.add_argument("a", nargs="?")
        p.add_argument("b", nargs="?")
    else:
        p.add_argument("--premises", help="file with one premise per line")
        p.add_argument("--conclusion")
    return p


def _error(e: Exception, field: str, index: int | None) -> dict:
    if isinstance(e, LFParseError):
        return {"error": {"message": str(e.reason), "field": field, "index": index, "pos": e.pos,
                          "expected": list(e.expected)}}
    return {"error": {"message": str(e), "field": field, "index": index, "pos": None, "expected": []}}


def _read_equiv(row: Any, fmt: str) -> tuple:
    if not isinstance(row, dict):
        raise _Bad("expected an object {\"a\": ..., \"b\": ...}", "", None)
    out = []
    for k in ("a", "b"):
        if not isinstance(row.get(k), str):
            raise _Bad(f"field {k!r} must be a formula string", k, None)
        try:
            out.append(parse(row[k], fmt))
        except LFParseError as e:
            raise _Bad(e, k, None) from None
    return tuple(out)


def _read_story(row: Any, fmt: str) -> tuple:
    if not isinstance(row, dict) or not isinstance(row.get("premises"), list):
        raise _Bad("expected an object {\"premises\": [...], \"conclusion\": ...}", "premises", None)
    ps = []
    for i, p in enumerate(row["premises"]):
        try:
            ps.append(parse(p, fmt) if isinstance(p, str) else _fail("a premise must be a string"))
        except (LFParseError, ValueError) as e:
            raise _Bad(e, "premises", i) from None
    if not isinstance(row.get("conclusion"), str):
        raise _Bad("field 'conclusion' must be a formula string", "conclusion", None)
    try:
        return ps, parse(row["conclusion"], fmt)
    except LFParseError as e:
        raise _Bad(e, "conclusion", None) from None


def _fail(msg: str):
    raise ValueError(msg)


class _Bad(Exception):
    def __init__(self, err: Any, field: str, index: int | None) -> None:
        super().__init__(str(err))
        self.err = err if isinstance(err, Exception) else ValueError(err)
        self.field, self.index = field, index


def _answer(cmd: str, fmt: str, budget: dict, lines: list[str]) -> list[tuple[str, bool]]:
    """One batch of JSON lines: (output line, ok) per line, in order. A line that cannot be
    read gets its error; when the checks themselves fail, every readable line gets that error."""
    out: list[tuple[str, bool] | None] = [None] * len(lines)
    todo: list[tuple[int, tuple]] = []
    read = _read_equiv if cmd == "equiv" else _read_story
    for n, line in enumerate(lines):
        try:
            todo.append((n, read(json.loads(line), fmt)))
        except _Bad as e:
            out[n] = (json.dumps(_error(e.err, e.field, e.index), ensure_ascii=False), False)
        except ValueError as e:  # not JSON
            out[n] = (json.dumps(_error(e, "", None), ensure_ascii=False), False)
    if todo:
        items = [x for _, x in todo]
        try:
            if cmd == "equiv":
                answers = [(v.to_dict(), True) for v in portfolio.equivalent_batch(items, fmt, **budget)]
            else:
                answers = [(d.to_dict(), True) for d in portfolio.decide_batch(items, fmt, **budget)]
        except Exception as e:  # noqa: BLE001 - reported on each line, the run goes on
            answers = [(_error(e, "", None), False)] * len(todo)
        for (n, _), (a, ok) in zip(todo, answers):
            out[n] = (json.dumps(a, ensure_ascii=False), ok)
    return out  # type: ignore[return-value]


def _jsonl(cmd: str, args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    budget = {"inferences": args.inferences, "max_domain": args.max_domain, "prover": args.prover}
    answer = functools.partial(_answer, cmd, args.fmt, budget)
    # one process: big batches (fewer Prolog round trips); several: small ones (even shares)
    return jsonl.run(stdin, stdout, answer, BATCH if args.workers == 1 else BATCH // 4, args.workers)


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand (`equiv` or `entails`)."""
    cmd = argv[0]
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    args = _parser(cmd).parse_args(argv[1:])
    if args.jsonl:
        return _jsonl(cmd, args, stdin, stdout)
    budget = {"inferences": args.inferences, "max_domain": args.max_domain, "prover": args.prover}
    try:
        if cmd == "equiv":
            if args.a is None or args.b is None:
                print("error: give two formulas, or --jsonl", file=sys.stderr)
                return 2
            answer = portfolio.equivalent_batch([(args.a, args.b)], args.fmt, **budget)[0].to_dict()
        else:
            if args.premises is None or args.conclusion is None:
                print("error: give --premises FILE and --conclusion TEXT, or --jsonl", file=sys.stderr)
                return 2
            with open(args.premises, encoding="utf-8") as fh:
                premises = [line.strip() for line in fh if line.strip()]
            answer = portfolio.decide(premises, args.conclusion, args.fmt, **budget).to_dict()
    except LFParseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: cannot read {args.premises}: {e.strerror}", file=sys.stderr)
        return 2
    print(answer["verdict"], file=stdout)
    print(json.dumps(answer, indent=2, ensure_ascii=False), file=stdout)
    return 0
