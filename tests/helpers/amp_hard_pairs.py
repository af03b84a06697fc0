"""Pairs of AmP-vocabulary formulas of the hard kinds, for the Z3 cross-check
(test_amp_hard_pairs.py) and `benchmarks/equiv_bench.py --section hard`.

A formula is random over AmP's vocabulary and fragment (quantifiers, AND, OR, atoms; entity
variables x y z, event variables a e i, names), with quantifiers of both kinds nested anywhere,
not only in a prefix. Its partner is one edit of it: a scope swap of two nested quantifiers, an
alpha-renaming (kept or broken: the new name captures an outer variable), a dropped or an added
atom, a flipped quantifier, or a regrouping of AND/OR that keeps the meaning. Some edits keep
equivalence and most break it; neither is assumed: the verdicts are what is checked.
"""

from __future__ import annotations

import random
from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Var

UNARY = ["man", "woman", "boy", "girl", "dog", "cat", "saw", "ate", "ran", "slept"]
BINARY = ["agent", "patient", "theme"]
NAMES = ["Mary", "John"]
VARS = ["x", "y", "z", "a", "e", "i"]
KINDS = ("scope_swap", "alpha_rename", "broken_alpha", "drop_atom", "add_atom", "flip_quantifier", "regroup")


def random_formula(rng: random.Random, depth: int = 3, bound: tuple[str, ...] = ()) -> Formula:
    """A closed AmP formula: quantifiers of either kind at any depth, AND/OR of 2-3 parts."""
    free = [v for v in VARS if v not in bound]
    r = rng.random()
    if free and (not bound or (depth > 0 and r < 0.45)):
        v = rng.choice(free)
        body = random_formula(rng, depth - 1, bound + (v,))
        return Quant(rng.choice(["forall", "exists"]), v, _uses(body, v, rng))
    if depth <= 0 or r < 0.6:
        return _atom(rng, bound)
    op = rng.choice([And, And, Or])
    return op(tuple(random_formula(rng, depth - 1, bound) for _ in range(rng.randint(2, 3))))


def _atom(rng: random.Random, bound: tuple[str, ...]) -> Atom:
    terms = [Var(v) for v in bound] + [Const(rng.choice(NAMES))]
    if rng.random() < 0.4:
        return Atom(rng.choice(BINARY), (rng.choice(terms[:-1] or terms), rng.choice(terms)))
    return Atom(rng.choice(UNARY), (rng.choice(terms[:-1] or terms),))


def _uses(body: Formula, v: str, rng: random.Random) -> Formula:
    """`body`, with an atom on `v` added when `v` does not occur in it (no vacuous quantifier)."""
    if _occurs(body, v):
        return body
    return And((Atom(rng.choice(UNARY), (Var(v),)), body))


def _occurs(f: Formula, v: str) -> bool:
    if type(f) is Atom:
        return any(type(a) is Var and a.name == v for a in f.args)
    if type(f) is Quant:
        return f.var != v and _occurs(f.body, v)
    return any(_occurs(c, v) for c in f.children)


# --------------------------------------------------------------------------- edits


def _nodes(f: Formula, path: tuple[int, ...] = (), bound: tuple[str, ...] = ()):
    """(path, node, variables bound above it) for every node."""
    yield path, f, bound
    if type(f) is Quant:
        yield from _nodes(f.body, path + (0,), bound + (f.var,))
    elif type(f) in (And, Or):
        for i, c in enumerate(f.children):
            yield from _nodes(c, path + (i,), bound)


def _replace(f: Formula, path: tuple[int, ...], g: Formula) -> Formula:
    if not path:
        return g
    if type(f) is Quant:
        return Quant(f.kind, f.var, _replace(f.body, path[1:], g))
    cs = list(f.children)
    cs[path[0]] = _replace(cs[path[0]], path[1:], g)
    return type(f)(tuple(cs))


