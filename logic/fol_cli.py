"""`python -m logic equiv|entails --from folio|nltk|tptp ...`: full first-order checks.

    python -m logic equiv A B --from folio
    python -m logic equiv --from folio --jsonl          # {"a": ..., "b": ...} per line
    python -m logic entails --from folio --premises FILE --conclusion TEXT
    python -m logic entails --from folio --jsonl        # {"premises": [...], "conclusion": ...}

JSONL: exactly one output line per input line, in order: the verdict with its evidence, or
{"error": {"message", "field", "index", "pos", "expected"}} for a line that cannot be read;
the run goes on and the exit status is 2 when some line failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from . import fol
from .errors import LFParseError
from .parse import DIALECTS, parse

BATCH = 64


def _parser(cmd: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"python -m logic {cmd}")
    p.add_argument("--from", dest="fmt", choices=DIALECTS, default="folio", help="input dialect (default folio)")
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin, one answer per line on stdout")
    p.add_argument("--inferences", type=int, default=fol.DEFAULT_INFERENCES, help="inference budget per stage")
    p.add_argument("--max-domain", type=int, default=fol.DEFAULT_MAX_DOMAIN, help="largest model searched")
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


def _jsonl(cmd: str, args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    budget = {"inferences": args.inferences, "max_domain": args.max_domain}
    status = 0
    pending: list[tuple[int, tuple]] = []
    done: dict[int, dict] = {}
    nxt = 0

    def flush() -> None:
        nonlocal nxt
        if pending:
            items = [x for _, x in pending]
            if cmd == "equiv":
                answers = [v.to_dict() for v in fol.equivalent_batch(items, args.fmt, **budget)]
            else:
                answers = [d.to_dict() for d in fol.decide_batch(items, args.fmt, **budget)]
            done.update({i: a for (i, _), a in zip(pending, answers)})
            pending.clear()
        while nxt in done:
            stdout.write(json.dumps(done.pop(nxt), ensure_ascii=False) + "\n")
            nxt += 1
        stdout.flush()

    read = _read_equiv if cmd == "equiv" else _read_story
    for n, line in enumerate(stdin):
        try:
            pending.append((n, read(json.loads(line), args.fmt)))
        except _Bad as e:
            done[n], status = _error(e.err, e.field, e.index), 2
        except ValueError as e:  # not JSON
            done[n], status = _error(e, "", None), 2
        if len(pending) >= BATCH:
            flush()
    flush()
    return status


def main(argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point; argv[0] is the subcommand (`equiv` or `entails`)."""
    cmd = argv[0]
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    args = _parser(cmd).parse_args(argv[1:])
    if args.jsonl:
        return _jsonl(cmd, args, stdin, stdout)
    budget = {"inferences": args.inferences, "max_domain": args.max_domain}
    try:
        if cmd == "equiv":
            if args.a is None or args.b is None:
                print("error: give two formulas, or --jsonl", file=sys.stderr)
                return 2
            answer = fol.equivalent_batch([(args.a, args.b)], args.fmt, **budget)[0].to_dict()
        else:
            if args.premises is None or args.conclusion is None:
                print("error: give --premises FILE and --conclusion TEXT, or --jsonl", file=sys.stderr)
                return 2
            with open(args.premises, encoding="utf-8") as fh:
                premises = [line.strip() for line in fh if line.strip()]
            answer = fol.decide(premises, args.conclusion, args.fmt, **budget).to_dict()
    except LFParseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: cannot read {args.premises}: {e.strerror}", file=sys.stderr)
        return 2
    print(answer["verdict"], file=stdout)
    print(json.dumps(answer, indent=2, ensure_ascii=False), file=stdout)
    return 0
