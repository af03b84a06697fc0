"""Canonical form compatible with AmP's evaluation: nesting flattened, children sorted, variables
renamed by quantifier position, unused quantifiers dropped, quantifier order kept (it separates
scope readings); LFs differing only in bound names or operand order match."""

from __future__ import annotations

import operator

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Var
from ambit.logic.syntax.dialect import FOL, Dialect
from ambit.logic.syntax.render import render

VAR_MODES = ("amp", "v")
_ENTITY = ("x", "y", "z")
_EVENT = ("a", "e", "i")


def simplify(f: Formula) -> Formula:
    """Flatten same-operator nesting, unwrap one-operand connectives, drop vacuous quantifiers."""
    return _simplify(f, {})[0]


def _simplify(f: Formula, events: dict[int, bool]) -> tuple[Formula, set[str], set[str]]:
    """(simplified f, its free variables, those used as events: a binary atom's first argument);
    `events[id(q)]` records whether a kept quantifier binds an event."""
    t = type(f)
    if t is Atom:
        args = f.args
        free = {a.name for a in args if type(a) is Var}
        ev = {args[0].name} if len(args) == 2 and type(args[0]) is Var else set()
        return f, free, ev
    if t is Quant:
        body, free, ev = _simplify(f.body, events)
        if f.var not in free:
            return body, free, ev
        q = f if body is f.body else Quant(f.kind, f.var, body)
        events[id(q)] = f.var in ev
        free.discard(f.var)
        ev.discard(f.var)
        return q, free, ev
    if t is And or t is Or:
        flat: list[Formula] = []
        free, ev = set(), set()
        changed = False
        for c in f.children:
            s, cf, ce = _simplify(c, events)
            free |= cf
            ev |= ce
            if type(s) is t:
                flat.extend(s.children)
                changed = True
            else:
                flat.append(s)
                changed = changed or s is not c
        if len(flat) == 1:
            return flat[0], free, ev
        return (t(tuple(flat)) if changed else f), free, ev
    raise TypeError(f"not a formula: {f!r}")


class _Namer:
    """Hands out canonical variable names in the order quantifiers are met."""

    def __init__(self, mode: str) -> None:
        if mode not in VAR_MODES:
            raise ValueError(f"unknown variable naming {mode!r}: expected one of {', '.join(VAR_MODES)}")
        self.mode, self.count, self.entity, self.event = mode, 0, 0, 0

    def fresh(self, is_event: bool) -> str:
        self.count += 1
        if self.mode == "v":
            return f"v{self.count - 1}"
        if is_event:
            self.event += 1
            n, pool = self.event - 1, _EVENT
        else:
            self.entity += 1
            n, pool = self.entity - 1, _ENTITY
        return pool[n] if n < len(pool) else f"{pool[0]}{n}"


def _shape(f: Formula, env: dict[str, str]) -> str:
    """A sort key invariant under bound-variable renaming and operand order (de Bruijn levels)."""

    def go(g: Formula, env: dict[str, str], depth: int) -> str:
        t = type(g)
        if t is Atom:
            return g.pred + "[" + ",".join(env.get(a.name, a.name) if type(a) is Var else a.name for a in g.args) + "]"
        if t is Quant:
            local = f"_{depth}"
            return f"{g.kind} {local} . {go(g.body, {**env, g.var: local}, depth + 1)}"
        if t is And or t is Or:
            op = "AND" if t is And else "OR"
            return f"{op}(" + " ".join(sorted(go(c, env, depth) for c in g.children)) + ")"
        raise TypeError(f"not a formula: {g!r}")

    try:
        return go(f, env, 0)
    finally:
        go = None  # a recursive closure is a reference cycle: broken here, freed now, not by the collector


_RANK = {And: 0, Or: 1, Quant: 2, Atom: 3}


def _sort_key(f: Formula, env: dict[str, str]) -> tuple[int, str]:
    if type(f) is Atom:
        return (3, f.pred + "[" + ",".join(env.get(a.name, a.name) if type(a) is Var else a.name for a in f.args) + "]")
    return (_RANK[type(f)], _shape(f, env))


def _canon(f: Formula, env: dict[str, str], namer: _Namer, events: dict[int, bool]) -> Formula:
    t = type(f)
    if t is Atom:
        if not any(type(a) is Var for a in f.args):
            return f
        return Atom(f.pred, tuple(Var(env.get(a.name, a.name)) if type(a) is Var else a for a in f.args))
    if t is Quant:
        new = namer.fresh(events[id(f)])
        return Quant(f.kind, new, _canon(f.body, {**env, f.var: new}, namer, events))
    if t is And or t is Or:
        ordered = sorted(f.children, key=lambda c: _sort_key(c, env))
        return t(tuple(_canon(c, env, namer, events) for c in ordered))
    raise TypeError(f"not a formula: {f!r}")


def _canon_fol(f: Formula, env: dict[str, str], namer: _Namer, events: dict[int, bool]) -> str:
    """`to_fol(_canon(f, ...))` without building the AST (`canonical_string`'s hot path)."""
    t = type(f)
    if t is Atom:
        return f.pred + "(" + ", ".join([env.get(a.name, a.name) if type(a) is Var else a.name for a in f.args]) + ")"
    if t is Quant:
        new = namer.fresh(events[id(f)])
        return f"{f.kind} {new} . {_canon_fol(f.body, {**env, f.var: new}, namer, events)}"
    if t is And or t is Or:
        # each operand's sort key beside what it prints (an atom's names looked up once)
        keyed = []
        for c in f.children:
            if type(c) is Atom:
                names = [env.get(a.name, a.name) if type(a) is Var else a.name for a in c.args]
                keyed.append((3, c.pred + "[" + ",".join(names) + "]", c.pred + "(" + ", ".join(names) + ")"))
            else:
                keyed.append((_RANK[type(c)], _shape(c, env), c))
        keyed.sort(key=_KEY)
        op = " AND " if t is And else " OR "
        return op.join([shown if type(shown) is str else f"( {_canon_fol(shown, env, namer, events)} )"
                        for _, _, shown in keyed])
    raise TypeError(f"not a formula: {f!r}")


_KEY = operator.itemgetter(0, 1)


def canonicalize(f: Formula, vars: str = "amp") -> Formula:
    """The canonical AST. vars='amp' names entities x, y, z and events a, e, i (then x3, a3, ...),
    as AmP's data does; vars='v' names them v0, v1, ..."""
    events: dict[int, bool] = {}
    return _canon(_simplify(f, events)[0], {}, _Namer(vars), events)


def canonical_string(f: Formula, fmt: "str | Dialect" = FOL, vars: str = "amp") -> str:
    """The canonical form rendered in `fol` (written directly, in one pass) or `lisp`."""
    if getattr(fmt, "name", fmt) == FOL:  # the fol dialect's own writer of canonical forms (_canon_fol), not a dialect test
        events: dict[int, bool] = {}
        return _canon_fol(_simplify(f, events)[0], {}, _Namer(vars), events)
    return render(canonicalize(f, vars), fmt)


__all__ = ["simplify", "canonicalize", "canonical_string", "VAR_MODES", "Const"]
