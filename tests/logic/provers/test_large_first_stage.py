"""What a large story gets for the first stage it skips (issue 57, the 150,000-statement problem):
the conclusion proved by Prolog from the premises that share a name with it, and a part settled
by a one-element model with every atom alike, checked by the model checker; both stop at the
time limit. Real Prolog; the race's provers are not needed for these stories."""

from __future__ import annotations

import threading
import time

import pytest

from ambit.logic import parse
from ambit.logic.engine import prove
from ambit.logic.engine.model_check import holds
from ambit.logic.provers import portfolio
from ambit.logic.provers.large_story import _uniform, uniform_model
from ambit.logic.provers.portfolio_members import _Stopped
from ambit.logic.provers.portfolio_question import Budget

N = prove.STASH_PART + 500  # a large story: more premises than one part sent to Prolog
POSITIVE = [parse(f"p{i}(c{i}) | q(c{i})", "tptp") for i in range(N)]


def _model(d: dict) -> dict:
    """A reported model (true atoms as text) as the checker reads it."""
    atoms = {tuple(a.replace(")", "").replace("(", ",").replace(" ", "").split(",")) for a in d["true_atoms"]}
    return {"domain": d["domain"], "constants": d["constants"], "functions": {}, "atoms": atoms}


@pytest.mark.parametrize("text, true, false", [
    ("![X]: (p(X) => q(X))", True, True),
    ("?[X]: p(X) & ~q(a)", False, False),
    ("p(a) & ~p(b)", False, False),   # one element: a and b are the same element
    ("a = b & ~r", False, True),      # every equation holds in one element
    ("~(p(a) <=> q(a)) | (r ^ s)", False, False),
])
def test_the_walk_is_the_truth_in_a_one_element_model(text, true, false):
    f = parse(text.replace("^", "<~>"), "tptp")
    assert _uniform(f, True) is true and _uniform(f, False) is false
    preds = {"p", "q", "r", "s"}
    for value, expected in ((True, true), (False, false)):
        atoms = {("p", "d1"), ("q", "d1"), ("r",), ("s",)} if value else set()
        m = {"domain": ["d1"], "constants": {"a": "d1", "b": "d1"}, "functions": {}, "atoms": atoms}
        assert holds(f, m) is expected, (text, value, preds)


def test_positive_premises_have_the_all_true_model_checked():
    formulas = [*POSITIVE, parse("q(c1) | ~q(c1)", "tptp")]
    d = uniform_model(formulas, threading.Event(), Budget(time_limit=60))
    assert d is not None and d["domain"] == ["d1"] and len(d["true_atoms"]) == N + 1  # p0..pN-1 and q
    m = _model(d)
    assert all(holds(f, m) for f in formulas[:50] + formulas[-50:])


def test_no_uniform_model_is_none_and_a_passed_deadline_stops_it():
    assert uniform_model([parse("p(a)", "tptp"), parse("~p(b)", "tptp")], threading.Event(), Budget(time_limit=5)) \
        is None
    with pytest.raises(_Stopped):
        uniform_model(POSITIVE, threading.Event(), Budget(time_limit=5, deadline=time.monotonic() - 1))


def test_a_large_story_is_true_by_a_proof_from_its_names_and_a_uniform_model():
    """q(c7) follows from two premises that name c7 (the proof's premise indices are the
    story's); the premises and q(c7) hold where every atom is true: TRUE, checked, no race."""
    premises = [*POSITIVE, parse("r(c7)", "tptp"), parse("![X]: (r(X) => q(X))", "tptp")]
    d = portfolio.decide_batch([(premises, parse("q(c7)", "tptp"))], "tptp", time_limit=30)[0]
    assert d.verdict == "TRUE" and d.is_checked
    assert d.answered_by == {"with_negated_conclusion": "prolog", "with_conclusion": "uniform"}
    assert N in d.premises_used and all(premises[i] for i in d.premises_used)
    assert {s["from"] for s in d.proof if isinstance(s.get("from"), int)} <= set(d.premises_used)


def test_a_large_story_the_stage_leaves_open_goes_to_the_race():
    """~q(c7): the premises and q(c7) have the all-true model (not entailed, settled by the
    stage); the premises and ~q(c7) have no uniform model, so that part goes to the race (a
    countermodel, or time_limit)."""
    d = portfolio.decide_batch([(POSITIVE, parse("~q(c7)", "tptp"))], "tptp", time_limit=5)[0]
    assert d.entailed is False and d.answered_by["with_negated_conclusion"] == "uniform"
    assert d.verdict in ("UNCERTAIN", "UNKNOWN") and d.refuted is not True
