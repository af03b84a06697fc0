"""A hand-written reader for TPTP FOF formulas: the trees of `grammars/tptp.lark` (read by
full_parse.py's transformer) at the speed of the file. It only accepts; on anything it does not
surely read (comments, `fof` used as a name, nesting past READER_DEPTH, any syntax error) it
raises `Reject`, and the caller asks Lark, which then gives the error with its position and
expectations: accept/reject and errors stay Lark's. tests/logic/syntax/test_fast_readers.py checks that
both build equal trees on thousands of random and tricky formulas.

Tokens as Lark's lexer orders them (the longer operator first: `<=>` before `<=`, `!=` before
`!`, `~|` before `~`). Precedence climbing over the grammar's levels: <=> <~> (left) > => <=
(right) > | ~| (left) > & ~& (left) > unit; a quantifier or ~ applies to the unit right after it.
"""

from __future__ import annotations

import re

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor
from ambit.logic.syntax.grouping import Group, ungroup
from ambit.logic.syntax.readers import Reject

_WS = " \t\f\r\n"  # Lark's common.WS
_TERM = r"[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.]*"  # VARIABLE, NAME, NUMBER
_W = "[ \t\f\r\n]*"
# the tokens, as Lark's lexer orders them, each after white space; two shortcuts made of Lark's
# tokens come first: an atom (or function term) over plain terms, `p(X, a)`, and a quantifier's
# head, `![X, Y]:` (where they do not match, their first token matches alone)
_WORD = re.compile(
    _W + r"(?:[a-z][A-Za-z0-9_]*" + _W + r"\(" + _W + f"(?:{_TERM})(?:{_W},{_W}(?:{_TERM}))*" + _W + r"\)"
    + r"|[!?]" + _W + r"\[" + _W + r"[A-Z][A-Za-z0-9_]*(?:" + _W + "," + _W + r"[A-Z][A-Za-z0-9_]*)*" + _W + r"\]"
    + _W + ":"
    + r"|<=>|<~>|=>|<=|~&|~\||!=|[!?~&|=()\[\],:]|[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*"
    + r"|'(?:[^'\\]|\\.)+'|[0-9][A-Za-z0-9_.]*|\$true|\$false)")
_VARIABLE = re.compile(r"[A-Z][A-Za-z0-9_]*")
_END = ""
_TRUE = Eq(Const("⊤"), Const("⊤"))  # full_parse.TRUE: $true; $false is ¬$true
# binary connectives: their level (1 binds loosest); => and <= (level 2) group to the right
_LEVEL = {"<=>": 1, "<~>": 1, "=>": 2, "<=": 2, "|": 3, "~|": 3, "&": 4, "~&": 4}
_EQ = ("=", "!=")
# a name Lark's lexer may read as a keyword (`fof` opens an annotated formula): Lark decides
_KEYWORDS = frozenset({"fof"})
# parentheses, quantifiers, negations, function terms and right-nested => this reader nests (a
# few Python frames each, well inside the recursion limit); deeper input goes to Lark, whose
# parser does not recurse
READER_DEPTH = 40


def tokens(text: str) -> list[str]:
    """The tokens of `text` (atoms over plain terms and quantifier heads as one token each),
    then _END; Reject for a character no token starts with. (One `findall`: the tokens and the
    white space before each must cover the text.)"""
    if "fof" in text:  # perhaps Lark's keyword: Lark decides
        raise Reject
    words = _WORD.findall(text)
    if sum(map(len, words)) != len(text.rstrip(_WS)):
        raise Reject
    words = list(map(str.lstrip, words))
    words.append(_END)
    return words


