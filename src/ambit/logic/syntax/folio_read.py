"""A hand-written reader for the common FOLIO input: the same trees as the Lark grammar
(`grammars/folio.lark`, read by full_parse.py) at a fraction of the cost. It only accepts; on
anything it does not read it raises `Reject`, and the caller asks Lark, which then gives the
error with its position and expectations (so accept/reject and errors are Lark's).

Precedence climbing over the grammar's levels: ↔ (left) > → (right) > ∨ ⊕ (left) > ∧ (left) >
¬; a quantifier in any operand position takes everything up to the closing parenthesis or the
end (what the grammar's shift preference does). `read` gives names as `Const`s, and `_bind` in
full_parse.py turns bound ones into variables, as for Lark's trees; `read_bound` does that as it
reads (a quantifier's variable is in scope exactly while its body is read), and finds the free
names spelled as variables and the first dotted quantified variable on the way.
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import And, Atom, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Xor
from ambit.logic.syntax.grouping import Group, extend, ungroup
from ambit.logic.syntax.readers import Binder, Reject

_TOKEN = re.compile(r"[ \t\f\r\n]*(?:([∀∃¬∧∨⊕→↔⟷=≠(),])|([^\W_][\w\-'’.]*))")
_KIND = {"∀": "forall", "∃": "exists"}
_END = ("", "")
_WS = (" ", "\t", "\f", "\r", "\n")  # what _TOKEN skips before a token


def tokens(text: str) -> list[tuple[str, str]]:
    """(symbol, "") or ("", name) per token, then _END. (One `findall`: no token holds white
    space, so the tokens cover the text when their characters are all of its other ones.)"""
    out = _TOKEN.findall(text)
    if sum(map(len, map("".join, out))) != len(text) - sum(map(text.count, _WS)):  # str.count: no copy
        raise Reject
    out.append(_END)
    return out


# Parentheses, quantifiers, negations and right-nested → this reader nests (up to seven Python
# frames each, well inside the recursion limit); deeper input goes to Lark, whose parser does not
# recurse.
READER_DEPTH = 40


class _Reader(Binder):
    def __init__(self, toks: list[tuple[str, str]], spelled: Callable[[str], bool] | None = None) -> None:
        super().__init__(spelled)
        self.toks, self.i, self.depth = toks, 0, 0
        self.dotted: str | None = None  # the first quantified variable that ends with '.'

    def nested(self, read):
        """`read()` one level deeper; Reject past READER_DEPTH."""
        if self.depth >= READER_DEPTH:
            raise Reject
        self.depth += 1
        f = read()
        self.depth -= 1
        return f

    def peek(self) -> str:
        return self.toks[self.i][0]

    def take(self, symbol: str) -> None:
        if self.toks[self.i][0] != symbol:
            raise Reject
        self.i += 1

    def name(self) -> str:
        name = self.toks[self.i][1]
        if not name:
            raise Reject
        self.i += 1
        return name

    def formula(self):
        return self.quant() if self.peek() in _KIND else self.iff()

    def quant(self) -> Quant:
        kind = _KIND[self.peek()]
        self.i += 1
        var = self.name()
        if self.spelled is None:
            return Quant(kind, var, ungroup(self.nested(self.formula)))
        if self.dotted is None and var.endswith("."):
            self.dotted = var
        self.bound.append(var)
        body = ungroup(self.nested(self.formula))
        self.bound.pop()
        return Quant(kind, var, body)

    def operand(self, level):
        return self.quant() if self.peek() in _KIND else level()

    def iff(self):
        left = self.imp()
        while self.peek() in ("↔", "⟷"):
            self.i += 1
            left = Iff(ungroup(left), ungroup(self.operand(self.imp)))
        return left

    def imp(self):
        left = self.disj()
        if self.peek() != "→":
            return left
        self.i += 1
        return Implies(ungroup(left), ungroup(self.nested(lambda: self.operand(self.imp))))

    def disj(self):
        left = self.conj()
        while (op := self.peek()) in ("∨", "⊕"):
            self.i += 1
            right = self.operand(self.conj)
            left = extend(Or, left, right) if op == "∨" else Xor(ungroup(left), ungroup(right))
        return left

    def conj(self):
        left = self.unary()
        while self.peek() == "∧":
            self.i += 1
            left = extend(And, left, self.operand(self.unary))
        return left

    def unary(self):
        if self.peek() == "¬":
            self.i += 1
            return Not(ungroup(self.nested(lambda: self.operand(self.unary))))
        if self.peek() == "(":
            self.i += 1
            f = self.nested(self.formula)
            self.take(")")
            return Group(ungroup(f))
        name = self.name()
        symbol = self.peek()
        if symbol == "(":
            self.i += 1
            args = self.arguments()
            if self.peek() in ("=", "≠"):  # f(..) = t: the left side was a function term
                return self.equation(Func(name, args))
            return Atom(name, args)
        if symbol in ("=", "≠"):
            return self.equation(self.constant(name))
        return Atom(name, ())

    def arguments(self) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`."""
        args = [self.term()]
        while self.peek() == ",":
            self.i += 1
            args.append(self.term())
        self.take(")")
        return tuple(args)

    def term(self) -> Term:
        """A name, or a function term `f(t1, ..., tn)`."""
        name = self.name()
        if self.peek() != "(":
            return self.constant(name)
        self.i += 1
        return Func(name, self.nested(self.arguments))

    def equation(self, left: Term):
        symbol = self.peek()
        self.i += 1
        eq = Eq(left, self.term())
        return eq if symbol == "=" else Not(eq)


def read(text: str) -> Formula:
    """The FOLIO formula in `text` (names as constants); Reject for anything else."""
    r = _Reader(tokens(text))
    f = ungroup(r.formula())
    if r.toks[r.i] != _END:
        raise Reject
    return f


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str], str | None]:
    """The FOLIO formula in `text` with its bound names as variables (what `_bind` makes of
    `read`'s tree), the names left free that `spelled` says are spelled as variables (in order
    of first use), and the first quantified variable that ends with '.' (None: none); Reject for
    anything `read` rejects."""
    r = _Reader(tokens(text), spelled)
    f = ungroup(r.formula())
    if r.toks[r.i] != _END:
        raise Reject
    return f, list(r.free), r.dotted
