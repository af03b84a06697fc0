"""The default path's last step for AmP pairs: a pair the one engine leaves UNKNOWN within its
inferences (not its time) goes to E with a bound in steps (`portfolio.settle_by_e`, E_STEPS
processed clauses a direction). The rule, made to bind: the engine's `settle` is asked exactly for
the pairs left open by a step budget, never for one the clock stopped; E's verdicts say they are
E's and unchecked; E out of steps settles nothing. The pairs are tail pairs the engine leaves open
(tests/helpers/amp_tail_pairs.py, seed 0: two of them)."""

from __future__ import annotations

import shutil

import pytest

if shutil.which("swipl") is None:
    pytest.skip("SWI-Prolog (swipl) is not installed", allow_module_level=True)

from ambit import logic  # noqa: E402
from ambit.logic.engine import equivalence  # noqa: E402
from ambit.logic.provers import eprover, portfolio  # noqa: E402
from ambit.logic.syntax.parse import parse  # noqa: E402

needs_e = pytest.mark.skipif(shutil.which("eprover") is None, reason="E prover (eprover) not installed")

# tail pairs (seed 0) the engine alone leaves UNKNOWN (inference_limit): E proves both directions of
# the first; the second's b does not entail a (CounterSatisfiable), and a entails b
OPEN_EQUIVALENT = (
    "forall a . exists i . forall z . exists x . forall y . ( agent(x, John) OR ( ( woman(z) AND saw(y) ) OR ran(a) ) ) "
    "AND ( agent(i, i) OR ( patient(i, x) AND ( ( saw(a) AND saw(z) ) AND ( theme(x, y) AND patient(i, John) ) ) ) )",
    "forall a . forall z . exists i . exists x . forall y . ( agent(x, John) OR ( ( woman(z) AND saw(y) ) OR ran(a) ) ) "
    "AND ( agent(i, i) OR ( patient(i, x) AND ( ( saw(a) AND saw(z) ) AND ( theme(x, y) AND patient(i, John) ) ) ) )",
)
OPEN_NOT_EQUIVALENT = (
    "exists i . forall e . exists a . exists z . exists x . ( ( woman(z) AND saw(e) ) AND theme(i, x) ) AND "
    "( ( agent(e, z) AND ( agent(e, Mary) AND theme(x, z) ) ) OR theme(z, a) )",
    "forall e . exists i . exists a . exists z . exists x . ( ( woman(z) AND saw(e) ) AND theme(i, x) ) AND "
    "( ( agent(e, z) AND ( agent(e, Mary) AND theme(x, z) ) ) OR theme(z, a) )",
)


def _asked(pairs, **budget) -> tuple[list, list]:
    """The engine's verdicts with a `settle` that records what it is asked and settles nothing."""
    asked: list = []
    out = equivalence.equivalent_batch(pairs, settle=lambda a, b, bud: asked.append((a, b, bud)), **budget)
    return out, asked


def test_settle_is_asked_for_a_pair_left_open_by_inferences():
    (v,), asked = _asked([OPEN_EQUIVALENT])
    assert v.verdict == "UNKNOWN" and v.witness["reason"] == "inference_limit"  # settle gave None: kept
    assert len(asked) == 1 and asked[0][2].inferences == equivalence.DEFAULT_INFERENCES


def test_settle_is_not_asked_for_a_pair_the_clock_stopped_or_the_engine_decided():
    (v,), asked = _asked([OPEN_EQUIVALENT], time_limit=0.001)
    assert v.verdict == "UNKNOWN" and v.witness["reason"] == "time_limit"
    (v,), asked_too = _asked([("exists x . dog(x)", "exists x . ( dog(x) AND cat(x) )")])
    assert v.verdict == "NOT_EQUIVALENT"
    assert asked == asked_too == []


@needs_e
@pytest.mark.parametrize("pair, verdict", [(OPEN_EQUIVALENT, "EQUIVALENT"), (OPEN_NOT_EQUIVALENT, "NOT_EQUIVALENT")])
def test_the_default_path_settles_what_the_engine_leaves_open(pair, verdict):
    v = logic.equivalent(*pair)
    assert v.verdict == verdict
    assert v.witness["checked"] is False and set(v.witness["unchecked"].values()) == {"eprover"}
    truth = [eprover.prove([parse(x, "fol")], parse(y, "fol"), 10, proof_object=False).proved
             for x, y in (pair, pair[::-1])]
    if verdict == "EQUIVALENT":
        assert truth == [True, True]
    else:  # E, given time, refutes b |= a; the step-bounded E said so, by saturation (no model)
        assert truth[1] is False and v.b_entails_a is False
        assert v.witness["saturation"] == "CounterSatisfiable" and v.witness["direction"] == "b_entails_a"


@needs_e
def test_e_out_of_steps_settles_nothing(monkeypatch):
    a, b = (parse(x, "fol") for x in OPEN_EQUIVALENT)
    budget = portfolio.Budget()
    assert portfolio.settle_by_e(a, b, budget).verdict == "EQUIVALENT"
    monkeypatch.setattr(portfolio, "E_STEPS", 1)
    assert portfolio.settle_by_e(a, b, budget) is None
