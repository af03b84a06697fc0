"""Pairs of AmP-vocabulary formulas of the three tail kinds, the pairs that cost the engine most
(`benchmarks/equiv_bench.py --section tail`, and the engine's tests).

A formula is a prefix of 4-6 quantifiers with both kinds in it (∀/∃ alternation), over a matrix
of 2-10 atoms joined by AND and OR, every bound variable used. Its partner is:

- `renamed`: one occurrence of a bound variable in one atom renamed to another bound variable;
- `swapped`: the same formula with one adjacent ∃∀ of its prefix swapped to ∀∃ (the renaming
  too, at random: most such pairs are one-way entailments);
- `rewritten`: random rewrites that keep the meaning (operands reordered or regrouped, AND
  distributed over OR and back, a quantifier pushed into the conjunct or disjunct that alone
  uses its variable, adjacent quantifiers of one kind swapped, a bound variable renamed to a
  fresh one, an operand repeated): EQUIVALENT pairs.

Verdicts are not assumed: a benchmark or a test checks them against Z3 and E where they decide.
"""

from __future__ import annotations

import random

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Var

UNARY = ["man", "woman", "boy", "dog", "saw", "ate", "ran", "slept"]
BINARY = ["agent", "patient", "theme"]
NAMES = ["Mary", "John"]
VARS = ["x", "y", "z", "a", "e", "i"]
SPARE = ["u", "v", "w"]  # fresh names for the renaming rewrite
KINDS = ("renamed", "swapped", "rewritten")


def prefixed_formula(rng: random.Random) -> tuple[list[tuple[str, str]], Formula]:
    """A prefix of 4-6 quantifiers (both kinds) and a matrix of 2-10 atoms using every variable."""
    n = rng.randint(4, 6)
    vs = rng.sample(VARS, n)
    kinds = [rng.choice(["forall", "exists"]) for _ in vs]
    if len(set(kinds)) == 1:
        kinds[rng.randrange(n)] = "exists" if kinds[0] == "forall" else "forall"
    atoms: list[Atom] = []
    for v in vs:
        atoms.append(_atom(rng, vs, v))
    while len(atoms) < rng.randint(max(2, n), 10):
        atoms.append(_atom(rng, vs, None))
    atoms = atoms[:10]
    rng.shuffle(atoms)
    return list(zip(kinds, vs)), _tree(rng, atoms)


def _atom(rng: random.Random, vs: list[str], must: str | None) -> Atom:
    terms = [Var(v) for v in vs] + [Const(rng.choice(NAMES))]
    first = Var(must) if must else rng.choice(terms[:-1])
    if rng.random() < 0.45:
        second = rng.choice(terms)
        return Atom(rng.choice(BINARY), (first, second) if rng.random() < 0.5 else (second, first))
    return Atom(rng.choice(UNARY), (first,))


def _tree(rng: random.Random, parts: list[Formula]) -> Formula:
    """`parts` joined by a random tree of AND (mostly) and OR."""
    if len(parts) == 1:
        return parts[0]
    k = rng.randint(1, len(parts) - 1)
    op = And if rng.random() < 0.6 else Or
    return op((_tree(rng, parts[:k]), _tree(rng, parts[k:])))


def build(prefix: list[tuple[str, str]], matrix: Formula) -> Formula:
    f = matrix
    for kind, v in reversed(prefix):
        f = Quant(kind, v, f)
    return f


def _occurrences(f: Formula, path: tuple = ()) -> list[tuple[tuple, int]]:
    """(path to an atom, argument index) of every variable occurrence in a quantifier-free `f`."""
    if type(f) is Atom:
        return [(path, i) for i, a in enumerate(f.args) if type(a) is Var]
    return [o for j, c in enumerate(f.children) for o in _occurrences(c, path + (j,))]


def _at(f: Formula, path: tuple) -> Formula:
    for j in path:
        f = f.children[j]
    return f


def _put(f: Formula, path: tuple, g: Formula) -> Formula:
    if not path:
        return g
    cs = list(f.children)
    cs[path[0]] = _put(cs[path[0]], path[1:], g)
    return type(f)(tuple(cs))


def renamed(rng: random.Random, prefix: list[tuple[str, str]], matrix: Formula) -> Formula | None:
    """The matrix with one bound-variable occurrence renamed to another bound variable (None when
    that would leave a quantifier vacuous)."""
    vs = [v for _, v in prefix]
    path, i = rng.choice(_occurrences(matrix))
    atom = _at(matrix, path)
    old = atom.args[i].name
    new = rng.choice([v for v in vs if v != old])
    args = list(atom.args)
    args[i] = Var(new)
    m = _put(matrix, path, Atom(atom.pred, tuple(args)))
    if any(not _uses(m, v) for v in vs):
        return None
    return m


def _uses(f: Formula, v: str) -> bool:
    if type(f) is Atom:
        return any(type(a) is Var and a.name == v for a in f.args)
    if type(f) is Quant:
        return f.var != v and _uses(f.body, v)
    return any(_uses(c, v) for c in f.children)


