"""Closed-vocabulary grammars: decoding constrained to the predicates and names of a lexicon."""

from __future__ import annotations

import re
from typing import Iterable

from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.parse import grammar_text

DEFAULT_VARIABLES = ("x", "y", "z", "a", "e", "i")


def _alternation(words: Iterable[str], suffix: str = "") -> str:
    items = sorted(set(words))
    if not items:
        raise ValueError("a closed vocabulary needs at least one word in each class")
    return " | ".join(f'"{w}{suffix}"' for w in items)


def closed_grammar(fmt: str, unary: Iterable[str], binary: Iterable[str], constants: Iterable[str],
                   variables: Iterable[str] = DEFAULT_VARIABLES) -> str:
    """The `fmt` grammar restricted to these predicates, constants and variables: only the
    PRED/VAR/CONST terminals and the atom rule change, so the trees stay the same."""
    for name, words, pattern in (("unary predicate", unary, r"[a-z][a-z0-9_]*"),
                                 ("binary predicate", binary, r"[a-z][a-z0-9_]*"),
                                 ("constant", constants, r"[A-Z][A-Za-z0-9_]*"),
                                 ("variable", variables, r"[a-z][0-9]*")):
        for w in words:
            if not re.fullmatch(pattern, w):
                raise ValueError(f"{name} {w!r} does not match {pattern}")
    d = dialect(fmt)
    if not d.amp:
        raise ValueError(f"closed vocabularies are for AmP's formats (fol, lisp), not {d.name}")
    text = grammar_text(d)
    fol = not d.s_expression  # FOL's predicate token carries its "(" (grammars/fol.lark); Lisp's atoms are ( p x )
    suffix = "(" if fol else ""
    atom = ('atom: PRED1 term ")"\n    | PRED2 term ", " term ")"' if fol
            else 'atom: "( " PRED1 " " term " )"\n    | "( " PRED2 " " term " " term " )"')
    text = re.sub(r"^atom:.*?\n(    \|.*\n)", atom + "\n", text, flags=re.M)
    text = re.sub(r"^PRED:.*$", f"PRED1: {_alternation(unary, suffix)}\nPRED2: {_alternation(binary, suffix)}", text, flags=re.M)
    text = re.sub(r"^VAR:.*$", f"VAR: {_alternation(variables)}", text, flags=re.M)
    consts = list(constants)
    if consts:
        text = re.sub(r"^CONST:.*$", f"CONST: {_alternation(consts)}", text, flags=re.M)
    else:  # no names at all: terms are variables only
        text = re.sub(r"^CONST:.*\n", "", text, flags=re.M)
        text = re.sub(r"^\?term: VAR\n\s+\| CONST\n", "?term: VAR\n", text, flags=re.M)
    return text
