"""An independent model checker for witness models, and equivalence cases whose verdicts are
known: shared by the equivalence, z3 and engine tests."""

from __future__ import annotations

from ambit import logic
from ambit.logic import And, Atom, Or, Quant, Var, Verdict


def holds(f, model: dict, env: dict | None = None) -> bool:
    """Independent model checker over a witness model (domain, constants, extensions)."""
    env = env or {}
    match f:
        case Atom(pred, args):
            vals = tuple(env[a.name] if isinstance(a, Var) else model["constants"][a.name] for a in args)
            return list(vals) in model["extensions"].get(pred, [])
        case And(children):
            return all(holds(c, model, env) for c in children)
        case Or(children):
            return any(holds(c, model, env) for c in children)
        case Quant("exists", var, body):
            return any(holds(body, model, {**env, var: d}) for d in model["domain"])
        case Quant("forall", var, body):
            return all(holds(body, model, {**env, var: d}) for d in model["domain"])
    raise TypeError(f)


def check_witness(a, b, v: Verdict, fmt: str = "fol") -> None:
    """A NOT_EQUIVALENT witness model makes one side true and the other false."""
    assert v.verdict == "NOT_EQUIVALENT"
    w = v.witness
    assert w is not None and w["direction"] in ("a_entails_b", "b_entails_a")
    assert (v.a_entails_b if w["direction"] == "a_entails_b" else v.b_entails_a) is False
    if w["model"] is None:
        return
    fa = logic.parse(a, fmt) if isinstance(a, str) else a
    fb = logic.parse(b, fmt) if isinstance(b, str) else b
    true_f, false_f = (fa, fb) if w["direction"] == "a_entails_b" else (fb, fa)
    assert holds(true_f, w["model"]) and not holds(false_f, w["model"]), w


SCOPE_EA = "exists x . forall y . exists a . boy(y) AND cup(x) AND observed(a) AND agent(a, y) AND patient(a, x)"
SCOPE_AE = "forall x . exists y . exists a . boy(x) AND cup(y) AND observed(a) AND agent(a, x) AND patient(a, y)"

# (a, b, a |= b, b |= a): all inside the complete fragment, so both directions are decided.
CASES = [
    (SCOPE_EA, SCOPE_AE, True, False),
    ("exists x . man(x)", "exists y . man(y)", True, True),
    ("exists x . man(x) AND man(x)", "exists x . man(x)", True, True),
    ("exists x . exists y . man(x)", "exists x . man(x)", True, True),
    ("forall x . man(x)", "exists x . man(x)", True, False),
    ("man(Mary)", "exists x . man(x)", True, False),
    ("man(Mary) AND tall(Mary)", "exists x . man(x) AND tall(x)", True, False),
    ("exists x . man(x) AND tall(x)", "( exists x . man(x) ) AND ( exists y . tall(y) )", True, False),
    ("exists x . p(x) AND ( a(x) OR b(x) )", "exists x . ( p(x) AND a(x) ) OR ( p(x) AND b(x) )", True, True),
    ("exists x . p(x) OR ( p(x) AND q(x) )", "exists x . p(x)", True, True),
    ("exists x . p(x) AND ( p(x) OR q(x) )", "exists x . p(x)", True, True),
    ("exists e . d(e) AND ( a(e) OR s(e) )", "exists e . ( d(e) AND a(e) ) OR s(e)", True, False),
    ("exists a . saw(a) AND agent(a, Mary) AND patient(a, John)",
     "exists a . saw(a) AND agent(a, John) AND patient(a, Mary)", False, False),
    ("forall x . exists y . r(x, y)", "exists y . forall x . r(x, y)", False, True),
    ("forall x . exists y . r(x, y)", "exists x . r(x, x)", False, False),
    ("forall x . forall y . r(x, y)", "forall y . forall x . r(y, x)", True, True),
    ("exists x . forall y . r(x, y)", "forall y . exists x . r(x, y)", True, False),
    ("exists x . forall y . r(x, y) AND p(x)", "exists x . p(x) AND ( forall y . r(x, y) )", True, True),
    ("forall x . p(x) AND q(x)", "( forall x . p(x) ) AND ( forall y . q(y) )", True, True),
    ("p(Mary) OR q(Mary)", "q(Mary) OR p(Mary)", True, True),
    ("p(Mary) OR q(Mary)", "p(Mary)", False, True),
]
