"""The one immutable AST for logical forms: formats exist only at the edges. AmP's fragment uses
`Quant`, `And`, `Or`, `Atom`; full first-order logic adds the rest (`≠` is `Not(Eq(...))`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

QUANTIFIERS = ("exists", "forall")


@dataclass(frozen=True, slots=True)
class Var:
    """A variable occurrence; bound by the nearest enclosing `Quant` of the same name."""

    name: str


@dataclass(frozen=True, slots=True)
class Const:
    """A constant (a proper name such as `Mary`)."""

    name: str


@dataclass(frozen=True, slots=True)
class Func:
    """`f(t1, ..., tn)`: a function applied to terms (full first-order logic; n >= 1)."""

    name: str
    args: tuple["Term", ...]


Term = Union[Var, Const, Func]


@dataclass(frozen=True, slots=True)
class Atom:
    """`pred(arg, ...)`: a predicate applied to any number of terms (AmP uses one or two)."""

    pred: str
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class And:
    """Conjunction of two or more formulas (n-ary; nesting is kept as written)."""

    children: tuple["Formula", ...]


@dataclass(frozen=True, slots=True)
class Or:
    """Disjunction of two or more formulas (n-ary; nesting is kept as written)."""

    children: tuple["Formula", ...]


@dataclass(frozen=True, slots=True)
class Quant:
    """`exists x . body` or `forall x . body`."""

    kind: str
    var: str
    body: "Formula"

    def __post_init__(self) -> None:
        if self.kind not in QUANTIFIERS:
            raise ValueError(f"quantifier must be one of {QUANTIFIERS}, not {self.kind!r}")


@dataclass(frozen=True, slots=True)
class Eq:
    """`left = right`: identity of two individuals."""

    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Not:
    """`¬ body`."""

    body: "Formula"


@dataclass(frozen=True, slots=True)
class Implies:
    """`left → right`."""

    left: "Formula"
    right: "Formula"


@dataclass(frozen=True, slots=True)
class Iff:
    """`left ↔ right`."""

    left: "Formula"
    right: "Formula"


@dataclass(frozen=True, slots=True)
class Xor:
    """`left ⊕ right` (exclusive or: exactly one of the two holds)."""

    left: "Formula"
    right: "Formula"


Formula = Union[Atom, Eq, Not, And, Or, Implies, Iff, Xor, Quant]


def children(f: Formula) -> tuple[Formula, ...]:
    """The immediate subformulas of `f`, left to right: the one traversal step every walk uses."""
    t = type(f)
    if t is And or t is Or:
        return f.children
    if t is Quant or t is Not:
        return (f.body,)
    if t is Implies or t is Iff or t is Xor:
        return (f.left, f.right)
    if t is Atom or t is Eq:
        return ()
    raise TypeError(f"not a formula: {f!r}")


def terms(f: Formula) -> tuple[Term, ...]:
    """The terms written directly in `f` (the arguments of an atom, the sides of an equation)."""
    t = type(f)
    if t is Atom:
        return f.args
    if t is Eq:
        return (f.left, f.right)
    return ()


def subformulas(f: Formula) -> Iterator[Formula]:
    """Every subformula of `f`, `f` first: `children`'s dispatch inlined (the hottest walk)."""
    stack = [f]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        yield node
        t = type(node)
        if t is And or t is Or:
            extend(node.children[::-1])
        elif t is Quant or t is Not:
            push(node.body)
        elif t is Implies or t is Iff or t is Xor:
            push(node.right)
            push(node.left)
        elif t is not Atom and t is not Eq:
            raise TypeError(f"not a formula: {node!r}")


def depth(f: Formula, limit: int | None = None) -> int:
    """How deeply `f` nests (an atom is 1), without recursion; stops past `limit`."""
    deepest = 0
    stack: list = [(f, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        node, d = pop()
        if d > deepest:
            deepest = d
            if limit is not None and d > limit:
                return d
        t = type(node)
        if t is Func:
            for a in node.args:
                push((a, d + 1))
        elif t is not Var and t is not Const:
            for c in children(node):
                push((c, d + 1))
            for a in terms(node):
                if type(a) is Func:
                    push((a, d + 1))
    return deepest


def subterms(t: Term) -> Iterator[Term]:
    """`t` and every term inside it (a function's arguments, theirs, ...), `t` first."""
    stack = [t]
    while stack:
        u = stack.pop()
        yield u
        if type(u) is Func:
            stack.extend(reversed(u.args))


def term_vars(t: Term) -> Iterator[str]:
    """The names of the variables in `t`."""
    if type(t) is Var:
        yield t.name
    elif type(t) is Func:
        for u in subterms(t):
            if type(u) is Var:
                yield u.name


def free_vars(f: Formula) -> frozenset[str]:
    """Names of the variables that occur free in `f` (one walk; no set built per node)."""
    free: set[str] = set()
    stack: list[tuple[Formula, frozenset[str]]] = [(f, frozenset())]
    pop, push = stack.pop, stack.append
    while stack:
        node, bound = pop()
        t = type(node)
        if t is Atom:
            for a in node.args:
                if type(a) is Var:
                    if a.name not in bound:
                        free.add(a.name)
                elif type(a) is Func:
                    free.update(v for v in term_vars(a) if v not in bound)
        elif t is Quant:
            push((node.body, bound | {node.var}))
        elif t is Eq:
            free.update(v for a in (node.left, node.right) for v in term_vars(a) if v not in bound)
        else:
            for c in children(node):
                push((c, bound))
    return frozenset(free)


def constants(f: Formula) -> frozenset[str]:
    """Names of the constants that occur in `f`."""
    return frozenset(u.name for node in subformulas(f) for a in terms(node) for u in subterms(a) if type(u) is Const)


def functions(f: Formula) -> frozenset[tuple[str, int]]:
    """(name, arity) of every function symbol used in `f`."""
    return frozenset((u.name, len(u.args)) for node in subformulas(f) for a in terms(node) for u in subterms(a)
                     if type(u) is Func)


def predicates(f: Formula) -> frozenset[tuple[str, int]]:
    """(name, arity) of every predicate used in `f`."""
    return frozenset((n.pred, len(n.args)) for n in subformulas(f) if isinstance(n, Atom))
