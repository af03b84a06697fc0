"""NLTK `Expression`s (nltk.sem.logic) read straight into ambit's AST, with no string round trip:
the tree `parse(str(e), "nltk")` gives, names, binding and free variables alike (a property test
holds the two to each other: tests/nltk/test_expressions.py), from NLTK's own objects.

What the nltk dialect reads from `str(e)` is what is read here: a name a quantifier binds is a
variable, a free one spelled as NLTK's variables (`x`, `z2`, `e1`) is closed under ∀ (the
dialect's `universal` reading, Prover9's too), any other a constant; NLTK's curried application
`P(x)(y)` is one atom `P(x, y)`; a lambda term or an application of one is beta-reduced first
(`simplify()`, as NLTK's Prover9 interface does); a DRS is read through its first-order
translation (`fol()`). What the dialect refuses is refused alike (LFParseError): a name the
dialect cannot spell, a feature-grammar variable (`?x`, `@x`), a predicate applied to a formula.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from nltk.sem import logic as L

from ambit.logic.errors import MAX_DEPTH, LFParseError
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.syntax.grammar import close
from ambit.logic.syntax.readers import nltk_read

DIALECT = "nltk"  # the dialect NLTK's expressions are read in (`str(e)` in it gives the same tree)
# a name the nltk dialect reads (nltk.lark's NAME) and that is none of its keywords
_NAME = re.compile(r"[0-9]+(?:\.[0-9]+)+[A-Za-z0-9_']*|[A-Za-z0-9_][A-Za-z0-9_']*")
_KEYWORDS = frozenset({"all", "forall", "exists", "exist", "some", "not", "and", "or", "implies", "iff"})


class _NeedsSimplify(Exception):
    """A lambda term or an application of one: read `e.simplify()` instead."""


@lru_cache(maxsize=1 << 14)
def _name(name: str) -> str:
    """`name` when the nltk dialect reads it as a name; LFParseError otherwise (a feature-grammar
    variable with its own reason)."""
    if _NAME.fullmatch(name) is None or name in _KEYWORDS:
        nltk_read.feature_variable(name)
        raise LFParseError(f"NLTK the name {name!r} cannot be read in the nltk dialect (a name is letters, digits, "
                           "_ and ', or a decimal numeral)", text=name, pos=0, token=name, kind="syntax",
                           fmt=DIALECT)
    return name


def _refuse(e: Any, why: str) -> LFParseError:
    text = str(e)
    return LFParseError(f"NLTK {why}", text=text, pos=0, token=text[:40], kind="syntax", fmt=DIALECT)


def _term(e: Any, bound: frozenset[str], depth: int) -> Term:
    if depth > MAX_DEPTH:
        raise _too_deep(e)
    if isinstance(e, L.AbstractVariableExpression):
        name = _name(e.variable.name)
        return Var(name) if name in bound else Const(name)
    if isinstance(e, L.ApplicationExpression):
        function, args = e.uncurry()
        if not isinstance(function, L.AbstractVariableExpression):
            raise _NeedsSimplify
        return Func(_name(function.variable.name), tuple(_term(a, bound, depth + 1) for a in args))
    if isinstance(e, L.LambdaExpression):
        raise _NeedsSimplify
    raise _refuse(e, f"a formula ({type(e).__name__}) where a term goes: first-order logic has no "
                     "predicate of a formula")


def _formula(e: Any, bound: frozenset[str], depth: int) -> Formula:
    if depth > MAX_DEPTH:
        raise _too_deep(e)
    t = type(e)
    if t is L.AndExpression or t is L.OrExpression:
        return (And if t is L.AndExpression else Or)((_formula(e.first, bound, depth + 1),
                                                       _formula(e.second, bound, depth + 1)))
    if t is L.ImpExpression or t is L.IffExpression:
        return (Implies if t is L.ImpExpression else Iff)(_formula(e.first, bound, depth + 1),
                                                           _formula(e.second, bound, depth + 1))
    if t is L.NegatedExpression:
        return Not(_formula(e.term, bound, depth + 1))
    if t is L.AllExpression or t is L.ExistsExpression:
        v = _name(e.variable.name)
        return Quant("forall" if t is L.AllExpression else "exists", v, _formula(e.term, bound | {v}, depth + 1))
    if isinstance(e, L.ApplicationExpression):
        function, args = e.uncurry()
        if not isinstance(function, L.AbstractVariableExpression):
            raise _NeedsSimplify
        return Atom(_name(function.variable.name), tuple(_term(a, bound, depth + 1) for a in args))
    if isinstance(e, L.EqualityExpression):
        return Eq(_term(e.first, bound, depth + 1), _term(e.second, bound, depth + 1))
    if isinstance(e, L.AbstractVariableExpression):  # `P`, `rain`: a proposition
        return Atom(_name(e.variable.name), ())
    if isinstance(e, L.LambdaExpression):
        raise _NeedsSimplify
    raise _refuse(e, f"{type(e).__name__} is outside first-order logic (ambit reads the nltk dialect: "
                     "quantifiers, connectives, equality, predicates and function terms)")


def _too_deep(e: Any) -> LFParseError:
    return LFParseError(f"formula nested deeper than {MAX_DEPTH} levels (connectives and quantifiers)",
                        text="", pos=0, kind="too_deep", fmt=DIALECT)


def formula_of(e: Any) -> Formula:
    """The tree of NLTK's expression `e` with every name a constant except those a quantifier
    binds (what the nltk dialect's reader builds before it closes free variables); a lambda
    term is beta-reduced (`simplify()`) and a DRS translated (`fol()`) first."""
    if _is_drs(e):
        e = e.fol()
    if not isinstance(e, L.Expression):
        raise TypeError(f"not an nltk.sem.logic Expression: {e!r}")
    try:
        return _formula(e, frozenset(), 0)
    except _NeedsSimplify:
        pass
    try:
        return _formula(e.simplify(), frozenset(), 0)
    except _NeedsSimplify:
        raise _refuse(e, "a lambda term that does not reduce to a formula (first-order logic has no lambda)") from None


def _is_drs(e: Any) -> bool:
    """Whether `e` is one of NLTK's DRT expressions (read through `fol()`), without importing nltk.sem.drt."""
    return type(e).__module__ == "nltk.sem.drt"


def read_expression(e: Any, d: "Dialect | None" = None) -> tuple[Formula, tuple[str, ...]]:
    """NLTK's expression `e` read as the nltk dialect (`d`, with its free-variable policy) reads
    `str(e)`: the formula, and the free variables it closed under ∀."""
    d = d or dialect(DIALECT)
    f = formula_of(e)
    try:
        return close(f, "", d)
    except LFParseError as err:  # the `error` policy: said again with the text, for the position
        text = str(e)
        raise LFParseError(err.reason, text=text, pos=max(text.find(err.token), 0), token=err.token,
                           kind=err.kind, fmt=DIALECT) from None


def from_expression(e: Any, free_variables: str | None = None) -> Formula:
    """NLTK's expression `e` as ambit's AST, read as `logic.parse(str(e), "nltk")` reads it."""
    return read_expression(e, dialect(DIALECT, free_variables))[0]


__all__ = ["DIALECT", "formula_of", "from_expression", "read_expression"]