def _name(s: str) -> str:
    """A name token's name (a quoted one unquoted); Reject for any other token."""
    c = s[:1]
    if "a" <= c <= "z":
        if s in _KEYWORDS:
            raise Reject
        return s
    if c == "'":
        return s[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    if "0" <= c <= "9":
        return s
    raise Reject


_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # a variable's first letter
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")  # a plain name's


def _is_var(s: str) -> bool:
    return s[:1] in _UPPER


def read(text: str, terms: dict[str, Term] | None = None) -> tuple[Formula, bool]:
    """The TPTP FOF formula in `text` (a bare formula, not `fof(...)`), and whether some variable
    in it is free (then the caller closes it as the dialect says); Reject for anything else.
    `terms`: variables and constants already made, by name (a problem's formulas share them;
    they are immutable), filled as it reads."""
    toks = tokens(text)
    made: dict[str, Term] = {} if terms is None else terms
    i = 0
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
        """The name and the terms of an atom token `p(X, a)`."""
        k = s.index("(")
        return s[:k].rstrip(_WS), tuple([plain(t.strip(_WS)) for t in s[k + 1:-1].split(",")])

    def expr(level: int, depth: int):
        """Binary connectives of `level` and tighter, from the position (precedence climbing)."""
        nonlocal i
        left = unit(depth)
        while True:
            op = toks[i]
            at = _LEVEL.get(op)
            if at is None or at < level:
                return left
            i += 1
            if at == 2:  # => and <= group to the right
                if depth >= READER_DEPTH:
                    raise Reject
                right = expr(2, depth + 1)
                left = Implies(ungroup(left), ungroup(right)) if op == "=>" else Implies(ungroup(right), ungroup(left))
            else:
                right = expr(at + 1, depth)
                if op == "|" or op == "&":  # a run of one n-ary connective: one node (grouping.extend)
                    items = [ungroup(left), ungroup(right)]
                    while toks[i] == op:
                        i += 1
                        items.append(ungroup(expr(at + 1, depth)))
                    left = (Or if op == "|" else And)(tuple(items))
                elif op == "~|":
                    left = Not(Or((ungroup(left), ungroup(right))))
                elif op == "~&":
                    left = Not(And((ungroup(left), ungroup(right))))
                else:
                    left = (Iff if op == "<=>" else Xor)(ungroup(left), ungroup(right))

    def unit(depth: int):
        """A unit formula: ~ or a quantifier and the unit after it, a group, an atom, an equation."""
        nonlocal i
        if depth >= READER_DEPTH:
            raise Reject
        s = toks[i]
        i += 1
        c = s[:1]
        if c in _LOWER and s[-1] == ")":  # an atom over plain terms, or a function term's
            name, args = applied(s)
            if toks[i] in _EQ:
                return equation(Func(name, args), depth)
            return Atom(name, args)
        if s == "~":
            return Not(ungroup(unit(depth + 1)))
        if (c == "!" or c == "?") and s[-1] == ":":
            return quant("forall" if c == "!" else "exists", s, depth)
        if s == "(":
            f = Group(ungroup(expr(1, depth + 1)))
            if toks[i] != ")":
                raise Reject
            i += 1
            return f
        if s == "$true":
            return _TRUE
        if s == "$false":
            return Not(_TRUE)
        if c in _UPPER:
            i -= 1
            return equation(term(depth), depth)
        name = s if c in _LOWER and s not in _KEYWORDS else _name(s)
        if toks[i] == "(":
            i += 1
            args = arguments(depth)
            if toks[i] in _EQ:
                return equation(Func(name, args), depth)
            return Atom(name, args)
        if toks[i] in _EQ:
            return equation(Const(name), depth)
        return Atom(name, ())

    def quant(kind: str, head: str, depth: int) -> Formula:
        """The quantifier whose head `![X, Y]:` was the last token, over the unit after it."""
        names = _VARIABLE.findall(head)
        bound.extend(names)
        body = ungroup(unit(depth + 1))
        del bound[len(bound) - len(names):]
        for v in reversed(names):
            body = Quant(kind, v, body)
        return body

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`."""
        nonlocal i
        args = [term(depth)]
        while toks[i] == ",":
            i += 1
            args.append(term(depth))
        if toks[i] != ")":
            raise Reject
        i += 1
        return tuple(args)

    def term(depth: int) -> Term:
        nonlocal i
        s = toks[i]
        i += 1
        c = s[:1]
        if c in _UPPER:
            return plain(s)
        if c in _LOWER and s[-1] == ")":
            return Func(*applied(s))
        name = s if c in _LOWER and s not in _KEYWORDS else _name(s)
        if toks[i] != "(":
            return Const(name) if c == "'" else plain(name)
        if depth >= READER_DEPTH:
            raise Reject
        i += 1
        return Func(name, arguments(depth + 1))

    def equation(left: Term, depth: int) -> Formula:
        nonlocal i
        op = toks[i]
        if op not in _EQ:
            raise Reject
        i += 1
        eq = Eq(left, term(depth))
        return eq if op == "=" else Not(eq)

    try:
        f = ungroup(expr(1, 0))
    except IndexError:  # ran past _END: the input stops inside a formula
        raise Reject from None
    finally:  # the nested functions refer to one another: emptied, so no cycle is left for the collector
        del plain, applied, expr, unit, quant, arguments, term, equation
    if i != len(toks) - 1:
        raise Reject
    return f, free


__all__ = ["READER_DEPTH", "Reject", "read", "tokens"]
