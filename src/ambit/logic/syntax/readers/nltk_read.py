"""A hand-written reader for NLTK formulas (nltk.sem.logic's syntax): the trees of
`grammars/nltk.lark` (read by full_parse.py's transformer, names as constants before
`_bind`) at the speed of the file. It only accepts; on anything it does not surely read (list
terms, a keyword where a name goes, nesting past READER_DEPTH, any syntax error) it raises
`Reject`, and the caller asks Lark, which gives the error with its position and expectations.
tests/logic/syntax/test_fast_readers.py checks that both build equal trees.

Tokens as Lark's lexer orders them (a name first, with its numerals `3.5`; then the longer
operator first: `<->` before `->`, `!=` before `!`); a keyword (all, exists, not, and, ...) is a
word the lexer reads as the keyword where one may stand. Precedence climbing over the grammar's
levels, all grouping to the left: <-> > -> > | > & > unary (- or a quantifier and the unary after
it, an atom, an equation, a group). A parenthesised formula needs no marker: a run of one n-ary
connective is gathered in one loop, so `(p & q) & r` stays nested as written.

Application is NLTK's: argument lists in a row are one list (`P(x)(y)` is `P(x, y)`, a function
term's too), a group that holds an atom applies to more (`(P(x))(y)`), and an argument may stand
in parentheses (`P((x))`, `A((B)(C))` is `A(B(C))`), as nltk.lark's `_app`, `_pname` and `_papp`
read them. A feature-grammar variable (`?np`, `@x`) is refused with its own LFParseError
(`feature_variable`), not left to Lark, whose error would only say that `?` starts no token.
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.errors import LFParseError
from ambit.logic.syntax.ast import Atom, Formula, Term
from ambit.logic.syntax.readers import (Binder, Reject, const, per_thread, new_and, new_atom, new_eq, new_func,
                                        new_iff, new_implies, new_not, new_or, new_quant)

_WS = (" ", "\t", "\f", "\r", "\n")  # Lark's common.WS: what _WORD skips before a token
_NAME = r"[0-9]+(?:\.[0-9]+)+[A-Za-z0-9_']*|[A-Za-z0-9_][A-Za-z0-9_']*"  # nltk.lark's NAME
_WORD = re.compile(r"[ \t\f\r\n]*(" + _NAME + r"|<->|<=>|->|=>|!=|==|[-!&^|=().,\[\]])")
_FEATURE_VARIABLE = re.compile(r"[?@][A-Za-z0-9_][A-Za-z0-9_']*")  # NLTK's feature-grammar variables
_DIALECT = "nltk"  # the dialect this reader's errors name (LFParseError.fmt)
_END = ""
_NO_TOKENS: list[str] = []  # a reader's, between formulas
# binary connectives, spelled every way: their level (1 binds loosest); all group to the left
_LEVEL = {"<->": 1, "<=>": 1, "iff": 1, "->": 2, "=>": 2, "implies": 2, "|": 3, "or": 3, "&": 4, "^": 4, "and": 4}
_NEG = frozenset({"-", "!", "not"})
_QUANT = {"all": "forall", "forall": "forall", "exists": "exists", "exist": "exists", "some": "exists"}
_EQ = frozenset({"=", "==", "!="})
_KEYWORDS = frozenset({*_QUANT, "not", "and", "or", "implies", "iff"})
# every token that is not a name: the operators, the keywords and _END (a token _WORD finds is
# a name exactly when it is none of these)
_NOT_NAME = frozenset({"<->", "<=>", "->", "=>", "!=", "==", *"-!&^|=().,[]", _END, *_KEYWORDS})
# parentheses, negations, quantifiers and function terms this reader nests (a few Python frames
# each); deeper input goes to Lark, whose parser does not recurse
READER_DEPTH = 40


def tokens(text: str) -> list[str]:
    """The tokens of `text`, then _END; Reject for a character no token starts with, and
    LFParseError for a feature-grammar variable (`feature_variable`). (One `findall`: no token
    holds white space, so the tokens cover the text when their characters are all of its other
    ones.)"""
    words = _WORD.findall(text)
    skipped = len(text) - sum(map(len, words))  # white space, or a character no token starts with
    if skipped and skipped != text.count(" ") and skipped != sum(map(text.count, _WS)):  # str.count: no copy
        feature_variable(text)
        raise Reject
    words.append(_END)
    return words


def feature_variable(text: str) -> None:
    """LFParseError for the first feature-grammar variable in `text` (`?np`, `@x`), if any.
    NLTK's parser reads such a name as a constant, but its feature grammars use it as a
    placeholder that unification replaces by a formula or a term (nltk.sem.logic's
    `Expression.variables()` lists them with the free variables): in a formula to prove it
    names nothing, so it is refused with the reason, where NLTK would prove things about a
    predicate called `?vp`."""
    m = _FEATURE_VARIABLE.search(text)
    if m is None:
        return
    name = m.group()
    raise LFParseError(f"NLTK {name!r} is a feature-grammar variable (NLTK's ?x and @x: a placeholder that a feature "
                       "grammar's unification replaces); it names no predicate, function or constant, so write "
                       "the formula it stands for", text=text, pos=m.start(), token=name, kind="syntax", fmt=_DIALECT)


def _reader() -> Callable[[list[str], Binder], Formula]:
    """`run(toks, b)`: the one formula `toks` hold, all of them read, names made terms by `b`;
    Reject otherwise. Nested functions over the position `i` and the formula's state, made once
    per thread (`per_thread`); each run sets that state afresh."""
    toks, i = _NO_TOKENS, 0
    constant: Callable[[str], Term] = const
    bound: list[str] = []
    level_of = _LEVEL.get

    def expr(level: int, depth: int) -> Formula:
        """Binary connectives of `level` and tighter, from the position (precedence climbing)."""
        nonlocal i
        left = unary(depth)
        while True:
            at = level_of(toks[i])
            if at is None or at < level:
                return left
            i += 1
            # a run of one n-ary connective, however spelled: one node (grouping.extend); the
            # operands of & are unaries (nothing binds tighter), read without expr's loop
            if at == 4:
                items = [left, unary(depth)]
                while level_of(toks[i]) == 4:
                    i += 1
                    items.append(unary(depth))
                left = new_and(tuple(items))
            elif at == 3:
                items = [left, expr(4, depth)]
                while level_of(toks[i]) == 3:
                    i += 1
                    items.append(expr(4, depth))
                left = new_or(tuple(items))
            else:
                left = (new_iff if at == 1 else new_implies)(left, expr(at + 1, depth))

    def unary(depth: int) -> Formula:
        """- and the unary after it, a quantifier, a group, an atom or an equation."""
        nonlocal i
        if depth >= READER_DEPTH:
            raise Reject
        s = toks[i]
        i += 1
        if s in _NOT_NAME:
            return prefixed(s, depth)
        if toks[i] == "(":
            args = applied(depth)
            if toks[i] in _EQ:
                return equation(new_func(s, args), depth)
            return new_atom(s, args)
        if toks[i] in _EQ:
            return equation(constant(s), depth)
        return new_atom(s, ())

    def prefixed(s: str, depth: int) -> Formula:
        """What follows a unary that opens with `s`, not a name: - or a quantifier, or a group."""
        nonlocal i
        if s in _NEG:
            return new_not(unary(depth + 1))
        if s == "(":
            f = expr(1, depth + 1)
            if toks[i] != ")":
                raise Reject
            i += 1
            if toks[i] == "(":  # (P(x))(y): only an atom applies to more arguments, and no equation follows
                if type(f) is not Atom:
                    raise Reject
                f = new_atom(f.pred, f.args + applied(depth + 1))
                if toks[i] in _EQ:
                    raise Reject
            return f
        kind = _QUANT.get(s)
        if kind is None:
            raise Reject
        start = i
        while toks[i] not in _NOT_NAME:
            i += 1
        names = toks[start:i]
        if not names or toks[i] != ".":
            raise Reject
        i += 1
        bound.extend(names)
        body = unary(depth + 1)
        del bound[len(bound) - len(names):]
        for v in reversed(names):
            body = new_quant(kind, v, body)
        return body

    def applied(depth: int) -> tuple[Term, ...]:
        """The arguments of one or more lists `(t1, ..., tn)(u1, ...)...` from the position (at a
        `(`), as one tuple: NLTK's curried application P(x)(y) is P(x, y)."""
        nonlocal i
        if depth >= READER_DEPTH:
            raise Reject
        i += 1
        args = arguments(depth + 1)
        while toks[i] == "(":
            i += 1
            args += arguments(depth + 1)
        return args

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a `(`: each a name, a function term (curried or not), or one of
        them in parentheses."""
        nonlocal i
        args = []
        while True:
            s = toks[i]
            if s == "(":
                name, inner = parenthesised(depth + 1)
                args.append(constant(name) if inner is None else new_func(name, inner))
            elif s in _NOT_NAME:
                raise Reject
            else:
                i += 1
                args.append(new_func(s, applied(depth)) if toks[i] == "(" else constant(s))
            s = toks[i]
            i += 1
            if s == ")":
                return tuple(args)
            if s != ",":
                raise Reject

    def parenthesised(depth: int) -> tuple[str, tuple[Term, ...] | None]:
        """An argument in parentheses from the position (at its `(`), and the lists applied to
        it after them: its name and its arguments (None: a bare name). `(x)` is x, `(f(x))(y)`
        and `(f)(x, y)` are f(x, y), `((B))(C)` is B(C) (nltk.lark's _pname and _papp)."""
        nonlocal i
        if depth >= READER_DEPTH:
            raise Reject
        i += 1
        s = toks[i]
        if s == "(":
            name, args = parenthesised(depth + 1)
        elif s in _NOT_NAME:
            raise Reject
        else:
            i += 1
            name, args = s, (applied(depth) if toks[i] == "(" else None)
        if toks[i] != ")":
            raise Reject
        i += 1
        if toks[i] == "(":
            args = (args or ()) + applied(depth)
        return name, args

    def equation(left: Term, depth: int) -> Formula:
        """`= t`, `== t` or `!= t` after the term `left`."""
        nonlocal i
        eq = toks[i]
        s = toks[i + 1]
        if s in _NOT_NAME:
            raise Reject
        i += 2
        if toks[i] == "(":
            right = new_eq(left, new_func(s, applied(depth)))
        else:
            right = new_eq(left, constant(s))
        return right if eq != "!=" else new_not(right)

    def run(words: list[str], b: Binder) -> Formula:
        nonlocal toks, i, constant, bound
        toks, i, constant, bound = words, 0, b.constant, b.bound
        try:
            f = expr(1, 0)
            if i != len(toks) - 1:
                raise Reject
        except IndexError:  # ran past _END: the input stops inside a formula
            raise Reject from None
        finally:  # nothing of the formula is kept
            toks, constant, bound = _NO_TOKENS, const, []
        return f

    return run


_read = per_thread(_reader)


def read(text: str) -> Formula:
    """The NLTK formula in `text`, every name a constant (full_parse's `_bind` then makes the
    bound ones variables, as for Lark's trees); Reject for anything else."""
    return _read()(tokens(text), Binder())


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str]]:
    """The NLTK formula in `text` with its bound names as variables (what full_parse's `_bind`
    makes of `read`'s tree) and the names left free that `spelled` says are spelled as
    variables, in order of first use; Reject for anything `read` rejects."""
    b = Binder(spelled)
    return _read()(tokens(text), b), list(b.free)


__all__ = ["READER_DEPTH", "Reject", "feature_variable", "read", "read_bound", "tokens"]
