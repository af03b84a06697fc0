"""A spent budget is UNKNOWN with a reason, never an exception, at every entry point: the API
(`ambit.equivalent`, `ambit.logic.equivalent_batch`, `ambit.decide`, `ambit.entails`), `ambit
logic equiv` and `ambit logic entails`, and the CheckEquivalence / CheckEntailment RPCs of a real
localhost server. Budgets in inferences give the same answer on any machine; the RPCs take a time
limit only, and their formulas have no proof and no finite model, so any limit is spent. A stack
that runs out (`resource_error`) is UNKNOWN `memory_limit` too. (`explain` is checked in
test_explain.py and test_explain_rpc.py; pyswip's own budget errors in test_explain.py.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import Future

import pytest

import ambit
from ambit import logic
from ambit.logic.engine.verdict import REASONS
from tests.paths import REPO

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

# Only infinite models (R serial, irreflexive, transitive): no proof, no finite countermodel.
INFINITE = ["∀x ∃y R(x, y)", "∀x ¬R(x, x)", "∀x ∀y ∀z (R(x, y) ∧ R(y, z) → R(x, z))"]
ONE = " ∧ ".join(f"({p})" for p in INFINITE)
SPENT = {"inferences": 20_000, "time_limit": 60}


def test_the_api_answers_unknown_with_the_spent_budget():
    v = ambit.equivalent(ONE, ONE + " ∧ P(a)", "folio", **SPENT)
    assert v.verdict == "UNKNOWN" and v.reason == "inference_limit"
    vs = logic.equivalent_batch([(ONE, ONE + " ∧ P(a)"), ("P(a)", "P(a) ∧ P(a)")], "folio", **SPENT)
    assert [(x.verdict, x.reason) for x in vs] == [("UNKNOWN", "inference_limit"), ("EQUIVALENT", None)]
    d = ambit.decide(INFINITE, "P(a)", "folio", **SPENT)
    assert d.verdict == "UNKNOWN" and d.reason == "inference_limit"
    assert ambit.entails(INFINITE, "P(a)", "folio", **SPENT) is None


def test_a_stack_that_runs_out_is_unknown_memory_limit(monkeypatch):
    """Prolog's resource_error (its stack limit) in the round trip: UNKNOWN, reason memory_limit."""
    from ambit.logic.engine import equivalence
    from ambit.logic.runtime.cancel import PrologError

    def out_of_stack(*args, **kwargs) -> Future:
        f: Future = Future()
        f.set_exception(PrologError.from_payload("error(resource_error(memory), _)"))
        return f

    worker = equivalence.worker()
    monkeypatch.setattr(worker, "submit_json_quiet", out_of_stack)
    v = equivalence.equivalent("exists x . p(x)", "exists x . p(x) AND q(x)", canonical_shortcut=False)
    assert v.verdict == "UNKNOWN" and v.reason == "memory_limit" and v.reason in REASONS


def _logic(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "logic", *argv], cwd=REPO, capture_output=True,
                          text=True, timeout=600)


def test_ambit_logic_answers_unknown_with_the_reason(tmp_path):
    r = _logic("equiv", ONE, ONE + " ∧ P(a)", "--from", "folio", "--inferences", "20000", "--prover", "prolog")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.startswith("UNKNOWN\n")
    assert json.loads(r.stdout.partition("\n")[2])["witness"]["reason"] == "inference_limit"
    premises = tmp_path / "premises.txt"
    premises.write_text("\n".join(INFINITE) + "\n", encoding="utf-8")
    r = _logic("entails", "--premises", str(premises), "--conclusion", "P(a)", "--inferences", "20000",
               "--prover", "prolog")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.startswith("UNKNOWN\n")
    assert json.loads(r.stdout.partition("\n")[2])["reason"] == "inference_limit"


@pytest.fixture(scope="module")
def address():
    from ambit import server

    running = server.serve(no_model=True, port=0)
    yield running.address
    running.stop(1)


def test_the_rpcs_answer_unknown_with_the_reason(address):
    from ambit.client import Client

    with Client(address) as c:
        v = c.equivalent(ONE, ONE + " ∧ P(a)", fmt="folio", time_limit_ms=300)
        e = c.check_entailment(INFINITE, "P(a)", fmt="folio", time_limit_ms=300)
    assert v.verdict == "UNKNOWN" and v.witness["reason"] in ("time_limit", "inference_limit"), v
    assert e.verdict == "UNKNOWN" and e.reason in ("time_limit", "inference_limit"), e
