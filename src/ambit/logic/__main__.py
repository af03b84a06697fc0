"""`ambit logic canon|check|equiv|entails ...`: the logic layer on the command line.

Formats: fol and lisp (AmP's logical forms), folio (Unicode, as in FOLIO), nltk (nltk.sem.logic)
tptp (TPTP FOF, bare formulas, fof(...) lines or whole problem files) and prover9 (LADR:
all x (p(x) -> q(x)), list terms, free names u-z are variables).

  canon  [--from FORMAT] [--to FORMAT] [--vars amp|v] [--max-chars 4096]
         one LF per line on stdin -> its canonical form per line on stdout, same order; a line
         that fails to parse: a message on stderr (line number, position), an empty line in its
         place, and exit status 2 at the end. Only fol and lisp are canonicalised; the other
         formats are converted as they are (into fol/lisp only what fits AmP's fragment).
  check  FILE.jsonl --field lf --format FORMAT [--max-chars 4096]
         parses every row; prints parsed / failed counts and the first failures. An LF longer
         than --max-chars (default: the server's limit, 4,096) fails; a file with no rows is an
         error (exit 1). A string that fails in one of AmP's formats but parses in the other
         says so ("this looks like FOL: pass --format fol"); one another dialect reads says which
         ("reads as nltk: try --from nltk").
  equiv  A B [--from DIALECT] | --from DIALECT --jsonl        (default dialect: fol)
  entails [--from DIALECT] --premises FILE --conclusion TEXT | --from DIALECT --jsonl   (default: folio)
  entails --from tptp PROBLEM.p [--tptp-root DIR]   roles read: axioms, hypotheses, one conjecture
         DIALECT: fol, lisp (AmP's fragment; equiv answers by AmP's procedure first and keeps its
         JSONL shape, ambit/logic/cli/equiv.py), folio, nltk, tptp, prover9 (full first-order logic:
         proofs and checked countermodels, ambit/logic/cli/prove.py). --format is the same option.
  equiv and entails take --time-limit SECONDS, --inferences N, --max-chars N, --prover
  prolog|portfolio and --free-variables universal|constant|error (how a name no quantifier binds
  is read: universal, closed under ∀, is the default in folio, nltk and tptp; error in fol and
  lisp), and --symbols shared|separate (shared, the full dialects' default: one name as a predicate
  and as a constant or function is an error naming both uses, as in Prover9, E and TPTP); an answer over budget is UNKNOWN with its reason (time_limit, inference_limit,
  memory_limit, domain_limit, outside_fragment). `ambit logic COMMAND --help` for every option.
"""

from __future__ import annotations

import argparse
import itertools
import sys

from ambit import _files
from ambit.logic import LFParseError, parse
from ambit.logic.errors import RenderError
from ambit.logic.syntax.dialect import FOL, dialect
from ambit.logic.syntax.parse import DIALECTS
from ambit.logic.syntax.render import render
from ambit.logic.cli.common import DEFAULT_MAX_CHARS, explain, positive_chars


def _canon(argv: list[str]) -> int:
    from ambit.logic.syntax.canonical import VAR_MODES, canonical_string

    ap = argparse.ArgumentParser(prog="ambit logic canon", description="Canonicalise LFs, one per line on stdin.")
    ap.add_argument("--from", "--format", dest="src", choices=DIALECTS, default=FOL,
                    help="input format (default fol; --format is the same option)")
    ap.add_argument("--to", dest="dst", choices=DIALECTS, default=None, help="output format (default: same as --from)")
    ap.add_argument("--vars", choices=VAR_MODES, default="amp", help="variable naming: amp (x y z / a e i) or v (v0 v1 ...)")
    ap.add_argument("--max-chars", type=positive_chars, default=DEFAULT_MAX_CHARS,
                    help=f"longest LF read, in characters (default {DEFAULT_MAX_CHARS}, the server's limit)")
    args = ap.parse_args(argv)
    failed, out, dst = 0, sys.stdout, args.dst or args.src
    for lineno, line in enumerate(sys.stdin, start=1):
        text, why = line.rstrip("\r\n"), None
        if len(text) > args.max_chars:
            why = f"{len(text)} characters, over --max-chars {args.max_chars}"
        else:
            try:
                f = parse(text, args.src)
                amp = dialect(args.src).amp and dialect(dst).amp
                out.write((canonical_string(f, dst, args.vars) if amp else render(f, dst)) + "\n")
            except LFParseError as e:
                why = explain(e, text, args.src, "--from")
            except RenderError as e:
                why = str(e)
        if why is not None:
            failed += 1
            print(f"line {lineno}: {why}", file=sys.stderr)
            out.write("\n")
    out.flush()
    return 2 if failed else 0


def _check(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="ambit logic check", description="Parse every row of a JSONL file.")
    ap.add_argument("file")
    ap.add_argument("--field", default="lf", help="the JSON field holding the LF (default lf)")
    ap.add_argument("--format", "--from", dest="format", choices=DIALECTS, default=FOL,
                    help="LF format (default fol; --from is the same option)")
    ap.add_argument("--show", type=int, default=5, help="how many failures to print (default 5)")
    ap.add_argument("--max-chars", type=positive_chars, default=DEFAULT_MAX_CHARS,
                    help=f"longest LF read, in characters (default {DEFAULT_MAX_CHARS}, the server's limit)")
    args = ap.parse_args(argv)
    ok, failures = 0, []

    def fail(number: int, why: str) -> bool:  # a line over the cap, not UTF-8, not bounded JSON: counted
        failures.append(f"{args.file}:{number}: {why}")
        return True

    try:  # a regular file, no link followed; each line under the file layer's line cap, read as it comes
        rows = _files.iter_json_rows(args.file, set_aside=fail)
        first = next(rows, None)
    except OSError as e:
        print(f"cannot read {e}", file=sys.stderr)
        return 2
    for where, row in itertools.chain([first] if first is not None else [], rows):
        try:
            text = row[args.field]
            if isinstance(text, str) and len(text) > args.max_chars:
                failures.append(f"{where}: field {args.field!r}: {len(text)} characters, "
                                f"over --max-chars {args.max_chars}")
                continue
            parse(text, args.format)
            ok += 1
        except (KeyError, TypeError):
            failures.append(f"{where}: no field {args.field!r}")
        except LFParseError as e:
            failures.append(f"{where}: field {args.field!r}: {explain(e, text, args.format, '--format')}")
    if not ok and not failures:
        print(f"{args.file}: no rows to check (the file is empty or blank)", file=sys.stderr)
        return 1
    print(f"parsed: {ok}  failed: {len(failures)}")
    for f in failures[: args.show]:
        print(f)
    return 2 if failures else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "canon":
        return _canon(rest)
    if cmd == "check":
        return _check(rest)
    if cmd in ("equiv", "entails"):  # one command surface; the dialect decides who answers
        from ambit.logic.cli import main as check_main

        return check_main(argv)
    print(f"unknown command {cmd!r}\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    from ambit._entry import run_quietly_on_broken_pipe

    run_quietly_on_broken_pipe(main)  # `... | head` ends quietly
