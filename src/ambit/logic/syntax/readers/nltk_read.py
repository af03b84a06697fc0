"""The hand-written reader of NLTK formulas on readers/core.py (list terms and keywords as names
left to Lark): <-> > -> > | > & > unary, all grouping left; lists in a row are one (`P(x)(y)` is
`P(x, y)`), as nltk.lark's `_app`, `_pname`, `_papp`."""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.errors import LFParseError
from ambit.logic.syntax.ast import Atom, Formula, Term
from ambit.logic.syntax.readers import Reject, new_and, new_atom, new_iff, new_implies, new_or, per_thread
from ambit.logic.syntax.readers.core import END, LEFT, NARY, NOT, READER_DEPTH, Binder, Syntax, connectives, names

_NAME = r"[0-9]+(?:\.[0-9]+)+[A-Za-z0-9_']*|[A-Za-z0-9_][A-Za-z0-9_']*"  # nltk.lark's NAME
_WORD = re.compile(r"[ \t\f\r\n]*(" + _NAME + r"|<->|<=>|->|=>|!=|==|[-!&^|=().,\[\]])")
_FEATURE_VARIABLE = re.compile(r"[?@][A-Za-z0-9_][A-Za-z0-9_']*")  # NLTK's feature-grammar variables
_DIALECT = "nltk"  # the dialect this reader's errors name (LFParseError.fmt)
_PREFIXES = dict.fromkeys(("-", "!", "not"), NOT)
_QUANT = {"all": "forall", "forall": "forall", "exists": "exists", "exist": "exists", "some": "exists"}
_EQ = {"=": False, "==": False, "!=": True}  # an equality, and whether it denies
_KEYWORDS = frozenset({*_QUANT, "not", "and", "or", "implies", "iff"})
# every token that is not a name: the operators, the keywords and END
_NOT_NAME = frozenset({"<->", "<=>", "->", "=>", "!=", "==", *"-!&^|=().,[]", END, *_KEYWORDS})


def feature_variable(text: str) -> None:
    """LFParseError for a feature-grammar variable (`?np`, `@x`): it names nothing to prove."""
    if (m := _FEATURE_VARIABLE.search(text)) is None:
        return
    name = m.group()
    raise LFParseError(f"NLTK {name!r} is a feature-grammar variable (NLTK's ?x and @x: a placeholder that a feature "
                       "grammar's unification replaces); it names no predicate, function or constant, so write "
                       "the formula it stands for", text=text, pos=m.start(), token=name, kind="syntax", fmt=_DIALECT)


_SYNTAX = Syntax(_WORD, connectives((1, LEFT, new_iff, "<->", "<=>", "iff"),
                                    (2, LEFT, new_implies, "->", "=>", "implies"), (3, NARY, new_or, "|", "or"),
                                    (4, NARY, new_and, "&", "^", "and")),
                 refused=feature_variable, not_name=_NOT_NAME, equalities=_EQ, curried=True)


def _reader(binding: bool) -> Callable[[str, Callable[[str], bool] | None], tuple[Formula, list[str]]]:
    """`run(text, spelled)`: the formula, and the free names spelled as variables."""
    toks: list[str] = []
    pop = toks.pop
    b = Binder(binding)

    def quantifier(s: str, depth: int) -> Formula:
        """`all x y.` and its body: the unary after it."""
        variables, v = [], pop()
        while v not in _NOT_NAME:
            variables.append(v)
            v = pop()
        if not variables or v != ".":
            raise Reject
        return quantified(_QUANT[s], variables, depth)

    def group(s: str, depth: int) -> Formula:
        """A parenthesised formula; an atom applies to the lists after it: (P(x))(y)."""
        f = expr(1, depth + 1)
        if pop() != ")":
            raise Reject
        if toks[-1] == "(":
            if type(f) is not Atom:
                raise Reject
            f = new_atom(f.pred, f.args + applied(depth + 1))
            if toks[-1] in _EQ:
                raise Reject
        return f

    def parenthesised(depth: int) -> tuple[str, tuple[Term, ...] | None]:
        """An argument in parentheses and lists after it: name, arguments (None: bare)."""
        if depth >= READER_DEPTH:
            raise Reject
        s = pop()
        if s == "(":
            name, args = parenthesised(depth + 1)
        elif s in _NOT_NAME:
            raise Reject
        else:
            name, args = s, (applied(depth) if toks[-1] == "(" else None)
        if pop() != ")":
            raise Reject
        if toks[-1] == "(":
            args = (args or ()) + applied(depth)
        return name, args

    prefixes = {**_PREFIXES, "(": group, **dict.fromkeys(_QUANT, quantifier)}
    (expr, _, quantified, read_text), applied = names(_SYNTAX, toks, b.bound, prefixes, b.constant, parenthesised)

    def run(text: str, spelled: Callable[[str], bool] | None) -> tuple[Formula, list[str]]:
        b.start(spelled)
        return read_text(text), list(b.free)

    return run


_read, _read_bound = per_thread(lambda: _reader(False)), per_thread(lambda: _reader(True))


def read(text: str) -> Formula:
    """The NLTK formula in `text`, every name a constant; Reject for anything else."""
    return _read()(text, None)[0]


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str]]:
    """The NLTK formula with bound names as variables, and the free names `spelled` as variables."""
    return _read_bound()(text, spelled)


__all__ = ["READER_DEPTH", "Reject", "feature_variable", "read", "read_bound"]
