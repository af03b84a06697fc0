"""What the `ambit logic` commands share: option types, the length limit, and the hint that
names the format a misread formula does parse in."""

from __future__ import annotations

import argparse

from .errors import LFParseError
from .parse import parse

DEFAULT_MAX_CHARS = 4_096  # the server's limit on an LF (server/limits.py, max_lf_chars)
FORMAT_NAMES = {"fol": "FOL", "lisp": "Lisp"}


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
    if fmt not in FORMAT_NAMES:
        return str(err)
    other = "lisp" if fmt == "fol" else "fol"
    try:
        parse(text, other)
    except LFParseError:
        return str(err)
    return f"{err}; this looks like {FORMAT_NAMES[other]}: pass {flag} {other}"


__all__ = ["DEFAULT_MAX_CHARS", "explain", "positive_chars", "positive_inferences", "positive_seconds", "too_long"]
