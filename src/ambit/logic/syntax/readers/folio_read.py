"""The hand-written reader of FOLIO formulas: the trees of `grammars/folio.lark` at a fraction of
the cost, on readers/core.py. Levels: ↔ (left) > → (right) > ∨ ⊕ (left) > ∧ (left) > ¬; a quantifier
takes everything up to the closing parenthesis or the end (the grammar's shift preference)."""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import Formula
from ambit.logic.syntax.readers import Reject, new_and, new_iff, new_implies, new_or, new_quant, new_xor, per_thread
from ambit.logic.syntax.readers.core import (END, GROUP, LEFT, NARY, NOT, READER_DEPTH, RIGHT, Binder, Syntax,
                                             connectives, names)

# a symbol, or a name (every name starts with a word character, which no symbol is)
_TOKEN = re.compile(r"[ \t\f\r\n]*([∀∃¬∧∨⊕→↔⟷=≠(),]|[^\W_][\w\-'’.]*)")
_KIND = {"∀": "forall", "∃": "exists"}
_NOT_NAME = frozenset({*"∀∃¬∧∨⊕→↔⟷=≠(),", END})
_SYNTAX = Syntax(_TOKEN, connectives((1, LEFT, new_iff, "↔", "⟷"), (2, RIGHT, new_implies, "→"),
                                      (3, NARY, new_or, "∨"), (3, LEFT, new_xor, "⊕"), (4, NARY, new_and, "∧")),
                 not_name=_NOT_NAME, equalities={"=": False, "≠": True})


def _reader(binding: bool) -> Callable[[str, Callable[[str], bool] | None], tuple[Formula, list[str], str | None]]:
    """`run(text, spelled)`: the formula, free names spelled as variables, the dotted one."""
    toks: list[str] = []
    b = Binder(binding)
    bound = b.bound
    dotted: str | None = None

    def quantifier(s: str, depth: int) -> Formula:
        """`∀x` or `∃x` and its body: a whole formula."""
        nonlocal dotted
        v = toks.pop()
        if v in _NOT_NAME:
            raise Reject
        if dotted is None and v.endswith("."):
            dotted = v
        bound.append(v)
        body = expr(1, depth + 1)
        bound.pop()
        return new_quant(_KIND[s], v, body)

    prefixes = {"¬": NOT, "(": GROUP, "∀": quantifier, "∃": quantifier}
    (expr, _, _, read_text), _ = names(_SYNTAX, toks, bound, prefixes, b.constant)

    def run(text: str, spelled: Callable[[str], bool] | None) -> tuple[Formula, list[str], str | None]:
        nonlocal dotted
        dotted = None
        b.start(spelled)
        return read_text(text), list(b.free), dotted

    return run


_read, _read_bound = per_thread(lambda: _reader(False)), per_thread(lambda: _reader(True))


def read(text: str) -> Formula:
    """The FOLIO formula in `text` (names as constants); Reject for anything else."""
    return _read()(text, None)[0]


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str], str | None]:
    """The FOLIO formula with bound names as variables, the free names `spelled` as variables, and
    the first quantified variable ending with '.'; Reject as `read`."""
    return _read_bound()(text, spelled)


__all__ = ["READER_DEPTH", "Reject", "read", "read_bound"]
