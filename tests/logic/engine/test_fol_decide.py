"""Full first-order decisions: verdicts with evidence, and agreement with Z3 on random input."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

from ambit import logic  # noqa: E402
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Iff, Implies, Not, Or, Quant, Var, Xor  # noqa: E402
from ambit.logic.engine.prove import decide_batch, holds  # noqa: E402
from tests.helpers.z3_bridge import z3_story  # noqa: E402

z3 = pytest.importorskip("z3")

STORY = ["∀x (Dog(x) → Animal(x))", "∀x (Animal(x) → ¬Plant(x))", "Dog(bonnie) ⊕ Cat(bonnie)", "¬Cat(bonnie)"]


@pytest.mark.parametrize("conclusion,verdict", [
    ("¬Plant(bonnie)", "TRUE"), ("Plant(bonnie)", "FALSE"), ("Likes(bonnie, rex)", "UNCERTAIN"),
])
def test_story_verdicts_with_evidence(conclusion, verdict):
    d = logic.decide(STORY, conclusion, fmt="folio")
    assert d.verdict == verdict
    if verdict == "TRUE":
        assert set(d.premises_used) <= {0, 1, 2, 3} and 1 in d.premises_used
        assert d.proof[0]["step"] == "start"
    if verdict == "UNCERTAIN":
        assert d.countermodel["constants"]["bonnie"] in d.countermodel["domain"]


def test_inconsistent_premises():
    assert logic.decide(["P(a)", "¬P(a)"], "Q(a)", fmt="folio").verdict == "INCONSISTENT"


def test_equality_and_equivalence():
    assert logic.decide(["a = b", "P(a)"], "P(b)", fmt="folio").verdict == "TRUE"
    v = logic.equivalent("∀x (P(x) → Q(x))", "¬∃x (P(x) ∧ ¬Q(x))", fmt="folio")
    assert v.verdict == "EQUIVALENT"
    w = logic.equivalent("∀x P(x) → Q(a)", "∀x (P(x) → Q(a))", fmt="folio")
    assert w.verdict == "EQUIVALENT"  # scope reaches right: both are the same formula
    n = logic.equivalent("(∀x P(x)) → Q(a)", "∀x (P(x) → Q(a))", fmt="folio")
    assert n.verdict == "NOT_EQUIVALENT" and n.witness["model"]["domain"]


@pytest.mark.parametrize("a,b", [
    # operands of ⊕ / ↔ are named once (definitional clausal form), not copied into every clause
    ("P(a) ⊕ P(a) ⊕ R(b, b) ⊕ (∃x (Q(a) ↔ R(x, x)))", "P(a) ⊕ P(a) ⊕ R(b, b) ⊕ (∃x (Q(a) ↔ ¬¬¬¬R(x, x)))"),
    ("(R(a, a) ⊕ R(b, b) ⊕ (P(b) → Q(b))) ∧ (∃x (P(x) ∧ R(x, x)))",
     "¬(R(a, a) ⊕ R(b, b) ↔ ¬¬(¬¬P(b) → Q(b))) ∧ (∃x (P(x) ∧ R(x, x)))"),
    # a clause instance made ground by a connection is still held to the path limit
    ("∀x (P(x) → (∃y (R(y, y) ∨ P(y))))", "∀x (P(x) → (∃y (¬¬R(y, y) ∨ P(y))))"),
])
def test_hard_cases_are_decided(a, b):
    v = logic.equivalent(a, b, fmt="folio")
    assert v.verdict == "EQUIVALENT", v
    assert logic.equivalent(a, f"¬({b})", fmt="folio").verdict == "NOT_EQUIVALENT"


def test_two_worker_processes_answer_as_one():
    stories = [(STORY, c) for c in ("¬Plant(bonnie)", "Plant(bonnie)", "Likes(bonnie, rex)")] * 30  # two chunks
    one = [d.to_dict() for d in decide_batch(stories, "folio")]
    two = [d.to_dict() for d in decide_batch(stories, "folio", workers=2)]
    assert two == one and [d["verdict"] for d in one[:3]] == ["TRUE", "FALSE", "UNCERTAIN"]


def test_budget_exhaustion_is_unknown_not_a_guess():
    d = logic.decide(["∀x ∃y R(x, y)", "∀x ∀y (R(x, y) → ∃z R(y, z))"], "∃x R(x, x)", fmt="folio",
                     inferences=2000, max_domain=1)
    assert d.verdict in ("UNCERTAIN", "UNKNOWN")
    if d.verdict == "UNKNOWN":
        assert d.reason == "inference_limit" and d.budget == "inference_limit"


# --------------------------------------------------------------------------- Z3 agreement

PREDS = [("P", 1), ("Q", 1), ("R", 2)]
CONSTS = ["a", "b"]


def random_formula(bound=frozenset(), depth=2):
    terms = st.sampled_from([*(Var(v) for v in sorted(bound)), *(Const(c) for c in CONSTS)])
    atom = st.one_of(
        *(st.builds(lambda *a, p=p: Atom(p, tuple(a)), *([terms] * n)) for p, n in PREDS),
        st.builds(Eq, terms, terms),
    )
    if depth == 0:
        return atom
    sub = random_formula(bound, depth - 1)
    v = f"x{len(bound)}"
    return st.one_of(
        atom, st.builds(Not, sub),
        st.builds(lambda a, b: And((a, b)), sub, sub), st.builds(lambda a, b: Or((a, b)), sub, sub),
        st.builds(Implies, sub, sub), st.builds(Iff, sub, sub), st.builds(Xor, sub, sub),
        st.builds(lambda k, b: Quant(k, v, b), st.sampled_from(["forall", "exists"]),
                  random_formula(bound | {v}, depth - 1)),
    )


def z3_decide(premises, conclusion):
    return z3_story(premises, conclusion, 3000)


# ambit may leave at most this share of the stories Z3 decides UNKNOWN (default budgets). Measured
# on the 300-example run below: 16 of 690 (2.3%), mostly binary predicates with equality three
# quantifiers deep; the bound is the 1% target not yet met on this harder input.
UNKNOWN_BOUND = 0.03


def check_agreement(stories, budget: dict) -> tuple[int, int]:
    """Assert that no verdict contradicts Z3's and that every model is real; return (stories Z3
    decides, of those the ones ambit leaves UNKNOWN)."""
    decided = unknown = 0
    for (ps, c), d in zip(stories, decide_batch(stories, "folio", **budget)):
        want = z3_decide(ps, c)
        if want is not None:
            decided += 1
            unknown += d.verdict == "UNKNOWN"
        if d.verdict != "UNKNOWN" and want is not None:
            assert d.verdict == want, (ps, c, d)
        for key, true, false in (("countermodel", ps, [c]), ("model", [*ps, c], [])):
            m = getattr(d, key)
            if m is not None:  # evidence re-checked against the formulas
                model = {"domain": m["domain"], "constants": m["constants"],
                         "atoms": {_atom(a) for a in m["true_atoms"]}}
                assert all(holds(f, model) for f in true) and not any(holds(f, model) for f in false)
    return decided, unknown


def agreement_run(strategy, examples: int, **budget) -> None:
    """Run check_agreement on `examples` random story lists, then hold ambit's UNKNOWNs (on the
    stories Z3 decides) to UNKNOWN_BOUND: undecided answers are counted, never skipped."""
    tally = [0, 0]

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(strategy)
    def run(stories):
        decided, unknown = check_agreement(stories, budget)
        tally[0] += decided
        tally[1] += unknown

    run()
    assert tally[1] <= UNKNOWN_BOUND * tally[0], f"ambit UNKNOWN on {tally[1]} of {tally[0]} stories Z3 decides"


def _atom(text):
    if "(" not in text:
        return (text,)
    name, rest = text.split("(", 1)
    return (name, *rest[:-1].split(", "))


def test_never_contradicts_z3():
    agreement_run(st.lists(st.tuples(st.lists(random_formula(), min_size=1, max_size=3), random_formula()),
                           min_size=1, max_size=4), 25)


@pytest.mark.slow
def test_never_contradicts_z3_bigger():
    agreement_run(st.lists(st.tuples(st.lists(random_formula(depth=3), min_size=1, max_size=5), random_formula(depth=3)),
                           min_size=1, max_size=4), 300)


from tests.helpers.formulas import P38  # noqa: E402


def test_the_parts_are_searched_side_by_side():
    """Pelletier 38 with one second and no inference budget to speak of: the second part's
    one-element model (found in the first, cheapest stage) is not held behind the first part's
    proof search, which runs until the time is up. (Searched one part after the other, both
    parts ended unknown.)"""
    d = logic.decide([], P38, fmt="tptp", time_limit=1.0, inferences=10**12)
    assert d.verdict == "UNKNOWN" and d.reason == "time_limit"
    assert d.entailed is None and d.refuted is False
    assert d.model["domain"] == ["d1"] and d.model["true_atoms"] == ["r(d1, d1)"]


def test_a_pair_stops_at_the_first_countermodel_of_either_direction():
    """∀x P(x) vs P(a): b ⊭ a has a two-element countermodel, found in the first stage of the
    second direction before any proof search of the first, and it settles the pair."""
    v = logic.equivalent("∀x P(x)", "P(a)", fmt="folio")
    assert v.verdict == "NOT_EQUIVALENT" and v.b_entails_a is False and v.witness["direction"] == "b_entails_a"


def _random_term(rng, depth: int) -> str:
    r = rng.random()
    if depth <= 0 or r < 0.3:
        return rng.choice(["X", "Y", "Z", "a", "b", "c"])
    if r < 0.65:
        return f"f({_random_term(rng, depth - 1)}, {_random_term(rng, depth - 1)})"
    return f"g({_random_term(rng, depth - 1)})"


def _random_equation(rng) -> str:
    eq = f"{_random_term(rng, 2)} = {_random_term(rng, 2)}"
    vs = [v for v in ("X", "Y", "Z") if v in eq]
    return f"![{', '.join(vs)}]: ({eq})" if vs else eq


@pytest.mark.slow
def test_unit_equations_never_contradict_z3():
    """Random unit equations over f/2, g/1 and three constants, and an equation to prove: the
    clause sets completion takes (logic/engine/prolog/equational.pl). No entailment contradicts Z3's,
    every proof replayed (a replay failure would be an error), and most are decided."""
    from ambit.logic.provers import z3_prover
    from ambit.logic.syntax.parse import parse

    rng = random.Random(7)
    decided = completion = 0
    for _ in range(60):
        axioms = [_random_equation(rng) for _ in range(rng.randint(1, 3))]
        goal = _random_equation(rng)
        d = logic.decide(axioms, goal, fmt="tptp", time_limit=2.0)
        z = z3_prover.satisfiable_isolated([parse(a, "tptp") for a in axioms] + [Not(parse(goal, "tptp"))], 3.0)
        want = {"unsat": True, "sat": False}.get(z.status)
        if d.entailed is not None:
            decided += 1
            assert want is None or d.entailed == want, (axioms, goal, d.entailed, z.status)
        completion += bool(d.entailed and d.proof and d.proof[-1]["step"] == "goal")
    assert decided >= 50 and completion >= 10, (decided, completion)


def test_a_function_free_story_past_the_largest_domain_gets_its_herbrand_countermodel():
    """Ten pairwise distinct names need ten elements, more than max_domain: the grounded search
    (herbrand.pl) still decides, and its model, checked by `holds`, is the countermodel."""
    names = [f"n{i}" for i in range(10)]
    premises = [f"{a} ≠ {b}" for i, a in enumerate(names) for b in names[i + 1:]] + ["∀x (P(x) → Q(x))", "P(n0)"]
    d = logic.decide(premises, "∀x Q(x)", fmt="folio", max_domain=4)
    assert d.verdict == "UNCERTAIN" and d.entailed is False
    m = d.countermodel
    assert len(m["domain"]) >= 10 and len(set(m["constants"].values())) == 10
    assert "Q(" + m["constants"]["n0"] + ")" in m["true_atoms"]


def test_pigeonhole_axioms_are_refuted_by_grounding():
    """Four distinct pigeons in three holes, no two sharing: inconsistent, with the exhaustion of
    the Herbrand universe as the proof."""
    pigeons = ["p1", "p2", "p3", "p4"]
    premises = [f"In({p}, h1) ∨ In({p}, h2) ∨ In({p}, h3)" for p in pigeons]
    premises += [f"{a} ≠ {b}" for i, a in enumerate(pigeons) for b in pigeons[i + 1:]]
    premises.append("∀x ∀y ∀z (In(x, z) ∧ In(y, z) → x = y)")
    d = logic.decide(premises, "Q(p1)", fmt="folio")
    assert d.verdict == "INCONSISTENT" and d.entailed is True
    assert d.proof[0]["step"] == "exhausted" and "constants" in d.proof[0]["literal"]
