"""NLTK `Expression`s read straight into ambit's AST, with no string round trip: the tree
`parse(str(e), "nltk")` gives (held to it by tests/nltk/test_expressions.py). Curried `P(x)(y)` is
one atom, lambda terms are beta-reduced (`simplify()`), a DRS read through `fol()`; what the
dialect refuses is refused alike (LFParseError)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from nltk.sem import logic as L

from ambit.logic.errors import MAX_DEPTH, LFParseError
from ambit.logic.syntax.ast import Formula, Term
from ambit.logic.syntax.dialect import Dialect, dialect
from ambit.logic.syntax.grammar import close
from ambit.logic.syntax.readers import (const, new_and, new_atom, new_eq, new_func, new_iff, new_implies, new_not, new_or,
                                        new_quant, nltk_read, var)

DIALECT = "nltk"  # the dialect NLTK's expressions are read in (`str(e)` in it gives the same tree)
# a name the nltk dialect reads (nltk.lark's NAME) and that is none of its keywords
_NAME = re.compile(r"[0-9]+(?:\.[0-9]+)+[A-Za-z0-9_']*|[A-Za-z0-9_][A-Za-z0-9_']*")
_KEYWORDS = frozenset({"all", "forall", "exists", "exist", "some", "not", "and", "or", "implies", "iff"})


@lru_cache(maxsize=None)
def _spelling(pattern: str):
    """Whether a free name is spelled as the dialect's variables, cached per name."""
    match = re.compile(pattern).fullmatch
    return lru_cache(maxsize=1 << 14)(lambda name: match(name) is not None)


class _NeedsSimplify(Exception):
    """A lambda term or an application of one: read `e.simplify()` instead."""


@lru_cache(maxsize=1 << 14)
def _name(name: str) -> str:
    """`name` when the nltk dialect reads it as a name; LFParseError otherwise."""
    if _NAME.fullmatch(name) is None or name in _KEYWORDS:
        nltk_read.feature_variable(name)
        raise LFParseError(f"NLTK the name {name!r} cannot be read in the nltk dialect (a name is letters, digits, "
                           "_ and ', or a decimal numeral)", text=name, pos=0, token=name, kind="syntax",
                           fmt=DIALECT)
    return name


def _refuse(e: Any, why: str) -> LFParseError:
    text = str(e)
    return LFParseError(f"NLTK {why}", text=text, pos=0, token=text[:40], kind="syntax", fmt=DIALECT)


class _Reader:
    """One expression's walk: a bound name a variable, any other a constant (a free one spelled as
    a variable noted in `free`), nodes built with the readers' fast constructors."""

    __slots__ = ("bound", "free", "spelled")

    def __init__(self, spelled) -> None:
        self.bound: list[str] = []
        self.free: dict[str, None] = {}
        self.spelled = spelled

    def name_term(self, name: str) -> Term:
        name = _name(name)
        if name in self.bound:
            return var(name)
        if self.spelled is not None and name not in self.free and self.spelled(name):
            self.free[name] = None
        return const(name)

    def applied(self, e: Any, depth: int) -> tuple[str, tuple[Term, ...]]:
        """An application's function name and its arguments, uncurried (NLTK's `P(x)(y)`)."""
        args = []
        while type(e) is _APP or (type(e) not in _LEAVES and isinstance(e, L.ApplicationExpression)):
            args.append(e.argument)
            e = e.function
        if type(e) not in _LEAVES and not isinstance(e, L.AbstractVariableExpression):
            raise _NeedsSimplify
        bound, free, spelled = self.bound, self.free, self.spelled
        out = []
        for a in reversed(args):
            if type(a) in _LEAVES:  # a name: `name_term`, inline (most arguments are names)
                n = _name(a.variable.name)
                if n in bound:
                    out.append(var(n))
                    continue
                if spelled is not None and n not in free and spelled(n):
                    free[n] = None
                out.append(const(n))
            else:
                out.append(self.term(a, depth + 1))
        return _name(e.variable.name), tuple(out)

    def term(self, e: Any, depth: int) -> Term:
        if depth > MAX_DEPTH:
            raise _too_deep(e)
        if isinstance(e, L.AbstractVariableExpression):
            return self.name_term(e.variable.name)
        if isinstance(e, L.ApplicationExpression):
            return new_func(*self.applied(e, depth))
        if isinstance(e, L.LambdaExpression):
            raise _NeedsSimplify
        raise _refuse(e, f"a formula ({type(e).__name__}) where a term goes: first-order logic has no "
                         "predicate of a formula")

    def formula(self, e: Any, depth: int) -> Formula:
        if depth > MAX_DEPTH:
            raise _too_deep(e)
        t = type(e)
        if t is L.AndExpression or t is L.OrExpression:
            return self.run(e, t, depth)
        make = _BINARY.get(t)
        if make is not None:
            return make(self.formula(e.first, depth + 1), self.formula(e.second, depth + 1))
        if t is _APP:
            return new_atom(*self.applied(e, depth))
        if t is L.NegatedExpression:
            return new_not(self.formula(e.term, depth + 1))
        if t is L.AllExpression or t is L.ExistsExpression:
            v = _name(e.variable.name)
            self.bound.append(v)
            body = self.formula(e.term, depth + 1)
            self.bound.pop()
            return new_quant("forall" if t is L.AllExpression else "exists", v, body)
        if t is L.EqualityExpression:
            return new_eq(self.term(e.first, depth + 1), self.term(e.second, depth + 1))
        return self.other(e, depth)

    def run(self, e: Any, t: type, depth: int) -> Formula:
        """A chain of & (or |) as one n-ary node, however NLTK nests it."""
        items: list[Formula] = []
        stack = [e.second, e.first]
        while stack:
            x = stack.pop()
            if isinstance(x, t):
                if depth + len(stack) > MAX_DEPTH:
                    raise _too_deep(e)
                stack += [x.second, x.first]
            else:
                items.append(self.formula(x, depth + 1))
        return (new_and if t is L.AndExpression else new_or)(tuple(items))

    def other(self, e: Any, depth: int) -> Formula:
        """What `formula` does not dispatch by type: DRT's subclasses, a proposition, a lambda."""
        for cls in (L.AndExpression, L.OrExpression):
            if isinstance(e, cls):
                return self.run(e, cls, depth)
        for cls, make in _BINARY.items():
            if isinstance(e, cls):
                return make(self.formula(e.first, depth + 1), self.formula(e.second, depth + 1))
        if isinstance(e, L.ApplicationExpression):
            return new_atom(*self.applied(e, depth))
        if isinstance(e, L.EqualityExpression):
            return new_eq(self.term(e.first, depth + 1), self.term(e.second, depth + 1))
        if isinstance(e, L.AbstractVariableExpression):  # `P`, `rain`: a proposition
            return new_atom(_name(e.variable.name), ())
        if isinstance(e, L.LambdaExpression):
            raise _NeedsSimplify
        raise _refuse(e, f"{type(e).__name__} is outside first-order logic (ambit reads the nltk dialect: "
                         "quantifiers, connectives, equality, predicates and function terms)")


