"""The core of the hand-written readers: each accepts only what it surely reads, building Lark's
tree, and raises `Reject` otherwise so that Lark reads it and reports the error
(tests/logic/syntax/readers/test_reader_core.py compares both). The tokens are a stack, the
formula's reversed (`pop()` reads, `push` puts back)."""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from ambit.logic.syntax.ast import Formula, Term
from ambit.logic.syntax.readers import Reject, const, new_atom, new_eq, new_func, new_not, new_quant, var

END = ""  # after the last token
# a stack that never runs empty (CPython frees an empty list's storage, then allocates it again)
_ENDED = (END,) * 8
_BOTTOM = len(_ENDED)
# how deeply a reader nests; deeper input goes to Lark, whose parser does not recurse
READER_DEPTH = 40
NARY, LEFT, RIGHT = 0, 1, 2  # how a binary connective groups
NOT, GROUP = "not", "group"  # the prefixes the core reads: a negation, a parenthesised formula
_WS = " \t\f\r\n"  # Lark's common.WS: all a token pattern may skip


def connectives(*rows: tuple) -> dict[str, tuple[int, int, Callable]]:
    """A dialect's binary connectives by spelling, from rows `(level, how, make, *spellings)`."""
    return {s: op for op, spellings in ((tuple(row[:3]), row[3:]) for row in rows) for s in spellings}


class Syntax(NamedTuple):
    """A dialect's tables: token `pattern`, `connectives`, `forbid` (left to Lark), `refused`, and
    for `names` its non-name tokens, equalities and `curried` (`P(x)(y)` is `P(x, y)`)."""

    pattern: re.Pattern
    connectives: dict[str, tuple[int, int, Callable]]
    forbid: str | None = None
    refused: Callable[[str], None] | None = None
    not_name: frozenset[str] = frozenset()
    equalities: dict[str, bool] = {}
    curried: bool = False


class Binder:
    """What a reader makes of a name in a term's place: a variable where bound (with `binding`),
    else a constant, noted in `free` when `spelled` as a variable; `constant` runs per name."""

    def __init__(self, binding: bool) -> None:
        self.bound: list[str] = []
        self.free: dict[str, None] = {}
        self.spelled: Callable[[str], bool] = _never
        self.constant: Callable[[str], Term] = _binding(self) if binding else const

    def start(self, spelled: Callable[[str], bool] | None) -> None:
        self.free.clear()
        self.spelled = spelled or _never


def _never(name: str) -> bool:
    return False


def _binding(b: Binder) -> Callable[[str], Term]:
    """Binder.constant for a reader that binds as it reads."""
    bound, free = b.bound, b.free

    def constant(name: str) -> Term:
        if name in bound:
            return var(name)
        if name not in free and b.spelled(name):
            free[name] = None
        return const(name)

    return constant


class Core(NamedTuple):
    """The functions `reader` makes over the position."""

    expr: Callable[[int, int], Formula]
    prefix: Callable[[str], Callable[[str, int], Formula]]
    quantified: Callable[[str, list[str], int], Formula]
    read: Callable[[str], Formula]


def reader(syntax: Syntax, toks: list[str], bound: list[str], prefixes: dict, unary: Callable) -> Core:
    """The core of a reader of `syntax` over `toks`; `unary` leaves `prefixes` to `prefix`."""
    pop = toks.pop
    findall, forbid, refused = syntax.pattern.findall, syntax.forbid, syntax.refused
    toks[:] = _ENDED

    def negation(s: str, depth: int) -> Formula:
        return new_not(unary(depth + 1))

    def group(s: str, depth: int) -> Formula:
        f = expr(1, depth + 1)
        if pop() != ")":
            raise Reject
        return f

    def quantified(kind: str, names: list[str], depth: int) -> Formula:
        bound.extend(names)
        body = unary(depth + 1)
        del bound[len(bound) - len(names):]
        for v in reversed(names):
            body = new_quant(kind, v, body)
        return body

    def read(text: str) -> Formula:
        """The formula in `text`; what `findall` skipped must be white space."""
        if forbid is not None and forbid in text:
            raise Reject
        words = findall(text)
        joined = "".join(words)
        skipped = len(text) - len(joined)
        if skipped and skipped != text.count(" ") - joined.count(" ") and (
                skipped != sum(map(text.count, _WS)) - sum(map(joined.count, _WS))):
            if refused is not None:
                refused(text)
            raise Reject
        words.reverse()
        toks.extend(words)
        try:
            f = expr(1, 0)
            if len(toks) == _BOTTOM:  # the ENDs alone are left
                return f
            raise Reject
        except IndexError:  # ran past END: the input stops inside a formula
            toks[:], bound[:] = _ENDED, ()
            raise Reject from None
        except BaseException:  # nothing of the formula is kept
            toks[:], bound[:] = _ENDED, ()
            raise

    expr = _climbing(toks, syntax.connectives, unary)
    return Core(expr, _Prefixes({t: {NOT: negation, GROUP: group}.get(h, h) for t, h in prefixes.items()}).__getitem__,
                quantified, read)


