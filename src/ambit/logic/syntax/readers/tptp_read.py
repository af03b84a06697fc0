"""A hand-written reader for TPTP FOF formulas: the trees of `grammars/tptp.lark` (read by
full_parse.py's transformer) at the speed of the file. It only accepts; on anything it does not
surely read (comments, `fof` used as a name, nesting past READER_DEPTH, any syntax error) it
raises `Reject`, and the caller asks Lark, which then gives the error with its position and
expectations: accept/reject and errors stay Lark's. tests/logic/syntax/test_fast_readers.py checks that
both build equal trees on thousands of random and tricky formulas.

Tokens as Lark's lexer orders them (the longer operator first: `<=>` before `<=`, `!=` before
`!`, `~|` before `~`). Precedence climbing over the grammar's levels: <=> <~> (left) > => <=
(right) > | ~| (left) > & ~& (left) > unit; a quantifier or ~ applies to the unit right after it.
A parenthesised formula needs no marker: a run of one n-ary connective is gathered in one loop,
so `(p | q) | r` stays nested as written.
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import Const, Eq, Formula, Term, Var
from ambit.logic.syntax.readers import (Reject, per_thread, new_and, new_atom, new_eq, new_func, new_iff, new_implies,
                                        new_not, new_or, new_quant, new_xor)

_WS = " \t\f\r\n"  # Lark's common.WS
_TERM = r"[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.]*"  # VARIABLE, NAME, NUMBER
_W = "[ \t\f\r\n]*"
_S = " *"  # the white space an atom token holds: spaces alone (`applied` drops them)
# the tokens (group 1), as Lark's lexer orders them, each after white space; two shortcuts made of Lark's
# tokens come first: an atom (or function term) over plain terms, `p(X, a)`, and a quantifier's
# head, `![X, Y]:` (where they do not match, their first token matches alone)
_WORD = re.compile(
    _W + r"([a-z][A-Za-z0-9_]*" + _S + r"\(" + _S + f"(?:{_TERM})(?:{_S},{_S}(?:{_TERM}))*" + _S + r"\)"
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
    then _END; Reject for a character no token starts with. (One `findall`, which skips what no
    token matches: what it skips must all be white space, that is the text's white space less
    the tokens' own. Counted for spaces alone first, the common case; if that falls short, for
    every kind of white space.)"""
    if "fof" in text:  # perhaps Lark's keyword: Lark decides
        raise Reject
    words = _WORD.findall(text)
    joined = "".join(words)
    skipped = len(text) - len(joined)
    if skipped and skipped != text.count(" ") - joined.count(" ") and (
            skipped != sum(map(text.count, _WS)) - sum(map(joined.count, _WS))):
        raise Reject
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
    return _read()(tokens(text), {} if terms is None else terms)


_NO_TOKENS: list[str] = []  # between formulas (a reader sets its own before it reads)
_NO_TERMS: dict[str, Term] = {}


def _reader() -> Callable[[list[str], dict[str, Term]], tuple[Formula, bool]]:
    """A reader of one formula's tokens at a time (`read`'s work): nested functions over the
    position `i` and the formula's state (locals, not attributes, on the hot path), made once
    per thread (`per_thread`); each call sets that state afresh."""
    toks, made = _NO_TOKENS, _NO_TERMS
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
        """The name and the terms of an atom token `p(X, a)` (whose white space is spaces):
        `plain` of each term, inline (it runs for most terms)."""
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
                left = new_implies(left, right) if op == "=>" else new_implies(right, left)
            elif op == "&":  # a run of one n-ary connective: one node (grouping.extend), of units
                items = [left, unit(depth)]  # (nothing binds tighter than &: no expr loop)
                while toks[i] == "&":
                    i += 1
                    items.append(unit(depth))
                left = new_and(tuple(items))
            else:
                right = unit(depth) if at == 4 else expr(at + 1, depth)
                if op == "|":
                    items = [left, right]
                    while toks[i] == "|":
                        i += 1
                        items.append(expr(4, depth))
                    left = new_or(tuple(items))
                elif op == "~|":
                    left = new_not(new_or((left, right)))
                elif op == "~&":
                    left = new_not(new_and((left, right)))
                else:
                    left = (new_iff if op == "<=>" else new_xor)(left, right)

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
                return equation(new_func(name, args), depth)
            return new_atom(name, args)
        if s == "~":
            return new_not(unit(depth + 1))
        if (c == "!" or c == "?") and s[-1] == ":":
            return quant("forall" if c == "!" else "exists", s, depth)
        if s == "(":
            f = expr(1, depth + 1)
            if toks[i] != ")":
                raise Reject
            i += 1
            return f
        if s == "$true":
            return _TRUE
        if s == "$false":
            return new_not(_TRUE)
        if c in _UPPER:
            i -= 1
            return equation(term(depth), depth)
        name = s if c in _LOWER and s not in _KEYWORDS else _name(s)
        if toks[i] == "(":
            i += 1
            args = arguments(depth)
            if toks[i] in _EQ:
                return equation(new_func(name, args), depth)
            return new_atom(name, args)
        if toks[i] in _EQ:
            return equation(Const(name), depth)
        return new_atom(name, ())

    def quant(kind: str, head: str, depth: int) -> Formula:
        """The quantifier whose head `![X, Y]:` was the last token, over the unit after it."""
        names = _VARIABLE.findall(head)
        bound.extend(names)
        body = unit(depth + 1)
        del bound[len(bound) - len(names):]
        for v in reversed(names):
            body = new_quant(kind, v, body)
        return body

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`: a variable or an atom-shaped function term read
        here, any other term by `term`."""
        nonlocal i
        args = []
        while True:
            s = toks[i]
            c = s[:1]
            if c in _UPPER:
                i += 1
                args.append(plain(s))
            elif c in _LOWER and s[-1] == ")":
                i += 1
                args.append(new_func(*applied(s)))
            else:
                args.append(term(depth))
            s = toks[i]
            i += 1
            if s == ")":
                return tuple(args)
            if s != ",":
                raise Reject

    def term(depth: int) -> Term:
        nonlocal i
        s = toks[i]
        i += 1
        c = s[:1]
        if c in _UPPER:
            return plain(s)
        if c in _LOWER and s[-1] == ")":
            return new_func(*applied(s))
        name = s if c in _LOWER and s not in _KEYWORDS else _name(s)
        if toks[i] != "(":
            return Const(name) if c == "'" else plain(name)
        if depth >= READER_DEPTH:
            raise Reject
        i += 1
        return new_func(name, arguments(depth + 1))

    def equation(left: Term, depth: int) -> Formula:
        nonlocal i
        op = toks[i]
        if op not in _EQ:
            raise Reject
        i += 1
        eq = new_eq(left, term(depth))
        return eq if op == "=" else new_not(eq)

    def run(words: list[str], terms: dict[str, Term]) -> tuple[Formula, bool]:
        """The formula `words` hold, all of them read, and whether a variable in it is free."""
        nonlocal toks, made, i, bound, free
        toks, made, i, bound, free = words, terms, 0, [], False
        try:
            f = expr(1, 0)
            if i != len(toks) - 1:
                raise Reject
        except IndexError:  # ran past _END: the input stops inside a formula
            raise Reject from None
        finally:  # the formula's tokens and terms are not kept
            toks, made = _NO_TOKENS, _NO_TERMS
        return f, free

    return run


_read = per_thread(_reader)

__all__ = ["READER_DEPTH", "Reject", "read", "tokens"]
