"""A hand-written reader for the common FOLIO input: the same trees as the Lark grammar
(`grammars/folio.lark`, read by full_parse.py) at a fraction of the cost. It only accepts; on
anything it does not read it raises `Reject`, and the caller asks Lark, which then gives the
error with its position and expectations (so accept/reject and errors are Lark's).

Precedence climbing over the grammar's levels: ↔ (left) > → (right) > ∨ ⊕ (left) > ∧ (left) >
¬; a quantifier in any operand position takes everything up to the closing parenthesis or the
end (what the grammar's shift preference does). An unbroken run of ∨ (or of ∧) is one node,
gathered in one loop, so a parenthesised one stays nested as written (grouping.py's rule).
`read` gives names as `Const`s, and `_bind` in full_parse.py turns bound ones into variables,
as for Lark's trees; `read_bound` does that as it reads (a quantifier's variable is in scope
exactly while its body is read), and finds the free names spelled as variables and the first
dotted quantified variable on the way.
"""

from __future__ import annotations

import re
from typing import Callable

from ambit.logic.syntax.ast import Formula, Quant, Term
from ambit.logic.syntax.readers import (Binder, Reject, const, per_thread, new_and, new_atom, new_eq, new_func,
                                        new_iff, new_implies, new_not, new_or, new_quant, new_xor)

# a symbol, or a name (no symbol is a word character and every name starts with one, so a token
# is a name exactly when it is not a symbol)
_TOKEN = re.compile(r"[ \t\f\r\n]*([∀∃¬∧∨⊕→↔⟷=≠(),]|[^\W_][\w\-'’.]*)")
_KIND = {"∀": "forall", "∃": "exists"}
_END = ""
_NO_TOKENS: list[str] = []  # a reader's, between formulas
_WS = (" ", "\t", "\f", "\r", "\n")  # what _TOKEN skips before a token
_NOT_NAME = frozenset({*"∀∃¬∧∨⊕→↔⟷=≠(),", _END})
_EQ = ("=", "≠")
# binary connectives: their level (1 binds loosest); → groups to the right, the others to the left
_LEVEL = {"↔": 1, "⟷": 1, "→": 2, "∨": 3, "⊕": 3, "∧": 4}


def tokens(text: str) -> list[str]:
    """The tokens of `text`, then _END. (One `findall`: no token holds white space, so the
    tokens cover the text when their characters are all of its other ones.)"""
    out = _TOKEN.findall(text)
    skipped = len(text) - sum(map(len, out))  # white space, or a character no token starts with
    if skipped and skipped != text.count(" ") and skipped != sum(map(text.count, _WS)):  # str.count: no copy
        raise Reject
    out.append(_END)
    return out


# Parentheses, quantifiers, negations and right-nested → this reader nests (a few Python frames
# each, well inside the recursion limit); deeper input goes to Lark, whose parser does not
# recurse.
READER_DEPTH = 40


