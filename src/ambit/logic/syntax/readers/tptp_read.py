"""The hand-written reader of TPTP FOF formulas: the trees of `grammars/tptp.lark` on
readers/core.py; comments and `fof` used as a name are left to Lark. Levels: <=> <~> (left) > => <=
(right) > | ~| (left) > & ~& (left) > unit; a quantifier or ~ applies to the unit right after it."""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import Const, Eq, Formula, Term, Var
from ambit.logic.syntax.readers import (Reject, new_and, new_atom, new_eq, new_func, new_iff, new_implies, new_not,
                                        new_or, new_xor, per_thread)
from ambit.logic.syntax.readers.core import GROUP, LEFT, NARY, NOT, READER_DEPTH, RIGHT, Syntax, connectives, reader

_TERM = r"[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.]*"  # VARIABLE, NAME, NUMBER
_W = "[ \t\f\r\n]*"
_S = " *"  # the white space an atom token holds: spaces alone (`applied` drops them)
# the tokens (group 1) in Lark's order, after two shortcuts: an atom over plain terms, `p(X, a)`,
# and a quantifier's head, `![X, Y]:` (where they do not match, their first token matches alone)
_WORD = re.compile(
    _W + r"([a-z][A-Za-z0-9_]*" + _S + r"\(" + _S + f"(?:{_TERM})(?:{_S},{_S}(?:{_TERM}))*" + _S + r"\)"
    + r"|[!?]" + _W + r"\[" + _W + r"[A-Z][A-Za-z0-9_]*(?:" + _W + "," + _W + r"[A-Z][A-Za-z0-9_]*)*" + _W + r"\]"
    + _W + ":"
    + r"|<=>|<~>|=>|<=|~&|~\||!=|[!?~&|=()\[\],:]|[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*"
    + r"|'(?:[^'\\]|\\.)+'|[0-9][A-Za-z0-9_.]*|\$true|\$false)")
_VARIABLE = re.compile(r"[A-Z][A-Za-z0-9_]*")
_TRUE = Eq(Const("⊤"), Const("⊤"))  # full_parse.TRUE: $true; $false is ¬$true
_SYNTAX = Syntax(_WORD, connectives(
    (1, LEFT, new_iff, "<=>"), (1, LEFT, new_xor, "<~>"), (2, RIGHT, new_implies, "=>"),
    (2, RIGHT, lambda a, b: new_implies(b, a), "<="), (3, NARY, new_or, "|"),
    (3, LEFT, lambda a, b: new_not(new_or((a, b))), "~|"), (4, NARY, new_and, "&"),
    (4, LEFT, lambda a, b: new_not(new_and((a, b))), "~&")),
    forbid="fof")  # perhaps Lark's keyword, which opens an annotated formula: Lark decides
_PREFIXES = {"~": NOT, "(": GROUP, "$true": lambda s, depth: _TRUE, "$false": lambda s, depth: new_not(_TRUE)}
_EQ = ("=", "!=")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # a variable's first letter
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")  # a plain name's
_NO_TERMS: dict[str, Term] = {}  # between formulas


