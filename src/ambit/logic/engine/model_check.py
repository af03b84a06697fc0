"""The one model checker: whether a formula holds in a finite model (`holds`), and a model from
a search checked before it is reported (`checked_model`). Every model ambit reports, whichever
stage or prover found it, passes through here; it is written independently of every search.
"""

from __future__ import annotations

from typing import Sequence

from ambit.logic.runtime.cancel import PrologError
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Iff, Implies, Not, Or, Quant, Term, Var, Xor, children


def value(a: Term, model: dict, env: dict[str, str]) -> str:
    """The element term `a` denotes in `model` under `env` (a function term: its table's entry)."""
    return _term(a, model)(env)


def holds(f: Formula, model: dict, env: dict[str, str] | None = None) -> bool:
    """Whether `f` is true in `model` ({"domain": [...], "constants": {name: element},
    "functions": {name: {argument tuple: element}}, "atoms": set of (pred, elements...)}): the
    truth definition, one case per connective (`_truth`), compiled once per call into closures
    over one environment, so that a quantifier over a large domain costs a loop, not a copy of
    the environment per element. An existential whose body requires an atom of its variable
    (a conjunct, at any depth of conjunction) tries only the elements that atom is true of:
    every other element makes that conjunct, and so the body, false."""
    return _holds_in(f, _Model(model), env)


def _holds_in(f: Formula, m: "_Model", env: dict[str, str] | None = None) -> bool:
    """`holds` in a model already indexed (one index for every formula checked in it)."""
    m.guards = _guards(f)
    return _truth(f, m)(dict(env or {}))


class _Model:
    """A model and the index of its atoms by (predicate, argument position)."""

    __slots__ = ("m", "atoms", "domain", "index", "guards")

    def __init__(self, m: dict) -> None:
        self.m, self.atoms, self.domain = m, m["atoms"], m["domain"]
        index: dict[tuple[str, int], set] = {}  # (predicate, position) -> the elements there
        for atom in self.atoms:
            for i in range(1, len(atom)):
                index.setdefault((atom[0], i - 1), set()).add(atom[i])
        self.index = index
        self.guards: dict[int, list[tuple[str, int]]] = {}


def _term(a: Term, model: dict):
    """A function of the environment: the element `a` denotes."""
    t = type(a)
    if t is Var:
        name = a.name
        return lambda env: env[name]
    if t is Const:
        e = model["constants"][a.name]
        return lambda env: e
    table = model["functions"][a.name]
    args = [_term(b, model) for b in a.args]
    return lambda env: table[tuple(g(env) for g in args)]


def _truth(f: Formula, m: _Model):
    """`f` as a function of the environment (a dict, bound in place by quantifiers)."""
    t = type(f)
    if t is Atom:
        return _atom(f, m)
    if t is Eq:
        left, right = _term(f.left, m.m), _term(f.right, m.m)
        return lambda env: left(env) == right(env)
    if t is Not:
        body = _truth(f.body, m)
        return lambda env: not body(env)
    if t is And or t is Or:
        return _junction(t is And, [_truth(c, m) for c in f.children])
    if t is Implies or t is Iff or t is Xor:
        left, right = _truth(f.left, m), _truth(f.right, m)
        if t is Implies:
            return lambda env: not left(env) or right(env)
        if t is Iff:
            return lambda env: left(env) == right(env)
        return lambda env: left(env) != right(env)
    if t is Quant:
        return _quantifier(f, m)
    raise TypeError(f"not a formula: {f!r}")


def _atom(f: Atom, m: _Model):
    """An atom's truth: its tuple of elements looked up among the true atoms (the common
    shapes, one or two variables or names, without a loop)."""
    atoms, pred, args = m.atoms, f.pred, f.args
    if all(type(a) is Var for a in args) and len(args) <= 2:
        if len(args) == 1:
            x = args[0].name
            return lambda env: (pred, env[x]) in atoms
        if len(args) == 2:
            x, y = args[0].name, args[1].name
            return lambda env: (pred, env[x], env[y]) in atoms
        return lambda env: (pred,) in atoms
    terms = [_term(a, m.m) for a in args]
    return lambda env: (pred, *[g(env) for g in terms]) in atoms


def _junction(conjunction: bool, parts: list):
    if len(parts) == 2:
        p, q = parts
        return (lambda env: p(env) and q(env)) if conjunction else (lambda env: p(env) or q(env))
    if conjunction:
        def every(env: dict) -> bool:
            for p in parts:
                if not p(env):
                    return False
            return True
        return every

    def some(env: dict) -> bool:
        for p in parts:
            if p(env):
                return True
        return False
    return some


