"""The one model checker: whether a formula holds in a finite model (`holds`), and a model from
a search checked before it is reported (`checked_model`). Every model ambit reports, whichever
stage or prover found it, passes through here; it is written independently of every search.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ambit.logic.runtime.cancel import PrologError
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor


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
    return _compile(f, m)[0](dict(env or {}))


class _Model:
    """A model and the index of its atoms by (predicate, argument position)."""

    __slots__ = ("m", "atoms", "domain", "index")

    def __init__(self, m: dict) -> None:
        self.m, self.atoms, self.domain = m, m["atoms"], m["domain"]
        index: dict[tuple[str, int], set] = {}  # (predicate, position) -> the elements there
        for atom in self.atoms:
            for i in range(1, len(atom)):
                index.setdefault((atom[0], i - 1), set()).add(atom[i])
        self.index = index


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


# what a formula requires: (variable, predicate, argument position) of every atom with that
# variable as a direct argument that must be true for the formula to be (a conjunct, looked for
# through conjunctions and through quantifiers of other variables: over a domain that is never
# empty, `Q y. (C ∧ ...)` needs C as much as `C ∧ ...` does); past a disjunction, a negation
# or an implication nothing is required
Needs = list[tuple[str, str, int]]
_NOTHING: Needs = []


def _compile(f: Formula, m: _Model) -> tuple[Callable[[dict], bool], Needs]:
    """`f` as a function of the environment (a dict, bound in place by quantifiers), and what
    it requires (`Needs`): a quantifier's guards are what its body requires of its variable,
    found in the same walk that compiles it."""
    t = type(f)
    if t is Atom:
        needs = [(a.name, f.pred, i) for i, a in enumerate(f.args) if type(a) is Var]
        return _atom(f, m), needs
    if t is And:
        parts, needs = [], []
        for c in f.children:
            fn, n = _compile(c, m)
            parts.append(fn)
            needs += n
        return _junction(True, parts), needs
    if t is Quant:
        return _quantifier(f, m)
    return _truth(f, m), _NOTHING


def _truth(f: Formula, m: _Model):
    """`f` as a function of the environment, for a formula that requires nothing (`_compile`
    takes the others)."""
    t = type(f)
    if t is Atom or t is And or t is Quant:
        return _compile(f, m)[0]
    if t is Eq:
        left, right = _term(f.left, m.m), _term(f.right, m.m)
        return lambda env: left(env) == right(env)
    if t is Not:
        body = _truth(f.body, m)
        return lambda env: not body(env)
    if t is Or:
        return _junction(False, [_truth(c, m) for c in f.children])
    if t is Implies or t is Iff or t is Xor:
        left, right = _truth(f.left, m), _truth(f.right, m)
        if t is Implies:
            return lambda env: not left(env) or right(env)
        if t is Iff:
            return lambda env: left(env) == right(env)
        return lambda env: left(env) != right(env)
    raise TypeError(f"not a formula: {f!r}")


def _atom(f: Atom, m: _Model):
    """An atom's truth: its tuple of elements looked up among the true atoms (the common
    shapes, up to two variables or names, without a loop; an atom of names alone is looked up
    once, here)."""
    atoms, pred, args = m.atoms, f.pred, f.args
    kinds = tuple(type(a) for a in args)
    if Func not in kinds:
        if Var not in kinds:  # ground: its truth does not depend on the environment
            true = (pred, *[m.m["constants"][a.name] for a in args]) in atoms
            return lambda env: true
        if kinds == _ONE_VAR:
            x = args[0].name
            return lambda env: (pred, env[x]) in atoms
        if kinds == _TWO_VARS:
            x, y = args[0].name, args[1].name
            return lambda env: (pred, env[x], env[y]) in atoms
        if kinds == _VAR_CONST:
            x, c = args[0].name, m.m["constants"][args[1].name]
            return lambda env: (pred, env[x], c) in atoms
        if kinds == _CONST_VAR:
            c, y = m.m["constants"][args[0].name], args[1].name
            return lambda env: (pred, c, env[y]) in atoms
    terms = [_term(a, m.m) for a in args]
    return lambda env: (pred, *[g(env) for g in terms]) in atoms


_ONE_VAR, _TWO_VARS, _VAR_CONST, _CONST_VAR = (Var,), (Var, Var), (Var, Const), (Const, Var)


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


def _quantifier(f: Quant, m: _Model) -> tuple[Callable[[dict], bool], Needs]:
    """A quantifier over the domain, with `var` bound in place, and what it requires of other
    variables. Where a conjunct of the body is an atom of `var` (its guards: what the body
    requires of `var`), only the elements that atom is true of can make the body true: an
    existential tries only those, and a universal is false outright when some element is not
    among them."""
    var, exists = f.var, f.kind != "forall"
    body, needs = _compile(f.body, m)
    guards = [(p, i) for x, p, i in needs if x == var]
    if guards:
        needs = [n for n in needs if n[0] != var]
    guard = _guard(guards, m) if guards else None
    if guard is None:
        domain = m.domain
    elif exists:
        domain = guard
    elif len(guard) < len(m.domain):
        return (lambda env: False), needs
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

    return quantified, needs


def _guard(guards: list[tuple[str, int]], m: _Model) -> list:
    """The elements that can be a quantifier's variable, given its guards ((predicate,
    position) of atoms its body requires): those at that place in true atoms of every guard,
    in domain order."""
    index = m.index
    best = index.get(guards[0], _NONE)
    for key in guards[1:]:
        best = best & index.get(key, _NONE)
    return [d for d in m.domain if d in best]


def _model(d: dict) -> dict:
    """Prolog's model (elements 1..n) with elements named d1..dn; constants Prolog left free
    (none occur) are absent."""
    names = [f"d{e}" for e in range(d["size"] + 1)]  # element e is names[e]
    functions: dict[str, dict] = {}
    try:
        for name, args, e in d.get("functions", []):
            functions.setdefault(name, {})[tuple([names[x] for x in args])] = names[e]
        return {
            "domain": names[1:],
            "constants": {c: names[e] for c, e in d["constants"].items()},
            "functions": functions,
            "atoms": {(a[0], *[names[e] for e in a[1:]]) for a in d["atoms"]},
        }
    except IndexError:
        raise PrologError(f"model search returned an element outside its domain 1..{d['size']}") from None


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
