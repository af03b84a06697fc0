"""The one model checker, written independently of every search: every model reported passes here.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ambit.logic.runtime.cancel import PrologError
from ambit.logic.syntax.ast import (And, Atom, Const, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Term, Var, Xor,
                                    constants)


def value(a: Term, model: dict, env: dict[str, str]) -> str:
    """The element term `a` denotes in `model` under `env` (a function term: its table's entry)."""
    slot = _Model()
    slot.bind(model)
    return _term(a, slot)(env)


def holds(f: Formula, model: dict, env: dict[str, str] | None = None) -> bool:
    """Whether `f` is true in `model` ({"domain", "constants", "functions", "atoms"})."""
    return Checker([f]).holds(model, env)[0]


class Checker:
    """Formulas compiled once and checked in many models (a new model costs only its index)."""

    __slots__ = ("_slot", "_fns")

    def __init__(self, formulas: Sequence[Formula]) -> None:
        self._slot = _Model()
        self._fns = [_compile(f, self._slot)[0] for f in formulas]

    @property
    def predicates(self) -> set[str]:
        """Every predicate of the formulas."""
        return self._slot.predicates

    def bind(self, model: dict) -> None:
        """Check in `model` from now on."""
        self._slot.bind(model)

    def check(self, i: int, env: dict[str, str] | None = None) -> bool:
        """Whether formula `i` holds in the model bound last (under `env`)."""
        return self._fns[i](dict(env or {}))

    def holds(self, model: dict, env: dict[str, str] | None = None) -> list[bool]:
        """Whether each formula holds in `model`."""
        self.bind(model)
        return [fn(dict(env or {})) for fn in self._fns]


class _Model:
    """The model the compiled closures read, rebound per model; its atoms' index built on demand."""

    __slots__ = ("atoms", "domain", "constants", "functions", "generation", "_index", "predicates")

    def __init__(self) -> None:
        self.predicates: set[str] = set()  # of every formula compiled against this slot
        self.atoms: set = set()
        self.domain: list = []
        self.constants: dict = {}
        self.functions: dict = {}
        self.generation = 0
        self._index: dict | None = None

    def bind(self, m: dict) -> None:
        self.atoms, self.domain = m["atoms"], m["domain"]
        self.constants, self.functions = m.get("constants", {}), m.get("functions", {})
        self.generation += 1
        self._index = None

    def index(self) -> dict[tuple[str, int], set]:
        """(predicate, position) -> the elements at that place in true atoms."""
        if self._index is None:
            index: dict[tuple[str, int], set] = {}
            for atom in self.atoms:
                for i in range(1, len(atom)):
                    index.setdefault((atom[0], i - 1), set()).add(atom[i])
            self._index = index
        return self._index


def _term(a: Term, m: _Model):
    """A function of the environment: the element `a` denotes."""
    t, name = type(a), a.name
    if t is Var:
        return lambda env: env[name]
    if t is Const:
        return lambda env: m.constants[name]
    args = [_term(b, m) for b in a.args]
    return lambda env: m.functions[name][tuple(g(env) for g in args)]


# what a formula requires: (variable, predicate, position) of each atom that must be true for it
# to be (a conjunct, through ∧ and quantifiers of other variables, domains being non-empty)
Needs = list[tuple[str, str, int]]
_NOTHING: Needs = []


def _compile(f: Formula, m: _Model) -> tuple[Callable[[dict], bool], Needs]:
    """`f` as a function of the environment (bound in place by quantifiers), and its `Needs`."""
    t = type(f)
    if t is Atom:
        m.predicates.add(f.pred)
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
    """`f` as a function of the environment, for a formula that requires nothing."""
    t = type(f)
    if t is Atom or t is And or t is Quant:
        return _compile(f, m)[0]
    if t is Eq:
        left, right = _term(f.left, m), _term(f.right, m)
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
    """An atom's truth: its tuple looked up among the true atoms (common shapes without a loop)."""
    pred, args = f.pred, f.args
    kinds = tuple(type(a) for a in args)
    if Func not in kinds:
        if kinds == _ONE_VAR:
            x = args[0].name
            return lambda env: (pred, env[x]) in m.atoms
        if kinds == _TWO_VARS:
            x, y = args[0].name, args[1].name
            return lambda env: (pred, env[x], env[y]) in m.atoms
        if kinds == _VAR_CONST:
            x, c = args[0].name, args[1].name
            return lambda env: (pred, env[x], m.constants[c]) in m.atoms
        if kinds == _CONST_VAR:
            c, y = args[0].name, args[1].name
            return lambda env: (pred, m.constants[c], env[y]) in m.atoms
    terms = [_term(a, m) for a in args]
    return lambda env: (pred, *[g(env) for g in terms]) in m.atoms


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
    """A quantifier with `var` bound in place, and its needs of other variables (`_guarded`)."""
    var, exists = f.var, f.kind != "forall"
    body, needs = _compile(f.body, m)
    guards = [(p, i) for x, p, i in needs if x == var]
    if guards:
        needs = [n for n in needs if n[0] != var]
    domain_of = _guarded(guards, exists, m) if guards else None
    unbound = _UNBOUND

    def quantified(env: dict) -> bool:
        domain = m.domain if domain_of is None else domain_of()
        if domain is None:  # a universal with an element outside its guard
            return False
        outer = env.get(var, unbound)
        try:
            for d in domain:
                env[var] = d
                if body(env) is exists:
                    return exists
            return not exists
        finally:
            if outer is unbound:
                env.pop(var, None)
            else:
                env[var] = outer

    return quantified, needs


def _guarded(guards: list[tuple[str, int]], exists: bool, m: _Model) -> Callable[[], list | None]:
    """A guarded quantifier's elements in the bound model, once per model (None: a false ∀)."""
    cache: list = [-1, None]  # the model's generation, its domain

    def domain() -> list | None:
        if cache[0] != m.generation:
            index = m.index()
            best = index.get(guards[0], _NONE)
            for key in guards[1:]:
                best = best & index.get(key, _NONE)
            among = [d for d in m.domain if d in best]
            cache[0], cache[1] = m.generation, among if exists else (m.domain if len(among) == len(m.domain) else None)
        return cache[1]

    return domain


def _model(d: dict) -> dict:
    """Prolog's model (elements 1..n) with elements named d1..dn."""
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


class ModelCheckFailed(PrologError):
    """A search returned a model the checker rejects: a bug in that search, never reported."""


def checked_model(d: dict, true: Sequence[Formula], false: Sequence[Formula] = (), extensions: bool = False) -> dict:
    """The model (Prolog's or Z3's) once all of `true` and none of `false` hold in it."""
    if "size" in d:
        m = _model(d)
    else:
        names = set().union(*(constants(f) for f in (*true, *false)))
        m = {**d, "constants": {**{c: d["domain"][0] for c in names},
                                **{c: e for c, e in d["constants"].items() if c in names}}}
    checker = Checker([*true, *false])
    checker.bind(m)
    for i, f in enumerate(true):
        if not checker.check(i):
            raise ModelCheckFailed(f"model search returned a model that does not satisfy {f!r}")
    for i, f in enumerate(false, start=len(true)):
        if checker.check(i):
            raise ModelCheckFailed(f"model search returned a model that satisfies {f!r}")
    out = {
        "domain": m["domain"],
        "constants": m["constants"],
        "true_atoms": sorted(f"{a[0]}({', '.join(a[1:])})" if len(a) > 1 else a[0] for a in m["atoms"]),
    }
    if m.get("functions"):  # each function's table: "f(d1, d2)": "d3"
        out["functions"] = {f"{name}({', '.join(args)})": e for name, table in sorted(m["functions"].items())
                            for args, e in sorted(table.items())}
    if extensions:
        ext: dict[str, list] = {p: [] for p in checker.predicates}
        for atom in m["atoms"]:
            ext.setdefault(atom[0], []).append(list(atom[1:]))
        out["extensions"] = {p: sorted(ts) for p, ts in sorted(ext.items())}
    return out


__all__ = ["Checker", "ModelCheckFailed", "checked_model", "holds", "value"]
