"""Truth of a restricted formula in a scene, written independently of situations.pl: the
explain tests check every scene they are given with it."""

from __future__ import annotations

from ambit.logic.explain import Every, Exists
from ambit.logic.syntax.ast import And, Atom, Const, Or


def holds_in_scene(r, scene, env=None) -> bool:
    """Truth of a restricted formula in a scene, written here independently of situations.pl."""
    env = env or {}
    val = lambda t: scene.constants[t.name] if isinstance(t, Const) else env[t.name]  # noqa: E731
    kind = lambda e, ks: all(scene.sorts.get(e) == k.pred for k in ks)  # noqa: E731
    match r:
        case None:
            return True
        case Atom(pred, (t,)):
            return scene.sorts.get(val(t)) == pred
        case Atom(pred, (t, u)):
            return (pred, (val(t), val(u))) in scene.facts
        case And(children):
            return all(holds_in_scene(c, scene, env) for c in children)
        case Or(children):
            return any(holds_in_scene(c, scene, env) for c in children)
        case Exists(var, ks, body):
            return any(kind(e, ks) and holds_in_scene(body, scene, {**env, var: e}) for e in scene.domain)
        case Every(var, ks, body):
            return all(holds_in_scene(body, scene, {**env, var: e}) for e in scene.domain if kind(e, ks))
    raise TypeError(r)