class _Prefixes(dict):
    """A reader's prefix table: a token that is none has the handler that rejects."""

    def __missing__(self, token: str) -> Callable[[str, int], Formula]:
        return _reject


def _reject(s: str, depth: int) -> Formula:
    raise Reject


def _climbing(toks: list[str], table: dict[str, tuple[int, int, Callable]], unary: Callable) -> Callable:
    """`expr(level, depth)`: precedence climbing over `table` with `unary` operands."""
    pop, push = toks.pop, toks.append
    connective = table.get
    tight = max(level for level, _, _ in table.values())  # its operands are unaries

    def expr(level: int, depth: int) -> Formula:
        left = unary(depth)
        s = pop()  # the token after the operand read
        while True:
            op = connective(s)
            if op is None or op[0] < level:
                push(s)
                return left
            at, how, make = op
            if how == NARY:  # a run of it: one node
                items = [left, unary(depth) if at == tight else expr(at + 1, depth)]
                s = pop()
                while connective(s) is op:
                    items.append(unary(depth) if at == tight else expr(at + 1, depth))
                    s = pop()
                left = make(tuple(items))
                continue
            if how == LEFT:
                left = make(left, unary(depth) if at == tight else expr(at + 1, depth))
            elif depth >= READER_DEPTH:
                raise Reject
            else:
                left = make(left, expr(at, depth + 1))
            s = pop()

    return expr


def names(syntax: Syntax, toks: list[str], bound: list[str], prefixes: dict, constant: Callable[[str], Term],
          parenthesised: Callable | None = None) -> tuple[Core, Callable]:
    """The core of a reader of atoms `p(t, ...)` and equations `t = u`, and its `applied`."""
    pop, push = toks.pop, toks.append
    not_name, eqs = syntax.not_name, syntax.equalities
    arguments, applied = _terms(syntax, toks, constant, parenthesised)
    negations = frozenset(t for t, h in prefixes.items() if h is NOT)  # these and GROUP read here: no call
    opens = "(" if prefixes.get("(") is GROUP else None

    def unary(depth: int) -> Formula:
        if depth >= READER_DEPTH:
            raise Reject
        s = pop()
        if s in not_name:
            if s in negations:
                return new_not(unary(depth + 1))
            if s == opens:
                f = expr(1, depth + 1)
                if pop() != ")":
                    raise Reject
                return f
            return prefix(s)(s, depth)
        after = pop()
        if after == "(":
            args = arguments(depth + 1)
            after = pop()
            if after in eqs:
                return equation(new_func(s, args), after, depth)
            push(after)
            return new_atom(s, args)
        if after in eqs:
            return equation(constant(s), after, depth)
        push(after)
        return new_atom(s, ())

    def equation(left: Term, op: str, depth: int) -> Formula:
        """`left op` read, the term after them."""
        s = pop()
        if s in not_name:
            raise Reject
        after = pop()
        if after != "(":
            push(after)
            eq = new_eq(left, constant(s))
        elif depth >= READER_DEPTH:
            raise Reject
        else:
            eq = new_eq(left, new_func(s, arguments(depth + 1)))
        return new_not(eq) if eqs[op] else eq

    core = reader(syntax, toks, bound, prefixes, unary)
    expr, prefix = core.expr, core.prefix
    return core, applied


def _terms(syntax: Syntax, toks: list[str], constant: Callable[[str], Term],
           parenthesised: Callable | None) -> tuple[Callable, Callable]:
    """`arguments(depth)` and `applied(depth)` of `names`."""
    pop, push = toks.pop, toks.append
    not_name, curried = syntax.not_name, syntax.curried

    def applied(depth: int) -> tuple[Term, ...]:
        if depth >= READER_DEPTH:
            raise Reject
        pop()
        return arguments(depth + 1)

    def arguments(depth: int) -> tuple[Term, ...]:
        """`t1, ..., tn)` after a `(`, and the lists right after it when `curried`."""
        args = []
        while True:
            s = pop()
            after = pop()
            if s not in not_name:
                if after != "(":
                    args.append(constant(s))
                elif depth >= READER_DEPTH:
                    raise Reject
                else:
                    args.append(new_func(s, arguments(depth + 1)))
                    after = pop()
            elif s == "(" and parenthesised is not None:
                push(after)
                name, inner = parenthesised(depth + 1)
                args.append(constant(name) if inner is None else new_func(name, inner))
                after = pop()
            else:
                raise Reject
            if after == ")":
                if not curried:
                    return tuple(args)
                after = pop()
                if after != "(":
                    push(after)
                    return tuple(args)
            elif after != ",":
                raise Reject

    return arguments, applied
