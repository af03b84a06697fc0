"""What the `ambit logic` commands share: the dialect options (`--from`, its alias `--format`,
`--free-variables`), option types, the length limit, and the hint that names the format a
misread formula does parse in."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from ambit.logic.syntax.dialect import (CLI_NAMES, FREE_VARIABLES, NAMES, SYMBOLS, Reading, dialect, dialects, read_pair,
                                       record)
from ambit.logic.syntax.reading import ReadingTimeLimit
from ambit.logic.errors import MAX_CHARS, LFParseError
from ambit.logic.syntax.parse import parse

DEFAULT_MAX_CHARS = MAX_CHARS  # the server's limit on an LF (server/guard/limits.py, max_lf_chars)


def dialect_help() -> str:
    """One line per dialect, for --help: its name, what it admits and an example."""
    return "; ".join(f"{d.name} ({'AmP fragment' if d.amp else 'full FOL'}): {d.description}" for d in dialects())


def add_dialect_options(p: argparse.ArgumentParser, default: str) -> None:
    """`--from DIALECT` (alias `--format`, `-f`) over every dialect, and `--free-variables`."""
    p.add_argument("--from", "--format", "-f", dest="fmt", choices=CLI_NAMES, default=default, metavar="DIALECT",
                   help=f"input dialect, one of {', '.join(NAMES)} (default {default}; --format is the same "
                        f"option). {dialect_help()}")
    p.add_argument("--free-variables", choices=FREE_VARIABLES, default=None,
                   help="a name no quantifier binds, spelled as a variable: universal (closed under ∀; the "
                        "default in folio, nltk, tptp), constant, or error (the default in fol, lisp)")
    p.add_argument("--symbols", choices=SYMBOLS, default=None,
                   help="shared (the default in folio, nltk, tptp, prover9: a name is a predicate or a "
                        "function/constant, never both, as in Prover9, E and TPTP; a mix is an error naming both "
                        "uses) or separate (a predicate and a constant of one spelling are two symbols)")


def usage_with_default(p: argparse.ArgumentParser, option: str, default: str) -> None:
    """`p`'s usage line with the default of `option` in it (`[--from DIALECT (default fol)]`),
    so that a user who reads only the usage line knows which dialect a bare formula is read in.
    Call it once every argument is added."""
    text = p.format_usage().removeprefix("usage: ").rstrip("\n")
    p.usage = text.replace(f"{option}]", f"{option} (default {default})]", 1).replace("%", "%%")


def is_premises_formula(path: str) -> bool:
    """Whether a --premises value that names no file looks like a formula given inline."""
    return any(c in path for c in "()∀∃¬ ") and not Path(path).exists()


def premises_is_a_file(path: str) -> str:
    """The message for a formula given where --premises takes a file."""
    return (f"--premises takes a file (one premise per line, - for stdin), and {path!r} is no file: "
            "write the premises into a file, or pipe them: printf '%s\\n' PREMISE ... | ambit ... --premises -")


def dialect_of(argv: list[str], default: str) -> str:
    """The dialect an `ambit logic` command line asks for (`--from`, `--format`, `-f`), or
    `default`; an unknown name is left for the command's own parser to refuse."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--from", "--format", "-f", dest="fmt", default=default)
    known, _ = p.parse_known_args(argv)
    return known.fmt


def is_amp(name: str) -> bool:
    """Whether `name` is one of AmP's formats (False for an unknown name)."""
    try:
        return dialect(name).amp
    except ValueError:
        return False


def positive_chars(text: str) -> int:
    """argparse type: a positive number of characters."""
    n = int(text)
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of characters, not {n}")
    return n


def positive_seconds(text: str) -> float:
    """argparse type: a positive, finite number of seconds."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return x


def positive_inferences(text: str) -> int:
    """argparse type: a positive inference budget."""
    n = int(text)
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of inferences, not {n}")
    return n


def equivalence_in_time(a: str, b: str, fmt: str, free_variables: str | None, symbols: str | None, budget: dict):
    """`ambit logic equiv A B`'s answer within budget["time_limit"] seconds, reading included:
    the two formulas are read until the deadline, and the provers get what is left of it. Past
    it: UNKNOWN with reason `time_limit`, never a late verdict. ProblemError as `read_pair`
    raises it (a formula that does not read)."""
    from ambit.logic.engine.equivalence import Verdict
    from ambit.logic.provers import portfolio

    deadline = time.monotonic() + budget["time_limit"]
    try:
        fa, fb, reading = read_pair(a, b, fmt, free_variables, symbols, deadline=deadline)
        left = deadline - time.monotonic()
    except ReadingTimeLimit:
        left = 0.0
    if left <= 0:
        d = dialect(fmt, free_variables, symbols)
        return record(Verdict("UNKNOWN", None, None, {"reason": "time_limit"}),
                      Reading(d.name, d.free_variables, symbols=d.symbols))
    return record(portfolio.equivalent_batch([(fa, fb)], fmt, **{**budget, "time_limit": left})[0], reading)


def too_long(text: str, max_chars: int) -> str | None:
    """The message for a formula over `max_chars`, or None."""
    if len(text) > max_chars:
        return f"{len(text)} characters, over --max-chars {max_chars}"
    return None


def explain(err: LFParseError, text: str, fmt: str, flag: str) -> str:
    """The error with what names the fix at the end of its first line: what ambit does not read
    (`outside`), FOLIO's ASCII spelling respelled, the dialect that reads the text ("reads as
    nltk: try --from nltk"; between AmP's two formats "this looks like Lisp: pass --format
    lisp"), or the full first-order dialects for a connective outside AmP's fragment."""
    hint = parse_hint(text, fmt, flag)
    if hint is None:
        return str(err)
    first, newline, rest = str(err).partition("\n")
    return f"{first}; {hint}{newline}{rest}"


