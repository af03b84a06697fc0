"""The one model checker (`prove.holds`) against the truth definition written out plainly.

`holds` compiles a formula into closures and lets a quantifier try only the elements its guards
allow; the reference below is the textbook definition, one case per connective, with a fresh
environment per element. They must agree on every formula and model: random full first-order
formulas (every connective, nested quantifiers, shadowed variables, names and functions) over
random models, and AmP's own pairs with the first stage's candidate models.
"""

from __future__ import annotations

import itertools
import random

import pytest

from ambit.logic.engine.model_check import holds
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Func, Iff, Implies, Not, Or, Quant, Var, Xor

PREDS = {"p": 1, "q": 1, "r": 2, "s": 0}


def reference(f, m: dict, env: dict) -> bool:
    t = type(f)
    if t is Atom:
        return (f.pred, *[value(a, m, env) for a in f.args]) in m["atoms"]
    if t is Eq:
        return value(f.left, m, env) == value(f.right, m, env)
    if t is Not:
        return not reference(f.body, m, env)
    if t is And:
        return all(reference(c, m, env) for c in f.children)
    if t is Or:
        return any(reference(c, m, env) for c in f.children)
    if t is Implies:
        return not reference(f.left, m, env) or reference(f.right, m, env)
    if t is Iff:
        return reference(f.left, m, env) == reference(f.right, m, env)
    if t is Xor:
        return reference(f.left, m, env) != reference(f.right, m, env)
    test = all if f.kind == "forall" else any
    return test(reference(f.body, m, {**env, f.var: d}) for d in m["domain"])


def value(a, m: dict, env: dict) -> str:
    if type(a) is Var:
        return env[a.name]
    if type(a) is Const:
        return m["constants"][a.name]
    return m["functions"][a.name][tuple(value(b, m, env) for b in a.args)]


def random_term(rng: random.Random, bound: list[str]):
    r = rng.random()
    if bound and r < 0.6:
        return Var(rng.choice(bound))
    if r < 0.85:
        return Const(rng.choice(["a", "b"]))
    return Func("f", (random_term(rng, bound),))


def random_formula(rng: random.Random, depth: int, bound: list[str]):
    r = rng.random()
    if depth <= 0 or r < 0.25:
        if rng.random() < 0.15:
            return Eq(random_term(rng, bound), random_term(rng, bound))
        pred = rng.choice(sorted(PREDS))
        return Atom(pred, tuple(random_term(rng, bound) for _ in range(PREDS[pred])))
    if r < 0.55:
        v = rng.choice(["x", "y", "z"])  # shadowing included
        return Quant(rng.choice(["exists", "forall"]), v, random_formula(rng, depth - 1, bound + [v]))
    if r < 0.75:
        op = rng.choice([And, Or])
        return op(tuple(random_formula(rng, depth - 1, bound) for _ in range(rng.randint(2, 3))))
    if r < 0.85:
        return Not(random_formula(rng, depth - 1, bound))
    op = rng.choice([Implies, Iff, Xor])
    return op(random_formula(rng, depth - 1, bound), random_formula(rng, depth - 1, bound))


def random_model(rng: random.Random) -> dict:
    domain = [f"d{i}" for i in range(1, rng.randint(1, 4) + 1)]
    atoms = set()
    for pred, arity in PREDS.items():
        for args in itertools.product(domain, repeat=arity):
            if rng.random() < 0.5:
                atoms.add((pred, *args))
    return {"domain": domain, "constants": {c: rng.choice(domain) for c in ("a", "b")},
            "functions": {"f": {(d,): rng.choice(domain) for d in domain}}, "atoms": atoms}


@pytest.mark.parametrize("seed", range(8))
def test_holds_agrees_with_the_truth_definition(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(300):
        f, m = random_formula(rng, 4, []), random_model(rng)
        env = {}
        assert holds(f, m, env) == reference(f, m, env), (f, m)
        checked += 1
    assert checked == 300


def test_guards_do_not_change_an_answer() -> None:
    """A universal whose guard leaves an element out is false; an existential tries only guarded
    elements; a variable rebound inside keeps its own guard."""
    m = {"domain": ["d1", "d2"], "constants": {}, "functions": {}, "atoms": {("p", "d1"), ("q", "d2"), ("r", "d2", "d1")}}
    every_p = Quant("forall", "x", And((Atom("p", (Var("x"),)), Atom("q", (Var("x"),)))))
    some_pq = Quant("exists", "x", And((Atom("p", (Var("x"),)), Quant("exists", "y", Atom("r", (Var("y"), Var("x")))))))
    shadow = Quant("exists", "x", And((Atom("q", (Var("x"),)), Quant("exists", "x", Atom("p", (Var("x"),))))))
    for f, want in ((every_p, False), (some_pq, True), (shadow, True)):
        assert holds(f, m) is want
        assert reference(f, m, {}) is want