def _name(s: str) -> str:
    """A name token's name (a quoted one unquoted); Reject for any other token."""
    c = s[:1]
    if "a" <= c <= "z" or "0" <= c <= "9":
        return s
    if c == "'":
        return s[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    raise Reject


def read(text: str, terms: dict[str, Term] | None = None) -> tuple[Formula, bool]:
    """The TPTP FOF formula in `text`, whether a variable is free (`terms` shared); else Reject."""
    return _read()(text, {} if terms is None else terms)


def _reader() -> Callable[[str, dict[str, Term]], tuple[Formula, bool]]:
    """`run(text, terms)`: the formula and whether a variable is free; terms kept in `terms`."""
    toks: list[str] = []
    made = _NO_TERMS
    bound: list[str] = []
    free = False

    def plain(t: str) -> Term:
        """The variable or constant named by a plain term token."""
        nonlocal free
        x = made.get(t)
        if x is None:
            x = made[t] = Var(t) if t[:1] in _UPPER else Const(t)
        if type(x) is Var and t not in bound:
            free = True
        return x

    def applied(s: str) -> tuple[str, tuple[Term, ...]]:
        """The name and terms of an atom token `p(X, a)` (`plain` inlined: it runs per term)."""
        nonlocal free
        words = s[:-1].replace(" ", "").replace("(", ",", 1).split(",")
        args = []
        for t in words[1:]:
            x = made.get(t)
            if x is None:
                x = made[t] = Var(t) if t[:1] in _UPPER else Const(t)
            if not free and type(x) is Var and t not in bound:
                free = True
            args.append(x)
        return words[0], tuple(args)

    read_text = _units(toks, bound, plain, applied)

    def run(text: str, terms: dict[str, Term]) -> tuple[Formula, bool]:
        nonlocal made, free
        made, free = terms, False
        try:
            return read_text(text), free
        finally:  # the formula's terms are not kept
            made = _NO_TERMS

    return run


def _units(toks: list[str], bound: list[str], plain: Callable, applied: Callable) -> Callable[[str], Formula]:
    """The core's `read` over TPTP's units, their terms made by `plain` and `applied`."""
    pop, push = toks.pop, toks.append
    arguments, term = _terms(toks, plain, applied)

    def unary(depth: int) -> Formula:
        """The unary at the position: an atom, an equation, a quantifier and the unary after it."""
        if depth >= READER_DEPTH:
            raise Reject
        s = pop()
        c = s[:1]
        if c in _LOWER and s[-1] == ")":  # an atom over plain terms, or a function term's, in one token
            name, args = applied(s)
        else:
            if c in _LOWER:
                name = s
            elif c in _UPPER:
                op = pop()
                if op not in _EQ:
                    raise Reject
                return equation(plain(s), op, depth)
            elif (c == "!" or c == "?") and s[-1] == ":":  # a quantifier's head, `![X, Y]:`
                return quantified("forall" if c == "!" else "exists", _VARIABLE.findall(s), depth)
            elif c == "'" or "0" <= c <= "9":
                name = _name(s)
            elif s == "(":  # the core's GROUP and NOT, read here: no call
                f = expr(1, depth + 1)
                if pop() != ")":
                    raise Reject
                return f
            elif s == "~":
                return new_not(unary(depth + 1))
            else:
                return prefix(s)(s, depth)
            after = pop()
            if after != "(":
                if after in _EQ:
                    return equation(Const(name), after, depth)
                push(after)
                return new_atom(name, ())
            args = arguments(depth)
        after = pop()
        if after in _EQ:
            return equation(new_func(name, args), after, depth)
        push(after)
        return new_atom(name, args)

    def equation(left: Term, op: str, depth: int) -> Formula:
        """`left op` read (op: = or !=), the term after them."""
        eq = new_eq(left, term(pop(), depth))
        return eq if op == "=" else new_not(eq)

    expr, prefix, quantified, read = reader(_SYNTAX, toks, bound, _PREFIXES, unary)
    return read


def _terms(toks: list[str], plain: Callable, applied: Callable) -> tuple[Callable, Callable]:
    """`arguments(depth)` and `term(token, depth)` of `_units`."""
    pop, push = toks.pop, toks.append

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`."""
        args = []
        while True:
            s = pop()
            c = s[:1]
            if c in _UPPER:
                args.append(plain(s))
            elif c in _LOWER and s[-1] == ")":
                args.append(new_func(*applied(s)))
            else:
                args.append(term(s, depth))
            s = pop()
            if s == ")":
                return tuple(args)
            if s != ",":
                raise Reject

    def term(s: str, depth: int) -> Term:
        """The term that opens with `s`."""
        c = s[:1]
        if c in _UPPER:
            return plain(s)
        if c in _LOWER and s[-1] == ")":
            return new_func(*applied(s))
        name = s if c in _LOWER else _name(s)
        after = pop()
        if after != "(":
            push(after)
            return Const(name) if c == "'" else plain(name)
        if depth >= READER_DEPTH:
            raise Reject
        return new_func(name, arguments(depth + 1))

    return arguments, term


_read = per_thread(_reader)

__all__ = ["READER_DEPTH", "Reject", "read"]
