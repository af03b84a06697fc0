"""What the `ambit logic` commands share: the dialect options, option types, the length limit,
and the hint that names the format a misread formula does parse in."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ambit.logic.syntax.dialect import CLI_NAMES, FREE_VARIABLES, NAMES, SYMBOLS, Dialect, dialect, dialects
from ambit.logic.syntax.reading import Reading, ReadingTimeLimit, read_pair, record
from ambit.logic.errors import MAX_CHARS, LFParseError
from ambit.logic.syntax.readers.hints import outside, parse_hint, reads_as  # every surface's hint

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


def formulas_first_dash(p: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`argv` with every word that starts with `-` but names no option of `p` read as a formula
    (`-p`: negation first), moved after `--`; an option's value that starts with `-` is joined to
    its option (`--conclusion=-p`). `argv` unchanged when no word needs it."""
    def option(word: str) -> argparse.Action | None:
        name = word.split("=", 1)[0]
        if name in p._option_string_actions:
            return p._option_string_actions[name]
        if word.startswith("--"):  # an abbreviation argparse accepts: a unique prefix of a long option
            hits = {a for o, a in p._option_string_actions.items() if o.startswith(name) and o.startswith("--")}
            return hits.pop() if len(hits) == 1 else None
        short = word[:2]  # -fnltk: a short option with its value attached
        return p._option_string_actions.get(short) if len(word) > 2 and short in p._option_string_actions else None

    def takes_value(action: argparse.Action, word: str) -> bool:
        return action.nargs is None and action.option_strings and "=" not in word and not (
            len(word) > 2 and not word.startswith("--")) and not isinstance(
            action, (argparse._StoreConstAction, argparse._StoreTrueAction, argparse._StoreFalseAction,
                     argparse._CountAction, argparse._HelpAction, argparse._VersionAction))

    options, positional, moved, i = [], [], False, 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            positional += argv[i + 1:]
            moved = True
            break
        action = option(word) if word.startswith("-") and word != "-" else None
        if action is not None:
            if takes_value(action, word) and i + 1 < len(argv):
                value = argv[i + 1]
                if value.startswith("-") and value != "-" and option(value) is None:
                    options.append(f"{word}={value}")
                    moved = True
                else:
                    options += [word, value]
                i += 2
                continue
            options.append(word)
        else:
            moved = moved or (word.startswith("-") and word != "-")
            positional.append(word)
        i += 1
    return options + ["--", *positional] if moved else list(argv)


def say_where_formulas_go(p: argparse.ArgumentParser) -> None:
    """`p`'s error about words it does not take ends with how formulas are read."""
    error = p.error

    def hinted(message: str) -> None:
        if "unrecognized arguments" in message:
            message += ("; a word that starts with '-' and names no option is read as a formula (-p), and every "
                        f"word after -- is one: put the options before it ({p.prog} [options] -- FORMULA ...)")
        error(message)

    p.error = hinted  # type: ignore[method-assign]


def usage_with_default(p: argparse.ArgumentParser, option: str, default: str) -> None:
    """`p`'s usage line with `option`'s default in it; call it once every argument is added."""
    text = p.format_usage().removeprefix("usage: ").rstrip("\n")
    p.usage = text.replace(f"{option}]", f"{option} (default {default})]", 1).replace("%", "%%")


def is_premises_formula(path: str) -> bool:
    """Whether a --premises value that names no file looks like a formula given inline."""
    return any(c in path for c in "()∀∃¬ ") and not Path(path).exists()


def premises_is_a_file(path: str) -> str:
    """The message for a formula given where --premises takes a file."""
    return (f"--premises takes a file (one premise per line, - for stdin), and {path!r} is no file: "
            "write the premises into a file, or pipe them: printf '%s\\n' PREMISE ... | ambit ... --premises -")


def dialect_of(argv: list[str], default: str) -> Dialect | None:
    """The dialect a command line asks for; None for an unknown name (its parser refuses it)."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--from", "--format", "-f", dest="fmt", default=default)
    known, _ = p.parse_known_args(argv)
    try:
        return dialect(known.fmt)
    except ValueError:
        return None


def _positive(text: str, unit: str) -> int:
    n = int(text)
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of {unit}, not {n}")
    return n


def positive_chars(text: str) -> int:
    """argparse type: a positive number of characters."""
    return _positive(text, "characters")


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
    return _positive(text, "inferences")


def equivalence_in_time(a: str, b: str, d: Dialect, budget: dict):
    """`ambit logic equiv A B`'s answer within budget["time_limit"] seconds, reading included:
    past it UNKNOWN (`time_limit`), never a late verdict. ProblemError as `read_pair` raises it."""
    from ambit.logic.engine.equivalence import Verdict
    from ambit.logic.provers import portfolio

    deadline = time.monotonic() + budget["time_limit"]
    try:
        fa, fb, reading = read_pair(a, b, d, deadline=deadline)
        left = deadline - time.monotonic()
    except ReadingTimeLimit:
        left = 0.0
    if left <= 0:
        return record(Verdict("UNKNOWN", None, None, {"reason": "time_limit"}),
                      Reading(d.name, d.free_variables, symbols=d.symbols))
    return record(portfolio.equivalent_batch([(fa, fb)], d, **{**budget, "time_limit": left})[0], reading)


def too_long(text: str, max_chars: int) -> str | None:
    """The message for a formula over `max_chars`, or None."""
    n = len(text)
    return f"{n} characters, over --max-chars {max_chars}" if n > max_chars else None


def explain(err: LFParseError, text: str, fmt: str, flag: str) -> str:
    """The error with what names the fix (logic.syntax.readers.hints) ending its first line."""
    return err.describe(parse_hint(text, fmt, flag))


__all__ = ["DEFAULT_MAX_CHARS", "add_dialect_options", "dialect_help", "dialect_of", "explain", "formulas_first_dash",
           "outside", "say_where_formulas_go", "parse_hint", "reads_as", "usage_with_default",
           "is_premises_formula", "premises_is_a_file", "positive_chars", "positive_inferences",
           "positive_seconds", "too_long"]