def swapped(rng: random.Random, prefix: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """The prefix with one adjacent ∃∀ swapped to ∀∃ (None when it has none)."""
    spots = [i for i in range(len(prefix) - 1) if prefix[i][0] == "exists" and prefix[i + 1][0] == "forall"]
    if not spots:
        return None
    i = rng.choice(spots)
    out = list(prefix)
    out[i], out[i + 1] = out[i + 1], out[i]
    return out


# --------------------------------------------------------------------------- rewrites that keep the meaning


def _rewrite(rng: random.Random, f: Formula, fresh: list[str]) -> Formula:
    """`f` with one rewrite that keeps its meaning, at a random place where one applies."""
    spots = list(_nodes(f))
    rng.shuffle(spots)
    for path, g in spots:
        h = _rewrite_here(rng, g, fresh)
        if h is not None:
            return _replace(f, path, h)
    return f


def _nodes(f: Formula, path: tuple = ()):
    yield path, f
    if type(f) is Quant:
        yield from _nodes(f.body, path + (0,))
    elif type(f) in (And, Or):
        for j, c in enumerate(f.children):
            yield from _nodes(c, path + (j,))


def _replace(f: Formula, path: tuple, g: Formula) -> Formula:
    if not path:
        return g
    if type(f) is Quant:
        return Quant(f.kind, f.var, _replace(f.body, path[1:], g))
    cs = list(f.children)
    cs[path[0]] = _replace(cs[path[0]], path[1:], g)
    return type(f)(tuple(cs))


def _rename_free(f: Formula, old: str, new: str) -> Formula:
    t = type(f)
    if t is Atom:
        return Atom(f.pred, tuple(Var(new) if type(a) is Var and a.name == old else a for a in f.args))
    if t is Quant:
        return f if f.var == old else Quant(f.kind, f.var, _rename_free(f.body, old, new))
    return t(tuple(_rename_free(c, old, new) for c in f.children))


def _rewrite_here(rng: random.Random, g: Formula, fresh: list[str]) -> Formula | None:
    t = type(g)
    choices = []
    if t in (And, Or):
        choices.append("reorder")
        if len(g.children) > 2:
            choices.append("group")
        if any(type(c) is t for c in g.children):
            choices.append("flatten")
        if t is And and any(type(c) is Or for c in g.children):
            choices.append("distribute")
        choices.append("repeat")
    if t is Quant:
        if type(g.body) is Quant and g.body.kind == g.kind:
            choices.append("swap_same")
        if type(g.body) in (And, Or) and any(not _uses(c, g.var) for c in g.body.children):
            choices.append("miniscope")
        if fresh:
            choices.append("alpha")
    if not choices:
        return None
    how = rng.choice(choices)
    if how == "reorder":
        cs = list(g.children)
        rng.shuffle(cs)
        return t(tuple(cs))
    if how == "group":
        k = rng.randint(0, len(g.children) - 2)
        cs = g.children
        return t(cs[:k] + (t(cs[k:k + 2]),) + cs[k + 2:])
    if how == "flatten":
        cs: list[Formula] = []
        for c in g.children:
            cs.extend(c.children if type(c) is t else (c,))
        return t(tuple(cs))
    if how == "distribute":  # A ∧ (B ∨ C) -> (A ∧ B) ∨ (A ∧ C)
        o = next(c for c in g.children if type(c) is Or)
        rest = tuple(c for c in g.children if c is not o)
        return Or(tuple(And(rest + (d,)) for d in o.children))
    if how == "repeat":  # A ∧ B -> A ∧ B ∧ A
        return t(g.children + (rng.choice(g.children),))
    if how == "swap_same":
        return Quant(g.kind, g.body.var, Quant(g.kind, g.var, g.body.body))
    if how == "miniscope":  # Qx (A op B), x not in A -> A op Qx B (every domain is non-empty)
        inner = [c for c in g.body.children if _uses(c, g.var)]
        outer = [c for c in g.body.children if not _uses(c, g.var)]
        if not inner:
            return type(g.body)(tuple(outer))  # a vacuous quantifier dropped
        body = inner[0] if len(inner) == 1 else type(g.body)(tuple(inner))
        return type(g.body)(tuple(outer) + (Quant(g.kind, g.var, body),))
    new = fresh.pop()  # alpha: the bound variable renamed to one used nowhere
    return Quant(g.kind, new, _rename_free(g.body, g.var, new))


def rewritten(rng: random.Random, f: Formula) -> Formula:
    """`f` after 2-6 rewrites that keep its meaning."""
    fresh = list(SPARE)
    rng.shuffle(fresh)
    g = f
    for _ in range(rng.randint(2, 6)):
        g = _rewrite(rng, g, fresh)
    return g


def tail_pairs(n: int, seed: int = 0) -> list[tuple[str, Formula, Formula]]:
    """`n` (kind, a, b) triples, the kinds in turn; a and b always differ."""
    rng = random.Random(seed)
    out: list[tuple[str, Formula, Formula]] = []
    k = 0
    while len(out) < n:
        kind = KINDS[k % len(KINDS)]
        prefix, matrix = prefixed_formula(rng)
        a = build(prefix, matrix)
        if kind == "renamed":
            m = renamed(rng, prefix, matrix)
            b = None if m is None else build(prefix, m)
        elif kind == "swapped":
            p = swapped(rng, prefix)
            m = renamed(rng, prefix, matrix) if rng.random() < 0.5 else matrix
            b = None if p is None or m is None else build(p, m)
        else:
            b = rewritten(rng, a)
        if b is not None and b != a:
            out.append((kind, a, b))
            k += 1
    return out


__all__ = ["KINDS", "prefixed_formula", "rewritten", "tail_pairs"]
