"""Budgets that hold: a time limit stops the work in Prolog and the answer is UNKNOWN with the
reason `time_limit`; a spent inference budget says `inference_limit`; every reason is one of
logic.engine.verdict.REASONS. (The elapsed-time checks are hang guards at several times the limit,
not speed assertions: before the fix, a 0.2 s limit ran for half a minute.)"""

from __future__ import annotations

import json
import shutil
import time

import pytest

from ambit import logic
from ambit.logic.engine import equivalence
from ambit.logic.engine import prove
from ambit.logic.engine.verdict import REASONS

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

# Only infinite models (R serial, irreflexive, transitive): no finite model of the premises
# and the conclusion's negation, and no proof either; the search runs on until a budget stops it.
INFINITE = ["∀x ∃y R(x, y)", "∀x ¬R(x, x)", "∀x ∀y ∀z (R(x, y) ∧ R(y, z) → R(x, z))"]
INFINITE_ONE = " ∧ ".join(f"({p})" for p in INFINITE)
HANG_GUARD = 3.0  # times the limit, plus start-up: far above the promise of +10% (+0.1 s)


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Prolog started and prove.pl loaded before any timing."""
    prove.decide(["A(a)"], "A(a)")
    equivalence.equivalent("man(Mary)", "man(Mary) AND man(Mary)", canonical_shortcut=False)


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


@pytest.mark.parametrize("limit", [0.2, 0.6])
def test_decide_keeps_its_time_limit_under_a_huge_inference_budget(limit):
    d, elapsed = _timed(lambda: prove.decide(INFINITE, "P(a)", time_limit=limit, inferences=100_000_000))
    assert d.verdict == "UNKNOWN" and d.reason == "time_limit" and d.budget == "time_limit"
    assert elapsed < HANG_GUARD * limit + 1.0, elapsed


def test_equivalence_keeps_its_time_limit():
    v, elapsed = _timed(lambda: prove.equivalent_batch([(INFINITE_ONE, INFINITE_ONE + " ∧ P(a)")], "folio",
                                                     time_limit=0.3, inferences=100_000_000)[0])
    assert v.verdict == "UNKNOWN" and v.witness == {"reason": "time_limit"} and v.reason == "time_limit"
    assert elapsed < HANG_GUARD * 0.3 + 1.0, elapsed


def test_each_item_of_a_batch_has_its_own_time_limit():
    """A slow story does not eat the time of the ones after it in the same round trip."""
    stories = [(INFINITE, "P(a)"), (["Dog(rex)", "∀x (Dog(x) → Animal(x))"], "Animal(rex)")] * 2
    ds, elapsed = _timed(lambda: prove.decide_batch(stories, "folio", time_limit=0.25, inferences=100_000_000))
    assert [d.verdict for d in ds] == ["UNKNOWN", "TRUE"] * 2
    assert {ds[0].reason, ds[2].reason} == {"time_limit"}
    assert elapsed < HANG_GUARD * 0.5 + 1.0, elapsed


def test_spent_inferences_are_named_so():
    d = prove.decide(INFINITE, "P(a)", inferences=20_000, time_limit=30)
    assert d.verdict == "UNKNOWN" and d.reason == "inference_limit"
    v = prove.equivalent_batch([(INFINITE_ONE, INFINITE_ONE + " ∧ P(a)")], "folio", inferences=20_000,
                             time_limit=30)[0]
    assert v.verdict == "UNKNOWN" and v.reason == "inference_limit"


def test_a_finite_search_that_ends_without_an_answer_is_the_domain_limit():
    """∀x∃y (x < y), irreflexive and transitive, has no model of 1 element: with max_domain 1 the
    model search ends; the proof search closes too when nothing is left to try (a clause set
    with no proof, so the formula is satisfiable, but only beyond the domain searched)."""
    d = prove.decide(["∀x ∃y R(x, y)", "∀x ¬R(x, x)"], "∃x ∃y (R(x, y) ∧ R(y, x))", max_domain=1,
                   inferences=2_000_000, time_limit=30)
    assert d.verdict == "UNKNOWN" and d.reason in ("domain_limit", "inference_limit")


def test_amp_time_limit_and_reasons():
    n = 22
    a = "exists x . " + " AND ".join(f"( p{i}(x) OR q{i}(x) )" for i in range(n))
    b = "exists x . " + " AND ".join(f"( q{i}(x) OR p{i}(x) )" for i in range(n)) + " AND r(x)"
    v, elapsed = _timed(lambda: equivalence.equivalent(a, b, time_limit=0.3, inferences=10**12))
    assert v.verdict in ("UNKNOWN", "NOT_EQUIVALENT")
    if v.verdict == "UNKNOWN":
        assert v.reason in REASONS
    assert elapsed < HANG_GUARD * 0.3 + 1.0, elapsed


def test_backstop_is_the_promise():
    """What a round trip may take from outside: +10% and 0.1 s per item, not twice plus 5 s."""
    assert prove.backstop(1, 40.0) == pytest.approx(44.1)
    assert prove.backstop(3, 0.2) == pytest.approx(3 * 0.32)


def test_cli_unknown_reason_is_a_code(tmp_path, capsys):
    from ambit.logic.cli.prove import main

    premises = tmp_path / "p.txt"
    premises.write_text("\n".join(INFINITE), encoding="utf-8")
    assert main(["entails", "--premises", str(premises), "--conclusion", "P(a)", "--time-limit", "0.2",
                 "--inferences", "100000000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("UNKNOWN\n")
    assert json.loads(out.split("\n", 1)[1])["reason"] == "time_limit"


def test_every_reason_the_engines_name_is_in_the_list():
    assert set(REASONS) == {"time_limit", "inference_limit", "memory_limit", "domain_limit", "outside_fragment"}
    assert logic.Verdict is equivalence.Verdict is prove.Verdict


def test_the_reason_crosses_from_a_pool_process():
    """With --workers, a chunk's PrologError is pickled back: a spent stack stays `memory`
    (so that prove.py answers memory_limit instead of raising)."""
    import pickle

    from ambit.logic.runtime.worker import PrologError

    e = pickle.loads(pickle.dumps(PrologError("Prolog ran out of resources", reason="memory")))
    assert e.reason == "memory" and not e.timed_out


def test_the_stage_factors_are_the_same_on_both_sides():
    """prove.py bounds a round trip by what prove.pl may spend: its PROOF_FACTOR and DECISION_FACTOR
    must be prove.pl's."""
    from ambit.logic.runtime.worker import worker

    worker().consult(prove.PROGRAM)
    assert worker().query_json("prove:proof_factor(Out)") == prove.PROOF_FACTOR
    assert worker().query_json("prove:decision_factor(Out)") == prove.DECISION_FACTOR
