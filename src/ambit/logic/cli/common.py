"""What the `ambit logic` commands share: the dialect options (`--from`, its alias `--format`,
`--free-variables`), option types, the length limit, and the hint that names the format a
misread formula does parse in."""

from __future__ import annotations

import argparse

from ambit.logic.syntax.dialect import FREE_VARIABLES, NAMES, dialect, dialects
from ambit.logic.errors import LFParseError
from ambit.logic.syntax.parse import parse

DEFAULT_MAX_CHARS = 4_096  # the server's limit on an LF (server/guard/limits.py, max_lf_chars)
FORMAT_NAMES = {"fol": "FOL", "lisp": "Lisp"}


def dialect_help() -> str:
    """One line per dialect, for --help: its name, what it admits and an example."""
    return "; ".join(f"{d.name} ({'AmP fragment' if d.amp else 'full FOL'}): {d.description}" for d in dialects())


def add_dialect_options(p: argparse.ArgumentParser, default: str) -> None:
    """`--from DIALECT` (alias `--format`, `-f`) over every dialect, and `--free-variables`."""
    p.add_argument("--from", "--format", "-f", dest="fmt", choices=NAMES, default=default, metavar="DIALECT",
                   help=f"input dialect, one of {', '.join(NAMES)} (default {default}; --format is the same "
                        f"option). {dialect_help()}")
    p.add_argument("--free-variables", choices=FREE_VARIABLES, default=None,
                   help="a name no quantifier binds, spelled as a variable: universal (closed under ∀; the "
                        "default in folio, nltk, tptp), constant, or error (the default in fol, lisp)")


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


def too_long(text: str, max_chars: int) -> str | None:
    """The message for a formula over `max_chars`, or None."""
    if len(text) > max_chars:
        return f"{len(text)} characters, over --max-chars {max_chars}"
    return None


def explain(err: LFParseError, text: str, fmt: str, flag: str) -> str:
    """The error, plus "this looks like Lisp: pass --format lisp" when the text parses in the
    other of AmP's two formats (only AmP's formats get the hint)."""
    if not is_amp(fmt):
        return str(err)
    other = next(n for n in FORMAT_NAMES if n != dialect(fmt).name)
    try:
        parse(text, other)
    except LFParseError:
        return str(err)
    return f"{err}; this looks like {FORMAT_NAMES[other]}: pass {flag} {other}"


__all__ = ["DEFAULT_MAX_CHARS", "add_dialect_options", "dialect_help", "dialect_of", "explain", "is_amp",
           "positive_chars", "positive_inferences", "positive_seconds", "too_long"]
