"""The hand-written reader of FOLIO formulas: the trees of `grammars/folio.lark` (read by
full_parse.py) at a fraction of the cost, on the core of readers/core.py, which says how a
reader stands in for Lark.

The grammar's levels: ↔ (left) > → (right) > ∨ ⊕ (left) > ∧ (left) > ¬; a quantifier, `∀x`, in
any operand position takes everything up to the closing parenthesis or the end (what the
grammar's shift preference does). `read` gives names as `Const`s, and `_bind` in full_parse.py
turns bound ones into variables, as for Lark's trees; `read_bound` does that as it reads (a
quantifier's variable is in scope exactly while its body is read), and finds the free names
spelled as variables and the first dotted quantified variable on the way.
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import Formula
from ambit.logic.syntax.readers import Reject, new_and, new_iff, new_implies, new_or, new_quant, new_xor, per_thread
from ambit.logic.syntax.readers.core import (END, GROUP, LEFT, NARY, NOT, READER_DEPTH, RIGHT, Binder, Syntax,
                                             connectives, names)

# a symbol, or a name (no symbol is a word character and every name starts with one, so a token
# is a name exactly when it is not a symbol)
_TOKEN = re.compile(r"[ \t\f\r\n]*([∀∃¬∧∨⊕→↔⟷=≠(),]|[^\W_][\w\-'’.]*)")
_KIND = {"∀": "forall", "∃": "exists"}
_NOT_NAME = frozenset({*"∀∃¬∧∨⊕→↔⟷=≠(),", END})
_SYNTAX = Syntax(_TOKEN, connectives((1, LEFT, new_iff, "↔", "⟷"), (2, RIGHT, new_implies, "→"),
                                      (3, NARY, new_or, "∨"), (3, LEFT, new_xor, "⊕"), (4, NARY, new_and, "∧")),
                 not_name=_NOT_NAME, equalities={"=": False, "≠": True})


def _reader(binding: bool) -> Callable[[str, Callable[[str], bool] | None], tuple[Formula, list[str], str | None]]:
    """`run(text, spelled)`: the formula in `text`, the free names spelled as variables (with
    `binding`) and the first quantified variable that ends with '.' (None: none)."""
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
    """The FOLIO formula in `text` with its bound names as variables (what `_bind` makes of
    `read`'s tree), the names left free that `spelled` says are spelled as variables (in order
    of first use), and the first quantified variable that ends with '.' (None: none); Reject for
    anything `read` rejects."""
    return _read_bound()(text, spelled)


__all__ = ["READER_DEPTH", "Reject", "read", "read_bound"]