def parse_hint(text: str, fmt: str, flag: str) -> str | None:
    """What names the fix for `text` that `fmt` does not read (None: nothing does): the one hint
    of `ambit logic` (`explain`) and of the server's INVALID_ARGUMENT for a malformed formula
    (`server.service.errors.MalformedLF`, with `flag` "--format", the CLI's alias of --from and
    the request's field)."""
    return outside(text) or _folio_ascii(text, fmt) or _other_dialect(text, fmt, flag) or _fragment(text, fmt, flag)


def _other_dialect(text: str, fmt: str, flag: str) -> str | None:
    other = reads_as(text, fmt)
    if other is None:
        return None
    if is_amp(other) and is_amp(fmt):
        return f"this looks like {dialect(other).title}: pass {flag} {other}"
    return f"reads as {other}: try {flag} {other}"


def _folio_ascii(text: str, fmt: str) -> str | None:
    """FOLIO's decoder writes its symbols in ASCII (`all x (Dog(x) -> -Cat(x))`); the folio
    reader reads FOLIO's own: name the formula in them (any dialect whose decoder writes
    another spelling than its reader's: `Dialect.decoded`)."""
    d = dialect(fmt)
    spelled = d.from_decoded(text)
    if spelled == text:  # not the decoder's spelling (or a dialect whose decoder writes its own)
        return None
    return (f"this is the {d.title} decoder's ASCII spelling; in {d.title}'s symbols, which --from {d.name} reads: "
            f"{spelled}")


_FULL_CONNECTIVES = re.compile(r"\bNOT\b|\bIMPLIES\b|->|=>|<->|¬|→|↔|~|(?<![\w)])-\s*[A-Za-z(]")


def _fragment(text: str, fmt: str, flag: str) -> str | None:
    """A negation or an implication given to one of AmP's formats, which have neither."""
    if not is_amp(fmt) or not _FULL_CONNECTIVES.search(text):
        return None
    full = "|".join(d.name for d in dialects() if not d.amp)
    return (f"{fmt} is AmP's fragment (exists, forall, AND, OR: no negation or implication); full first-order "
            f"logic reads with {flag} {full}")


def reads_as(text: str, fmt: str) -> str | None:
    """The first dialect of the registry, other than `fmt`, that reads `text` (None: none does).
    Every registered dialect is tried, so a dialect added to the registry is named here too."""
    for d in dialects():
        if d.name == fmt:
            continue
        try:
            parse(text, d.name)
        except ValueError:  # LFParseError, or a reading error of that dialect
            continue
        return d.name
    return None


_QUANTIFIED = re.compile(r"(?:\ball\b|\bexists\b|\bforall\b|∀|∃|!\s*\[|\?\s*\[)\s*([A-Za-z_]\w*)")


def outside(text: str) -> str | None:
    """What in `text` is outside first-order logic, which is all ambit reads: a lambda (NLTK's
    `\\x.man(x)`), a quantified predicate (`exists P . P(a)`), a predication applied again
    (`dog(a)(b)`). None when nothing is."""
    if re.search(r"\\\s*[A-Za-z_]|λ", text):
        return ("lambdas (\\x. ...) are outside what ambit reads: it reads first-order formulas; "
                "apply the lambda (beta-reduce) first")
    if re.search(r"\w\([^()]*\)\(", text):
        return "a predication applied again (dog(a)(b)) is higher order, outside what ambit reads (first order)"
    body = _QUANTIFIED.sub(" ", text)  # the quantifiers' own variables taken out
    for var in _QUANTIFIED.findall(text):
        if re.search(rf"(?<!\w){re.escape(var)}\(", body):
            return (f"a quantified predicate or function ({var}(...)) is higher order, outside what ambit "
                    "reads (first order)")
    return None


__all__ = ["DEFAULT_MAX_CHARS", "add_dialect_options", "dialect_help", "dialect_of", "explain", "is_amp", "outside",
           "parse_hint",
           "reads_as", "usage_with_default", "is_premises_formula", "premises_is_a_file",
           "positive_chars", "positive_inferences", "positive_seconds", "too_long"]
