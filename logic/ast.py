"""The one immutable AST for logical forms, shared by every format and component.

Formats (FOL, Lisp, Prolog terms) exist only at the edges: `logic.parse` reads them into
these values and `logic.render` writes them back out.
"""

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


Term = Union[Var, Const]


@dataclass(frozen=True, slots=True)
class Atom:
    """`pred(arg, ...)`: a predicate applied to one or two terms."""

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


Formula = Union[Atom, And, Or, Quant]
Connective = Union[And, Or]


def subformulas(f: Formula) -> Iterator[Formula]:
    """Every subformula of `f`, `f` first (pre-order)."""
    stack = [f]
    while stack:
        node = stack.pop()
        yield node
        match node:
            case And(children) | Or(children):
                stack.extend(reversed(children))
            case Quant(body=body):
                stack.append(body)


def free_vars(f: Formula) -> frozenset[str]:
    """Names of the variables that occur free in `f`."""
    match f:
        case Atom(args=args):
            return frozenset(a.name for a in args if isinstance(a, Var))
        case And(children) | Or(children):
            return frozenset().union(*(free_vars(c) for c in children))
        case Quant(var=var, body=body):
            return free_vars(body) - {var}
    raise TypeError(f"not a formula: {f!r}")


def constants(f: Formula) -> frozenset[str]:
    """Names of the constants that occur in `f`."""
    return frozenset(
        a.name for node in subformulas(f) if isinstance(node, Atom) for a in node.args if isinstance(a, Const)
    )


def predicates(f: Formula) -> frozenset[tuple[str, int]]:
    """(name, arity) of every predicate used in `f`."""
    return frozenset((n.pred, len(n.args)) for n in subformulas(f) if isinstance(n, Atom))


def size(f: Formula) -> int:
    """Number of nodes (atoms, connectives, quantifiers) in `f`."""
    return sum(1 for _ in subformulas(f))
