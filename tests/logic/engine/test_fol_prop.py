"""The propositional shortcut of full first-order equivalence (logic/engine/propositional.py): on random
Boolean combinations of ground atoms, equalities and quantified parts, its verdicts never
contradict Z3's, it decides every pair of ground-atom combinations, and its countermodels hold."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ambit.logic import equivalent, parse
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Iff, Implies, Not, Or, Quant, Var, Xor
from ambit.logic.engine.prove import _propositional, holds
from ambit.logic.engine.propositional import common_prefix_bodies, table

z3 = pytest.importorskip("z3")

from tests.helpers.z3_bridge import z3_equivalent  # noqa: E402

GROUND = [Atom("P", (Const("a"),)), Atom("P", (Const("b"),)), Atom("Q", (Const("a"),)), Atom("R", ())]
OTHER = [Eq(Const("a"), Const("b")), Quant("forall", "x", Atom("P", (Var("x"),))),
         Quant("exists", "x", Atom("Q", (Const("a"),)))]  # the last one vacuous


def combinations(parts):
    binary = st.sampled_from([Implies, Iff, Xor])
    return st.recursive(st.sampled_from(parts), lambda sub: st.one_of(
        sub.map(Not), st.tuples(binary, sub, sub).map(lambda t: t[0](t[1], t[2])),
        st.tuples(st.sampled_from([And, Or]), st.lists(sub, min_size=2, max_size=3)).map(
            lambda t: t[0](tuple(t[1])))), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(combinations(GROUND), combinations(GROUND))
def test_ground_combinations_are_decided_and_agree_with_z3(a, b):
    v = _propositional(a, b)
    assert v is not None and (v.verdict == "EQUIVALENT") == z3_equivalent(a, b)
    if v.verdict == "NOT_EQUIVALENT":
        assert (v.a_entails_b, v.b_entails_a).count(False) >= 1
        m = v.witness["model"]
        model = {"domain": m["domain"], "constants": m["constants"],
                 "atoms": {tuple(t.replace("(", ",").rstrip(")").replace(" ", "").split(",")) for t in m["true_atoms"]}}
        yes, no = (a, b) if v.witness["true_in_model"] == "a" else (b, a)
        assert holds(yes, model) and not holds(no, model)


@settings(max_examples=200, deadline=None)
@given(combinations(GROUND + OTHER), combinations(GROUND + OTHER))
def test_with_equality_and_quantified_parts_only_sound_answers(a, b):
    v = _propositional(a, b)
    if v is not None:
        assert (v.verdict == "EQUIVALENT") == z3_equivalent(a, b)


def test_xor_chains_over_ground_parts_are_immediate():
    a = "((P(a) ⊕ Q(b)) ⊕ (R(c) ↔ S(d))) ⊕ ∀x T(e)"
    b = "P(a) ⊕ (Q(b) ⊕ ¬(R(c) ⊕ (S(d) ⊕ T(e))))"
    assert equivalent(a, b, fmt="folio").witness == {"method": "propositional", "parts": 5,
                                                      "reading": {"dialect": "folio", "free_variables": "universal",
                                                                                  "symbols": "shared"}}
    assert equivalent(a, "¬" + f"({b})", fmt="folio").verdict == "NOT_EQUIVALENT"
    assert equivalent(parse(a, "folio"), parse(b, "folio"), fmt="folio").verdict == "EQUIVALENT"


OPEN = [Atom("P", (Var("x"),)), Atom("Q", (Var("x"),)), Atom("L", (Var("x"), Const("a"))), Atom("P", (Const("a"),))]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["forall", "exists"]), combinations(OPEN), combinations(OPEN))
def test_bodies_under_a_shared_quantifier_only_sound_answers(kind, a, b):
    qa, qb = Quant(kind, "x", a), Quant(kind, "x", b)
    v = _propositional(qa, qb)
    if v is not None:
        assert (v.verdict == "EQUIVALENT") == z3_equivalent(qa, qb)
    shared = common_prefix_bodies(qa, qb)
    bodies = table(*shared) if shared else None
    if bodies is not None and bodies.a == bodies.b:  # the bodies agree on every row: decided here
        assert v is not None and v.verdict == "EQUIVALENT"
