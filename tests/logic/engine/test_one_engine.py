"""One engine for every format: AmP's procedure is the first stage; a direction it does not prove
goes on to the one first-order engine (prove.pl) within the same budget; what it decides agrees
with Z3, and every model it gives is checked."""

from __future__ import annotations

import shutil

import pytest

if shutil.which("swipl") is None:
    pytest.skip("SWI-Prolog (swipl) is not installed", allow_module_level=True)

from ambit.logic.engine import equivalence, prove  # noqa: E402
from ambit.logic.engine.equivalence import to_prolog_bb  # noqa: E402
from ambit.logic.runtime.worker import worker  # noqa: E402

# Outside the complete fragment (OR under a universal), found among the generated pairs of
# test_equivalence_z3.py: at 100,000 inferences AmP's procedure alone leaves them UNKNOWN.
HARD = [
    ("forall e . exists y . ran(e) AND ( boy(y) OR patient(y, e) ) AND man(e) AND agent(y, e)",
     "forall e . exists y . ( ( ran(e) AND man(e) AND agent(y, e) AND boy(y) ) OR ( ran(e) AND man(e) AND "
     "agent(y, e) AND patient(y, e) ) ) OR ( ( ( ran(e) AND man(e) AND agent(y, e) AND boy(y) ) OR ( ran(e) AND "
     "man(e) AND agent(y, e) AND patient(y, e) ) ) AND cup(e) )"),
    ("exists a . exists y . forall x . saw(y) AND ran(a) AND patient(a, x) AND ( agent(y, y) OR man(x) )",
     "exists a . exists y . forall x . ( saw(y) AND ran(a) AND patient(a, x) AND ( agent(y, y) OR man(x) ) ) OR "
     "( saw(y) AND ran(a) AND patient(a, x) AND ( agent(y, y) OR man(x) ) AND man(a) )"),
]
INFERENCES = 100_000


def amp_alone(a, b, inferences: int = INFERENCES) -> str:
    """The verdict of the first stage alone (equivalence.pl's sld_pair), without the engine after it."""
    worker().consult(equivalence.PROGRAM)
    fa, fb = equivalence._formula(a, "fol"), equivalence._formula(b, "fol")
    goal = (f"equivalence:sld_pair({to_prolog_bb(fa, 'a')},{to_prolog_bb(fb, 'b')},{inferences},R), "
            "( R == canonical -> Out = 'EQUIVALENT' ; R = sld(AB, BA), "
            "( AB == true, BA == true -> Out = 'EQUIVALENT' ; ( AB == false ; BA == false ) -> Out = 'NOT_EQUIVALENT' "
            "; Out = 'UNKNOWN' ) )")
    return worker().query_json(goal, time_limit=30)


@pytest.mark.parametrize("a, b", HARD)
def test_what_amps_procedure_leaves_unknown_the_pipeline_decides(a, b):
    assert amp_alone(a, b) == "UNKNOWN"
    v = equivalence.equivalent(a, b, inferences=INFERENCES, canonical_shortcut=False, time_limit=30)
    assert (v.verdict, v.a_entails_b, v.b_entails_a) == ("EQUIVALENT", True, True)
    # the first stage's second step (monotone.pl: each clause of an instance of b's matrix holds
    # an instance of one of a's clauses) proves what SLD left open
    assert v.witness["method"] == "instances"
    assert {v.witness["method_a_entails_b"], v.witness["method_b_entails_a"]} <= {"sld", "instances"}
    assert equivalence.entails(a, b, inferences=INFERENCES, time_limit=30) is True
    assert equivalence.entails(b, a, inferences=INFERENCES, time_limit=30) is True
    # and the engine after it, prove.pl's connection prover, proves the pair on its own too
    w = prove.equivalent_batch([(equivalence._formula(a, "fol"), equivalence._formula(b, "fol"))],
                               inferences=INFERENCES, time_limit=30)[0]
    assert (w.verdict, w.a_entails_b, w.b_entails_a) == ("EQUIVALENT", True, True)


def test_the_pipeline_agrees_with_z3_where_amp_alone_gives_up():
    pytest.importorskip("z3")
    from tests.helpers.equivalence import check_witness
    from tests.helpers.z3_pairs import generated_pairs, z3_entails

    pairs = generated_pairs(300, seed=1)[150:250]  # pair 192 is among those AmP alone leaves UNKNOWN
    verdicts = equivalence.equivalent_batch([(f, g) for _, f, g in pairs], inferences=INFERENCES,
                                            canonical_shortcut=False, time_limit=30)
    settled = 0
    for (_, f, g), v in zip(pairs, verdicts):
        if v.verdict == "NOT_EQUIVALENT":
            check_witness(f, g, v)
        for ours, (x, y) in ((v.a_entails_b, (f, g)), (v.b_entails_a, (g, f))):
            theirs = z3_entails(x, y)
            if ours is not None and theirs is not None:
                assert ours == theirs, (f, g, v)
        if v.verdict != "UNKNOWN" and amp_alone(f, g) == "UNKNOWN":
            settled += 1
    assert settled >= 1
    assert sum(v.verdict == "UNKNOWN" for v in verdicts) == 0


def test_each_direction_names_the_step_of_the_first_stage_that_proved_it():
    """(∀x. p(x) ∨ q(Mary)) ≡ (∀y. p(y)) ∨ q(Mary): SLD proves b ⊨ a; a ⊨ b (an OR under ∀) is
    one instance of a's clause p(x) ∨ q(Mary), x the Herbrand term of b's ∀y, inside b's one
    clause: the second step (`instances`). Each direction is named by `method_*`."""
    a, b = "forall x . p(x) OR q(Mary)", "( forall y . p(y) ) OR q(Mary)"
    assert amp_alone(a, b) == "UNKNOWN"
    v = equivalence.equivalent(a, b, canonical_shortcut=False)
    assert (v.verdict, v.a_entails_b, v.b_entails_a) == ("EQUIVALENT", True, True)
    assert v.witness == {"method": "instances", "method_a_entails_b": "instances", "method_b_entails_a": "sld"}


def test_a_refuted_direction_without_a_model_in_the_budget_is_still_not_entailed():
    """max_domain 0 turns the model search off: the first stage's complete refutation alone says
    NOT_EQUIVALENT, with `"model": null`."""
    a, b = "exists x . forall y . saw(x, y)", "forall y . exists x . saw(x, y)"
    v = equivalence.equivalent(a, b, max_domain=0)
    assert (v.verdict, v.a_entails_b, v.b_entails_a) == ("NOT_EQUIVALENT", True, False)
    assert v.witness["direction"] == "b_entails_a" and v.witness["model"] is None
    assert equivalence.entails(b, a, max_domain=0) is False
    w = equivalence.equivalent(a, b).witness  # with the search: a model, checked, in AmP's shape
    assert w["model"]["extensions"]["saw"] and w["model"]["true_atoms"]