def _reader() -> Callable[[list[str], Binder], tuple[Formula, str | None]]:
    """`run(toks, b)`: the one formula `toks` hold, names made terms by `b`, and the first
    quantified variable that ends with '.' (None: none); Reject otherwise. Nested functions over
    the position `i` and the formula's state, made once per thread (`per_thread`); each run sets
    that state afresh. `depth` counts the nesting READER_DEPTH bounds."""
    toks, i = _NO_TOKENS, 0
    dotted: str | None = None
    constant: Callable[[str], Term] = const
    bound: list[str] = []
    level_of = _LEVEL.get

    def expr(level: int, depth: int) -> Formula:
        """A quantifier (its scope as far right as it goes: every operand may be one), or the
        connectives of `level` and tighter from the position (precedence climbing over
        _LEVEL); a run of ∨ (or of ∧) is one node, which a ⊕ ends."""
        nonlocal i
        if toks[i] in _KIND:
            return quant(depth)
        left = unary(depth)
        while True:
            op = toks[i]
            at = level_of(op)
            if at is None or at < level:
                return left
            i += 1
            if at == 4:  # its operands: a quantifier or a unary (nothing binds tighter)
                items = [left, quant(depth) if toks[i] in _KIND else unary(depth)]
                while toks[i] == "∧":
                    i += 1
                    items.append(quant(depth) if toks[i] in _KIND else unary(depth))
                left = new_and(tuple(items))
            elif op == "∨":
                items = [left, expr(4, depth)]
                while toks[i] == "∨":
                    i += 1
                    items.append(expr(4, depth))
                left = new_or(tuple(items))
            elif at == 2:  # → groups to the right
                if depth >= READER_DEPTH:
                    raise Reject
                left = new_implies(left, expr(2, depth + 1))
            else:
                left = (new_iff if at == 1 else new_xor)(left, expr(at + 1, depth))

    def unary(depth: int) -> Formula:
        """¬ and its operand, a group, an atom or an equation."""
        nonlocal i
        s = toks[i]
        i += 1
        if s in _NOT_NAME:
            if depth >= READER_DEPTH or (s != "¬" and s != "("):
                raise Reject
            if s == "¬":
                return new_not(expr(5, depth + 1))
            f = expr(1, depth + 1)
            if toks[i] != ")":
                raise Reject
            i += 1
            return f
        if toks[i] == "(":
            i += 1
            args = arguments(depth)
            if toks[i] in _EQ:  # f(..) = t: the left side was a function term
                return equation(new_func(s, args), depth)
            return new_atom(s, args)
        if toks[i] in _EQ:
            return equation(constant(s), depth)
        return new_atom(s, ())

    def quant(depth: int) -> Quant:
        """`∀x` or `∃x` at the position, and its body: a whole formula."""
        nonlocal i, dotted
        kind = _KIND[toks[i]]
        v = toks[i + 1]
        if v in _NOT_NAME or depth >= READER_DEPTH:
            raise Reject
        i += 2
        if dotted is None and v.endswith("."):
            dotted = v
        bound.append(v)
        body = expr(1, depth + 1)
        bound.pop()
        return new_quant(kind, v, body)

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a name's `(`: each a name or a function term."""
        nonlocal i
        args = []
        while True:
            s = toks[i]
            if s in _NOT_NAME:
                raise Reject
            i += 1
            if toks[i] == "(":
                if depth >= READER_DEPTH:
                    raise Reject
                i += 1
                args.append(new_func(s, arguments(depth + 1)))
            else:
                args.append(constant(s))
            s = toks[i]
            i += 1
            if s == ")":
                return tuple(args)
            if s != ",":
                raise Reject

    def equation(left: Term, depth: int) -> Formula:
        """`= t` or `≠ t` after the term `left`."""
        nonlocal i
        op = toks[i]
        s = toks[i + 1]
        if s in _NOT_NAME:
            raise Reject
        i += 2
        if toks[i] == "(":
            if depth >= READER_DEPTH:
                raise Reject
            i += 1
            eq = new_eq(left, new_func(s, arguments(depth + 1)))
        else:
            eq = new_eq(left, constant(s))
        return eq if op == "=" else new_not(eq)

    def run(words: list[str], b: Binder) -> tuple[Formula, str | None]:
        nonlocal toks, i, dotted, constant, bound
        toks, i, dotted, constant, bound = words, 0, None, b.constant, b.bound
        try:
            f = expr(1, 0)
            if toks[i] != _END:
                raise Reject
        except IndexError:  # ran past _END: the input stops inside a formula
            raise Reject from None
        finally:  # nothing of the formula is kept
            toks, constant, bound = _NO_TOKENS, const, []
        return f, dotted

    return run


_read = per_thread(_reader)


def read(text: str) -> Formula:
    """The FOLIO formula in `text` (names as constants); Reject for anything else."""
    return _read()(tokens(text), Binder())[0]


def read_bound(text: str, spelled: Callable[[str], bool]) -> tuple[Formula, list[str], str | None]:
    """The FOLIO formula in `text` with its bound names as variables (what `_bind` makes of
    `read`'s tree), the names left free that `spelled` says are spelled as variables (in order
    of first use), and the first quantified variable that ends with '.' (None: none); Reject for
    anything `read` rejects."""
    b = Binder(spelled)
    f, dotted = _read()(tokens(text), b)
    return f, list(b.free), dotted
