"""AmP's universals read as restricted quantification, existentials scoped as narrowly as they can
be: the formula paraphrases and situations are made from. In `forall x . C` the unary atoms on x
in C's AND chain are the restrictor; moving an existential's kinds out of a universal changes
nothing once the restrictor is not empty (situations presuppose that). Equivalence stays literal.
"""

from __future__ import annotations

from dataclasses import dataclass

from ambit.logic.syntax.ast import And, Atom, Formula, Or, Quant, Var, free_vars


@dataclass(frozen=True)
class Exists:
    """exists var (kinds(var) AND body); `body` None when the kinds are all there is."""

    var: str
    kinds: tuple[Atom, ...]
    body: "Restricted | None"


@dataclass(frozen=True)
class Every:
    """forall var (kinds(var) -> body): `kinds` is the restrictor (empty: every thing)."""

    var: str
    kinds: tuple[Atom, ...]
    body: "Restricted"


Restricted = Atom | And | Or | Exists | Every


def restrict(f: Formula) -> Restricted:
    """The restricted reading of a closed LF (bound variables renamed apart first)."""
    return _restrict(_rename_apart(f, {}, set()))


def variables(r: Restricted) -> set[str]:
    """Free variables of a restricted formula."""
    match r:
        case Atom():
            return set(free_vars(r))
        case And(children) | Or(children):
            return set().union(*(variables(c) for c in children))
        case Exists(var, kinds, body) | Every(var, kinds, body):
            inner = set().union(*(variables(k) for k in kinds)) | (variables(body) if body is not None else set())
            return inner - {var}
    raise TypeError(f"not a restricted formula: {r!r}")


def bound_variables(r: Restricted | None) -> list[str]:
    """The variables bound in `r`, outermost first."""
    match r:
        case None | Atom():
            return []
        case And(children) | Or(children):
            return [v for c in children for v in bound_variables(c)]
        case Exists(var, _, body) | Every(var, _, body):
            return [var] + bound_variables(body)
    raise TypeError(f"not a restricted formula: {r!r}")


def _rename_apart(f: Formula, env: dict[str, str], used: set[str]) -> Formula:
    """`f` with every quantifier binding a name no other quantifier binds (x, x1, x2, ...)."""
    match f:
        case Atom(pred, args):
            return Atom(pred, tuple(Var(env[a.name]) if isinstance(a, Var) else a for a in args))
        case And(children) | Or(children):
            return type(f)(tuple(_rename_apart(c, env, used) for c in children))
        case Quant(kind, var, body):
            new, n = var, 0
            while new in used:
                n += 1
                new = f"{var}{n}"
            used.add(new)
            return Quant(kind, new, _rename_apart(body, {**env, var: new}, used))
    raise TypeError(f"not a formula: {f!r}")


def _chain(f: Formula) -> list[Formula]:
    """The operands of the AND chain rooted at `f`, nested ANDs (groups) flattened."""
    return [g for c in f.children for g in _chain(c)] if isinstance(f, And) else [f]


def _is_unary_on(f: Formula, var: str) -> bool:
    return isinstance(f, Atom) and len(f.args) == 1 and f.args[0] == Var(var)


def _restrict(f: Formula) -> Restricted:
    if isinstance(f, Atom):
        return f
    if isinstance(f, Or):
        return Or(tuple(_restrict(c) for c in f.children))
    if isinstance(f, And):
        return _conjoin([_restrict(c) for c in _chain(f)])
    prefix: list[tuple[str, str]] = []
    while isinstance(f, Quant):
        prefix.append((f.kind, f.var))
        f = f.body
    chain = _chain(f)
    kinds: dict[str, tuple[Atom, ...]] = {}
    for kind, var in prefix:
        mine = tuple(c for c in chain if _is_unary_on(c, var))
        rest = [c for c in chain if not _is_unary_on(c, var)]
        if kind == "forall" and mine and not rest:
            mine, rest = (), chain  # nothing would be left to say of the restricted things: literal
        kinds[var] = mine
        chain = rest
    items = [_restrict(c) for c in chain]
    for kind, var in reversed(prefix):
        if kind == "exists":
            items = _exists(var, kinds[var], items)
        else:
            items = [Every(var, kinds[var], _conjoin(items))]
    return _conjoin(items)


def conjunction(parts: list):
    """The one part, or the AND of several."""
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def _conjoin(items: list[Restricted]) -> Restricted:
    flat = [g for c in items for g in (c.children if isinstance(c, And) else (c,))]
    if not flat:
        raise ValueError("an empty conjunction has no formula")
    return conjunction(flat)


def _exists(var: str, kinds: tuple[Atom, ...], items: list[Restricted]) -> list[Restricted]:
    """`exists var (kinds AND items)` with the quantifier moved in as far as it goes: items
    without `var` stay outside, an OR without kinds takes one copy per disjunct that uses `var`."""
    items = [g for c in items for g in (c.children if isinstance(c, And) else (c,))]
    inside = [i for i, c in enumerate(items) if var in variables(c)]
    if not inside:
        return items + [Exists(var, kinds, None)] if kinds else items
    if not kinds and len(inside) == 1 and isinstance(items[inside[0]], Or):
        disj = items[inside[0]]
        pushed = Or(tuple(_conjoin(_exists(var, (), [c])) if var in variables(c) else c for c in disj.children))
        return items[: inside[0]] + [pushed] + items[inside[0] + 1:]
    body = [items[i] for i in inside]
    more = tuple(c for c in body if _is_unary_on(c, var))
    body = [c for c in body if not _is_unary_on(c, var)]
    node = Exists(var, kinds + more, _conjoin(body) if body else None)
    first = inside[0]
    return [node if i == first else c for i, c in enumerate(items) if i == first or i not in inside]