_UNBOUND = object()
_NONE: frozenset = frozenset()


def _quantifier(f: Quant, m: _Model):
    """A quantifier over the domain, with `var` bound in place. Where a conjunct of the body is
    an atom of `var` (`_guard`), only the elements that atom is true of can make the body true:
    an existential tries only those, and a universal is false outright when some element is
    not among them."""
    body, var, exists = _truth(f.body, m), f.var, f.kind != "forall"
    guard = _guard(f, m)
    if guard is None:
        domain = m.domain
    elif exists:
        domain = guard
    elif len(guard) < len(m.domain):
        return lambda env: False
    else:
        domain = m.domain

    def quantified(env: dict) -> bool:
        outer = env.get(var, _UNBOUND)
        try:
            for d in domain:
                env[var] = d
                if body(env) is exists:
                    return exists
            return not exists
        finally:
            if outer is _UNBOUND:
                env.pop(var, None)
            else:
                env[var] = outer

    return quantified


def _guard(q: Quant, m: _Model) -> list | None:
    """The elements that can make the body of `q` true as values of its variable: those at the
    variable's place in the true atoms of its guards (`_guards`), in domain order; None when it
    has none."""
    best, index = None, m.index
    for key in m.guards.get(id(q), ()):
        es = index.get(key, _NONE)
        best = es if best is None else best & es
    if best is None:
        return None
    return [d for d in m.domain if d in best]


def _guards(f: Formula) -> dict[int, list[tuple[str, int]]]:
    """For each quantifier of `f` (by id), its guards: (predicate, argument position) of every
    atom with its variable as a direct argument that is a conjunct of its body, looked for
    through conjunctions and through quantifiers of other variables (over a domain that is never
    empty, `Q y. (C ∧ ...)` needs C as much as `C ∧ ...` does). One walk of `f`; `reach` maps
    each variable whose guards the walk is still collecting to its list."""
    out: dict[int, list[tuple[str, int]]] = {}

    def walk(g: Formula, reach: dict[str, list]) -> None:
        t = type(g)
        if t is Atom:
            for i, a in enumerate(g.args):
                if type(a) is Var and (mine := reach.get(a.name)) is not None:
                    mine.append((g.pred, i))
        elif t is And:
            for c in g.children:
                walk(c, reach)
        elif t is Quant:
            mine = out[id(g)] = []
            outer = reach.get(g.var)
            reach[g.var] = mine
            walk(g.body, reach)
            if outer is None:
                del reach[g.var]
            else:
                reach[g.var] = outer
        elif t is not Eq:  # past a disjunction, a negation or an implication nothing is required
            for c in children(g):
                walk(c, {})

    walk(f, {})
    return out


def _model(d: dict) -> dict:
    """Prolog's model (elements 1..n) with elements named d1..dn; constants Prolog left free
    (none occur) are absent."""
    el = lambda e: f"d{e}"  # noqa: E731
    functions: dict[str, dict] = {}
    for name, args, e in d.get("functions", []):
        functions.setdefault(name, {})[tuple(el(x) for x in args)] = el(e)
    return {
        "domain": [el(e) for e in range(1, d["size"] + 1)],
        "constants": {c: el(e) for c, e in d["constants"].items()},
        "functions": functions,
        "atoms": {(a[0], *[el(e) for e in a[1:]]) for a in d["atoms"]},
    }


def checked_model(d: dict, true: Sequence[Formula], false: Sequence[Formula]) -> dict:
    """The model, after checking that every formula of `true` holds in it and none of `false`;
    a model that fails the check is a bug in the search, raised, never reported."""
    m = _model(d)
    indexed = _Model(m)
    for f in true:
        if not _holds_in(f, indexed):
            raise PrologError(f"model search returned a model that does not satisfy {f!r}")
    for f in false:
        if _holds_in(f, indexed):
            raise PrologError(f"model search returned a model that satisfies {f!r}")
    out = {
        "domain": m["domain"],
        "constants": m["constants"],
        "true_atoms": sorted(f"{a[0]}({', '.join(a[1:])})" if len(a) > 1 else a[0] for a in m["atoms"]),
    }
    if m["functions"]:  # each function's table: "f(d1, d2)": "d3"
        out["functions"] = {f"{name}({', '.join(args)})": e for name, table in sorted(m["functions"].items())
                            for args, e in sorted(table.items())}
    return out


__all__ = ["checked_model", "holds", "value"]
