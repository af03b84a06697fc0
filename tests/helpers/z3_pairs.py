"""Random AmP-like LFs, edits that keep or break equivalence, and Z3 as an independent prover
for them: shared by the z3 cross-check, the hard pairs and the one-engine tests.

Import it after `pytest.importorskip("z3")`."""

from __future__ import annotations

import random

import z3

from ambit.logic import And, Atom, Const, Or, Quant, Var


UNARY = ["man", "boy", "cup", "saw", "ran"]
BINARY = ["agent", "patient"]
NAMES = ["Mary", "John"]
VARS = ["x", "y", "a", "e"]


def random_lf(rng: random.Random) -> Quant:
    vs = rng.sample(VARS, rng.randint(1, 3))
    terms = [Var(v) for v in vs] + [Const(rng.choice(NAMES))] * (rng.random() < 0.3)
    atoms = []
    for v in vs:  # every variable used, so no quantifier is vacuous by accident
        atoms.append(Atom(rng.choice(UNARY), (Var(v),)))
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.5:
            atoms.append(Atom(rng.choice(BINARY), (rng.choice(terms), rng.choice(terms))))
        else:
            atoms.append(Atom(rng.choice(UNARY), (rng.choice(terms),)))
    rng.shuffle(atoms)
    if len(atoms) >= 3 and rng.random() < 0.4:  # a disjunction inside the matrix
        k = rng.randint(1, len(atoms) - 2)
        matrix = And(tuple(atoms[:k]) + (Or(tuple(atoms[k:k + 2])),) + tuple(atoms[k + 2:])) if len(atoms) > k + 2 \
            else And(tuple(atoms[:k]) + (Or(tuple(atoms[k:])),))
    else:
        matrix = And(tuple(atoms)) if len(atoms) > 1 else atoms[0]
    f = matrix
    for v in reversed(vs):
        f = Quant("forall" if rng.random() < 0.3 else "exists", v, f)
    return f


def prefix_matrix(f):
    qs = []
    while isinstance(f, Quant):
        qs.append((f.kind, f.var))
        f = f.body
    return qs, f


def build(qs, m):
    for kind, v in reversed(qs):
        m = Quant(kind, v, m)
    return m


def conjuncts(m):
    return list(m.children) if isinstance(m, And) else [m]


def mutate(f, rng: random.Random):
    qs, m = prefix_matrix(f)
    cs = conjuncts(m)
    op = rng.choice(["dup", "vacuous", "distribute", "absorb", "role_swap", "scope_swap", "drop", "flip",
                     "or_under_forall", "reorder"])
    if op == "dup":
        cs = cs + [rng.choice(cs)]
    elif op == "vacuous":
        qs = qs[:]
        qs.insert(rng.randint(0, len(qs)), (rng.choice(["exists", "forall"]), "z"))
    elif op == "distribute":
        ors = [c for c in cs if isinstance(c, Or)]
        if ors:
            o = ors[0]
            rest = [c for c in cs if c is not o]
            m2 = Or(tuple(And(tuple(rest) + (d,)) if rest else d for d in o.children))
            return op, build(qs, m2)
        cs = cs + cs[:1]
    elif op == "absorb":
        extra = Atom(rng.choice(UNARY), (Var(qs[0][1]),))
        return op, build(qs, Or((And(tuple(cs)) if len(cs) > 1 else cs[0], And(tuple(cs) + (extra,)))))
    elif op == "role_swap":
        bins = [i for i, c in enumerate(cs) if isinstance(c, Atom) and len(c.args) == 2]
        if bins:
            i = rng.choice(bins)
            cs = cs[:]
            cs[i] = Atom(cs[i].pred, cs[i].args[::-1])
    elif op == "scope_swap" and len(qs) >= 2:
        i = rng.randrange(len(qs) - 1)
        qs = qs[:]
        qs[i], qs[i + 1] = qs[i + 1], qs[i]
    elif op == "drop" and len(cs) > 1:
        cs = cs[:]
        cs.pop(rng.randrange(len(cs)))
    elif op == "flip":
        qs = qs[:]
        i = rng.randrange(len(qs))
        qs[i] = ("forall" if qs[i][0] == "exists" else "exists", qs[i][1])
    elif op == "or_under_forall":
        v = qs[0][1]
        qs = [("forall", v)] + qs[1:]
        cs = cs[:-1] + [Or((cs[-1], Atom(rng.choice(UNARY), (Var(v),))))] if len(cs) > 1 else \
            [Or((cs[0], Atom(rng.choice(UNARY), (Var(v),))))]
    elif op == "reorder":
        cs = cs[::-1]
    m2 = And(tuple(cs)) if len(cs) > 1 else cs[0]
    return op, build(qs, m2)


def to_z3(f, sort, funcs, env=None):
    env = env or {}
    match f:
        case Atom(pred, args):
            key = (pred, len(args))
            if key not in funcs:
                funcs[key] = z3.Function(pred, *([sort] * len(args)), z3.BoolSort())
            return funcs[key](*[env[a.name] if isinstance(a, Var) else z3.Const(a.name, sort) for a in args])
        case And(children):
            return z3.And([to_z3(c, sort, funcs, env) for c in children])
        case Or(children):
            return z3.Or([to_z3(c, sort, funcs, env) for c in children])
        case Quant(kind, var, body):
            v = z3.Const(f"{var}_{len(env)}", sort)
            b = to_z3(body, sort, funcs, {**env, var: v})
            return z3.Exists([v], b) if kind == "exists" else z3.ForAll([v], b)
    raise TypeError(f)


def z3_entails(a, b, timeout_ms: int = 2000) -> bool | None:
    sort = z3.DeclareSort("U")
    funcs: dict = {}
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(to_z3(a, sort, funcs), z3.Not(to_z3(b, sort, funcs)))
    r = s.check()
    return True if r == z3.unsat else False if r == z3.sat else None


def generated_pairs(n: int, seed: int = 7):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        f = random_lf(rng)
        op, g = mutate(f, rng)
        if rng.random() < 0.3:  # a second edit now and then
            op2, g = mutate(g, rng)
            op = f"{op}+{op2}"
        out.append((op, f, g))
    return out