_APP = L.ApplicationExpression
# the name classes of NLTK's terms (AbstractVariableExpression's own subclasses)
_LEAVES = frozenset({L.ConstantExpression, L.IndividualVariableExpression, L.EventVariableExpression,
                     L.FunctionVariableExpression})
_BINARY = {L.ImpExpression: new_implies, L.IffExpression: new_iff}


def _too_deep(e: Any) -> LFParseError:
    return LFParseError(f"formula nested deeper than {MAX_DEPTH} levels (connectives and quantifiers)",
                        text="", pos=0, kind="too_deep", fmt=DIALECT)


def _walk(e: Any, spelled) -> tuple[Formula, list[str]]:
    """`e` read: the tree and its free names spelled as variables (`spelled` None: none noted)."""
    if type(e).__module__ == "nltk.sem.drt":  # a DRS (its module not imported): read as FOL
        e = e.fol()
    if not isinstance(e, L.Expression):
        raise TypeError(f"not an nltk.sem.logic Expression: {e!r}")
    try:
        r = _Reader(spelled)
        return r.formula(e, 0), list(r.free)
    except _NeedsSimplify:
        pass
    try:
        r = _Reader(spelled)
        return r.formula(e.simplify(), 0), list(r.free)
    except _NeedsSimplify:
        raise _refuse(e, "a lambda term that does not reduce to a formula (first-order logic has no lambda)") from None


def formula_of(e: Any) -> Formula:
    """The tree of `e` with every name a quantifier does not bind a constant (nothing closed)."""
    return _walk(e, None)[0]


def read_expression(e: Any, d: "Dialect | None" = None) -> tuple[Formula, tuple[str, ...]]:
    """`e` read as the dialect `d` reads `str(e)`: the formula, and the free variables it closed."""
    d = d or dialect(DIALECT)
    f, free = _walk(e, _spelling(d.variable_spelling))
    if not free:
        return f, ()
    text = str(e)  # for the position of an `error` policy's refusal
    try:
        return close(f, text, d, names=free)
    except LFParseError as err:
        raise LFParseError(err.reason, text=text, pos=max(text.find(err.token), 0), token=err.token,
                           kind=err.kind, fmt=DIALECT) from None


def from_expression(e: Any, free_variables: str | None = None) -> Formula:
    """NLTK's expression `e` as ambit's AST, read as `logic.parse(str(e), "nltk")` reads it."""
    return read_expression(e, dialect(DIALECT, free_variables))[0]


__all__ = ["DIALECT", "formula_of", "from_expression", "read_expression"]