def _rename(f: Formula, old: str, new: str) -> Formula:
    """Free occurrences of `old` in `f` renamed to `new`."""
    t = type(f)
    if t is Atom:
        return Atom(f.pred, tuple(Var(new) if type(a) is Var and a.name == old else a for a in f.args))
    if t is Quant:
        return f if f.var == old else Quant(f.kind, f.var, _rename(f.body, old, new))
    return t(tuple(_rename(c, old, new) for c in f.children))


def edit(f: Formula, kind: str, rng: random.Random) -> Formula | None:
    """`f` changed by one edit of `kind` at a random place where it applies; None when it applies nowhere."""
    nodes = list(_nodes(f))
    if kind == "scope_swap":
        spots = [(p, n) for p, n, _ in nodes if type(n) is Quant and type(n.body) is Quant]
        if not spots:
            return None
        p, n = rng.choice(spots)
        return _replace(f, p, Quant(n.body.kind, n.body.var, Quant(n.kind, n.var, n.body.body)))
    if kind in ("alpha_rename", "broken_alpha"):
        spots = [(p, n, b) for p, n, b in nodes if type(n) is Quant]
        if kind == "broken_alpha":  # renamed to an outer variable that its body uses: captured
            spots = [(p, n, [w for w in b if w != n.var and _occurs(n.body, w)]) for p, n, b in spots]
            spots = [(p, n, ws) for p, n, ws in spots if ws]
            if not spots:
                return None
            p, n, ws = rng.choice(spots)
            new = rng.choice(ws)
        else:
            if not spots:
                return None
            p, n, b = rng.choice(spots)
            used = {m.var for _, m, _ in nodes if type(m) is Quant} | set(b)
            new = next(v for v in VARS + ["w", "u", "v"] if v not in used)
        return _replace(f, p, Quant(n.kind, new, _rename(n.body, n.var, new)))
    if kind == "drop_atom":
        spots = [(p, n) for p, n, _ in nodes if type(n) in (And, Or)]
        if not spots:
            return None
        p, n = rng.choice(spots)
        cs = list(n.children)
        cs.pop(rng.randrange(len(cs)))
        return _replace(f, p, cs[0] if len(cs) == 1 else type(n)(tuple(cs)))
    if kind == "add_atom":
        p, n, b = rng.choice([(p, n, b) for p, n, b in nodes if type(n) in (And, Or, Atom)])
        extra = _atom(rng, b)
        if type(n) is Atom:
            return _replace(f, p, rng.choice([And, Or])((n, extra)))
        return _replace(f, p, type(n)(n.children + (extra,)))
    if kind == "flip_quantifier":
        p, n = rng.choice([(p, n) for p, n, _ in nodes if type(n) is Quant])
        return _replace(f, p, Quant("exists" if n.kind == "forall" else "forall", n.var, n.body))
    if kind == "regroup":  # A AND (B OR C) -> (A AND B) OR (A AND C), or children reordered
        spots = [(p, n) for p, n, _ in nodes if type(n) is And and any(type(c) is Or for c in n.children)]
        if spots:
            p, n = rng.choice(spots)
            o = next(c for c in n.children if type(c) is Or)
            rest = tuple(c for c in n.children if c is not o)
            return _replace(f, p, Or(tuple(And(rest + (d,)) for d in o.children)))
        spots = [(p, n) for p, n, _ in nodes if type(n) in (And, Or)]
        if not spots:
            return None
        p, n = rng.choice(spots)
        return _replace(f, p, type(n)(tuple(reversed(n.children))))
    raise ValueError(f"unknown edit kind {kind!r}")


def hard_pairs(n: int, seed: int = 0) -> list[tuple[str, Formula, Formula]]:
    """`n` (kind, a, b) triples, the kinds in turn; a and b always differ."""
    rng = random.Random(seed)
    out: list[tuple[str, Formula, Formula]] = []
    k = 0
    while len(out) < n:
        kind = KINDS[k % len(KINDS)]
        a = random_formula(rng, rng.choice([3, 4]))
        b = edit(a, kind, rng)
        if b is not None and b != a:
            out.append((kind, a, b))
            k += 1
    return out


__all__: list[str] = ["KINDS", "edit", "hard_pairs", "random_formula"]
