"""Canonical form of logical forms, compatible with AmP's evaluation.

AmP compares a prediction with the gold LF by rendering both canonically: nested AND/AND and
OR/OR are flattened, children sorted (operator subtrees first, then atoms by `pred[args]`),
variables renamed by quantifier position, unused quantifiers dropped, quantifier order kept
(that order is what separates scope readings). Two LFs AmP treats as equal get the same
canonical string here, and so do LFs that differ only in bound-variable names or operand order.
"""

from __future__ import annotations

from .ast import And, Atom, Const, Formula, Or, Quant, Term, Var, free_vars
from .render import render

VAR_MODES = ("amp", "v")
_ENTITY = ("x", "y", "z")
_EVENT = ("a", "e", "i")


def simplify(f: Formula) -> Formula:
    """Flatten same-operator nesting, unwrap one-operand connectives, drop vacuous quantifiers."""
    match f:
        case Atom():
            return f
        case Quant(kind, var, body):
            body = simplify(body)
            return Quant(kind, var, body) if var in free_vars(body) else body
        case And(children) | Or(children):
            cls = type(f)
            flat: list[Formula] = []
            for c in children:
                c = simplify(c)
                flat.extend(c.children if type(c) is cls else (c,))
            return flat[0] if len(flat) == 1 else cls(tuple(flat))
    raise TypeError(f"not a formula: {f!r}")


def _is_event(var: str, body: Formula) -> bool:
    """Neo-Davidsonian reading: a variable is an event when it is the first argument of a
    binary (thematic-role) atom in its scope: agent(a, x), patient(e, Mary), have(e, ...)."""
    stack = [body]
    while stack:
        node = stack.pop()
        match node:
            case Atom(args=args):
                if len(args) == 2 and args[0] == Var(var):
                    return True
            case And(children) | Or(children):
                stack.extend(children)
            case Quant(var=v, body=b):
                if v != var:  # a same-named inner quantifier shadows `var`
                    stack.append(b)
    return False


class _Namer:
    """Hands out canonical variable names in the order quantifiers are met."""

    def __init__(self, mode: str) -> None:
        if mode not in VAR_MODES:
            raise ValueError(f"unknown variable naming {mode!r}: expected one of {', '.join(VAR_MODES)}")
        self.mode = mode
        self.count = 0
        self.entity = 0
        self.event = 0

    def fresh(self, var: str, body: Formula) -> str:
        self.count += 1
        if self.mode == "v":
            return f"v{self.count - 1}"
        if _is_event(var, body):
            self.event += 1
            n, pool = self.event - 1, _EVENT
        else:
            self.entity += 1
            n, pool = self.entity - 1, _ENTITY
        return pool[n] if n < len(pool) else f"{pool[0]}{n}"


def _shape(f: Formula, env: dict[str, str]) -> str:
    """A sort key invariant under renaming of the variables bound inside `f`: those print as
    `_k` by local position; free ones print under their (already canonical) names."""
    counter = [0]

    def go(g: Formula, env: dict[str, str]) -> str:
        match g:
            case Atom(pred, args):
                return pred + "[" + ",".join(env.get(a.name, a.name) if isinstance(a, Var) else a.name for a in args) + "]"
            case Quant(kind, var, body):
                counter[0] += 1
                local = f"_{counter[0]}"
                return f"{kind} {local} . {go(body, {**env, var: local})}"
            case And(children) | Or(children):
                op = "AND" if isinstance(g, And) else "OR"
                return f"{op}(" + " ".join(sorted(go(c, env) for c in children)) + ")"
        raise TypeError(f"not a formula: {g!r}")

    return go(f, env)


_RANK = {And: 0, Or: 1, Quant: 2, Atom: 3}


def _sort_key(f: Formula, env: dict[str, str]) -> tuple[int, str]:
    return (_RANK[type(f)], _shape(f, env))


def _canon(f: Formula, env: dict[str, str], namer: _Namer) -> Formula:
    match f:
        case Atom(pred, args):
            return Atom(pred, tuple(_rename(a, env) for a in args))
        case Quant(kind, var, body):
            new = namer.fresh(var, body)
            return Quant(kind, new, _canon(body, {**env, var: new}, namer))
        case And(children) | Or(children):
            ordered = sorted(children, key=lambda c: _sort_key(c, env))
            return type(f)(tuple(_canon(c, env, namer) for c in ordered))
    raise TypeError(f"not a formula: {f!r}")


def _rename(t: Term, env: dict[str, str]) -> Term:
    return Var(env.get(t.name, t.name)) if isinstance(t, Var) else t


def canonicalize(f: Formula, vars: str = "amp") -> Formula:
    """The canonical AST: simplified, operands sorted, bound variables renamed.

    vars='amp' names entities x, y, z (then x3, x4, ...) and events a, e, i (then a3, ...),
    as AmP's data does; vars='v' names them v0, v1, ... in quantifier order.
    """
    return _canon(simplify(f), {}, _Namer(vars))


def canonical_string(f: Formula, fmt: str = "fol", vars: str = "amp") -> str:
    """The canonical form rendered in `fol` or `lisp`."""
    return render(canonicalize(f, vars), fmt)


__all__ = ["simplify", "canonicalize", "canonical_string", "VAR_MODES", "Const"]
