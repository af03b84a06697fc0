"""A hand-written reader for TPTP FOF formulas: the trees of `grammars/tptp.lark` (read by
full_parse.py's transformer) at the speed of the file. It only accepts; on anything it does not
surely read (comments, `fof` used as a name, nesting past READER_DEPTH, any syntax error) it
raises `Reject`, and the caller asks Lark, which then gives the error with its position and
expectations: accept/reject and errors stay Lark's. tests/logic/test_fast_readers.py checks that
both build equal trees on thousands of random and tricky formulas.

Tokens as Lark's lexer orders them (the longer operator first: `<=>` before `<=`, `!=` before
`!`, `~|` before `~`). Precedence climbing over the grammar's levels: <=> <~> (left) > => <=
(right) > | ~| (left) > & ~& (left) > unit; a quantifier or ~ applies to the unit right after it.
"""

from __future__ import annotations

import re

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor
from ambit.logic.syntax.grouping import Group, extend, ungroup

# the tokens, as Lark's lexer orders them; white space (Lark's common.WS) between them
_WORD = re.compile(r"<=>|<~>|=>|<=|~&|~\||!=|[!?~&|=()\[\],:]|[A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*"
                   r"|'(?:[^'\\]|\\.)+'|[0-9][A-Za-z0-9_.]*|\$true|\$false")
_SPACED_WORD = re.compile(r"[ \t\f\r\n]*(" + _WORD.pattern + ")")
_TRAILING = re.compile(r"[ \t\f\r\n]*\Z")
_NO_WS = str.maketrans("", "", " \t\f\r\n")
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


class Reject(Exception):
    """Input this reader does not take; Lark decides."""


def tokens(text: str) -> list[str]:
    """The tokens of `text`, then _END; Reject for a character no token starts with. (One
    `findall`: every character not white space must lie in a token. A quoted name may hold
    white space, so text with a quote is scanned token by token instead.)"""
    if "'" in text:
        return _scanned(text)
    words = _WORD.findall(text)
    if sum(map(len, words)) != len(text.translate(_NO_WS)):
        raise Reject
    words.append(_END)
    return words


def _scanned(text: str) -> list[str]:
    out, pos = [], 0
    for m in _SPACED_WORD.finditer(text):
        if m.start() != pos:
            raise Reject
        out.append(m.group(1))
        pos = m.end()
    if pos != len(text) and _TRAILING.match(text, pos) is None:
        raise Reject
    out.append(_END)
    return out


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


def read(text: str) -> tuple[Formula, bool]:
    """The TPTP FOF formula in `text` (a bare formula, not `fof(...)`), and whether some variable
    in it is free (then the caller closes it as the dialect says); Reject for anything else."""
    toks = tokens(text)
    i = 0
    bound: list[str] = []
    free = False

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
                if op == "|":
                    left = extend(Or, left, right)
                elif op == "&":
                    left = extend(And, left, right)
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
        if s == "~":
            return Not(ungroup(unit(depth + 1)))
        if s == "!" or s == "?":
            return quant("forall" if s == "!" else "exists", depth)
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
        c = s[:1]
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

    def quant(kind: str, depth: int) -> Formula:
        nonlocal i
        if toks[i] != "[":
            raise Reject
        names = []
        while True:
            v = toks[i + 1]
            if not _is_var(v):
                raise Reject
            names.append(v)
            i += 2
            if toks[i] != ",":
                break
        if toks[i] != "]" or toks[i + 1] != ":":
            raise Reject
        i += 2
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
        nonlocal i, free
        s = toks[i]
        i += 1
        c = s[:1]
        if c in _UPPER:
            if s not in bound:
                free = True
            return Var(s)
        name = s if c in _LOWER and s not in _KEYWORDS else _name(s)
        if toks[i] != "(":
            return Const(name)
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
    if i != len(toks) - 1:
        raise Reject
    return f, free


__all__ = ["READER_DEPTH", "Reject", "read", "tokens"]
