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
it, an atom, an equation, a group).
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import And, Atom, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term
from ambit.logic.syntax.grouping import Group, ungroup
from ambit.logic.syntax.readers import Binder, Reject

_WS = " \t\f\r\n"  # Lark's common.WS
_NAME = r"[0-9]+(?:\.[0-9]+)+[A-Za-z0-9_']*|[A-Za-z0-9_][A-Za-z0-9_']*"  # nltk.lark's NAME
_WORD = re.compile(r"[ \t\f\r\n]*(?:" + _NAME + r"|<->|<=>|->|=>|!=|==|[-!&^|=().,\[\]])")
_END = ""
# binary connectives, spelled every way: their level (1 binds loosest); all group to the left
_LEVEL = {"<->": 1, "<=>": 1, "iff": 1, "->": 2, "=>": 2, "implies": 2, "|": 3, "or": 3, "&": 4, "^": 4, "and": 4}
_NEG = frozenset({"-", "!", "not"})
_QUANT = {"all": "forall", "forall": "forall", "exists": "exists", "exist": "exists", "some": "exists"}
_EQ = frozenset({"=", "=="})
_KEYWORDS = frozenset({*_QUANT, "not", "and", "or", "implies", "iff"})
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# parentheses, negations, quantifiers and function terms this reader nests (a few Python frames
# each); deeper input goes to Lark, whose parser does not recurse
READER_DEPTH = 40


def tokens(text: str) -> list[str]:
    """The tokens of `text`, then _END; Reject for a character no token starts with."""
    words = _WORD.findall(text)
    if sum(map(len, words)) != len(text.rstrip(_WS)):
        raise Reject
    words = list(map(str.lstrip, words))
    words.append(_END)
    return words


def _is_name(s: str) -> bool:
    """A name token that the lexer reads as a name wherever it stands (no keyword)."""
    return s[:1] in _NAME_START and s not in _KEYWORDS


class _Reader(Binder):
    """One formula's tokens and the position in them."""

    def __init__(self, toks: list[str], spelled: Callable[[str], bool] | None = None) -> None:
        super().__init__(spelled)
        self.toks, self.i = toks, 0

    def expr(self, level: int, depth: int):
        """Binary connectives of `level` and tighter, from the position (precedence climbing)."""
        toks = self.toks
        left = self.unary(depth)
        while True:
            at = _LEVEL.get(toks[self.i])
            if at is None or at < level:
                return left
            self.i += 1
            right = self.expr(at + 1, depth)
            if at >= 3:  # a run of one n-ary connective, however spelled: one node (grouping.extend)
                items = [ungroup(left), ungroup(right)]
                while _LEVEL.get(toks[self.i]) == at:
                    self.i += 1
                    items.append(ungroup(self.expr(at + 1, depth)))
                left = (Or if at == 3 else And)(tuple(items))
            else:
                left = (Iff if at == 1 else Implies)(ungroup(left), ungroup(right))

    def unary(self, depth: int):
        """- and the unary after it, a quantifier, a group, an atom or an equation."""
        if depth >= READER_DEPTH:
            raise Reject
        toks = self.toks
        s = toks[self.i]
        self.i += 1
        if s in _NEG:
            return Not(ungroup(self.unary(depth + 1)))
        kind = _QUANT.get(s)
        if kind is not None:
            names = []
            while _is_name(toks[self.i]):
                names.append(toks[self.i])
                self.i += 1
            if not names or toks[self.i] != ".":
                raise Reject
            self.i += 1
            self.bound += names
            body = ungroup(self.unary(depth + 1))
            del self.bound[len(self.bound) - len(names):]
            for v in reversed(names):
                body = Quant(kind, v, body)
            return body
        if s == "(":
            f = Group(ungroup(self.expr(1, depth + 1)))
            if toks[self.i] != ")":
                raise Reject
            self.i += 1
            return f
        if not _is_name(s):
            raise Reject
        if toks[self.i] == "(":
            self.i += 1
            args = self.arguments(depth)
            if toks[self.i] in _EQ or toks[self.i] == "!=":
                return self.equation(Func(s, args), depth)
            return Atom(s, args)
        if toks[self.i] in _EQ or toks[self.i] == "!=":
            return self.equation(self.constant(s), depth)
        return Atom(s, ())

    def arguments(self, depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`."""
        args = [self.term(depth)]
        while self.toks[self.i] == ",":
            self.i += 1
            args.append(self.term(depth))
        if self.toks[self.i] != ")":
            raise Reject
        self.i += 1
        return tuple(args)

    def term(self, depth: int) -> Term:
        s = self.toks[self.i]
        if not _is_name(s):
            raise Reject
        self.i += 1
        if self.toks[self.i] != "(":
            return self.constant(s)
        if depth >= READER_DEPTH:
            raise Reject
        self.i += 1
        return Func(s, self.arguments(depth + 1))

    def equation(self, left: Term, depth: int) -> Formula:
        eq = self.toks[self.i]
        self.i += 1
        right = Eq(left, self.term(depth))
        return right if eq in _EQ else Not(right)


def read(text: str) -> Formula:
    """The NLTK formula in `text`, every name a constant (full_parse's `_bind` then makes the
    bound ones variables, as for Lark's trees); Reject for anything else."""
    return _whole(_Reader(tokens(text)))


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str]]:
    """The NLTK formula in `text` with its bound names as variables (what full_parse's `_bind`
    makes of `read`'s tree) and the names left free that `spelled` says are spelled as
    variables, in order of first use; Reject for anything `read` rejects."""
    r = _Reader(tokens(text), spelled)
    return _whole(r), list(r.free)


def _whole(r: _Reader) -> Formula:
    """The one formula `r`'s tokens hold, all of them read; Reject otherwise."""
    try:
        f = ungroup(r.expr(1, 0))
    except IndexError:  # ran past _END: the input stops inside a formula
        raise Reject from None
    if r.i != len(r.toks) - 1:
        raise Reject
    return f


__all__ = ["READER_DEPTH", "Reject", "read", "read_bound", "tokens"]
