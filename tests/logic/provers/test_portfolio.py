"""The portfolio (logic/provers/portfolio.py): ambit's Prolog prover, E and Z3 on the same question.

Real E (`eprover`), real Z3 and real SWI-Prolog; a deliberately wrong stand-in prover shows that
a disagreement is raised, never dropped.
"""

from __future__ import annotations

import io
import json
import shutil
import threading

import pytest

pytest.importorskip("z3")
pytest.importorskip("pyswip")
if shutil.which("eprover") is None:
    pytest.skip("the E prover is not installed (`apt-get install -y eprover`; .ci/setup.sh does it)",
                allow_module_level=True)

from ambit.logic.engine import prove
from ambit.logic.cli import prove as fol_cli
from ambit.logic.provers import portfolio
from ambit.logic.provers import z3_prover  # noqa: E402
from ambit.logic.syntax.ast import Not  # noqa: E402
from ambit.logic.syntax.parse import parse  # noqa: E402
from tests.helpers.formulas import P38  # noqa: E402

THEOREM = (["∀x (Dog(x) → Animal(x))", "∀x (Animal(x) → Mortal(x))", "Dog(rex)"], "Mortal(rex)")
NON_THEOREM = (["∀x (Dog(x) → Animal(x))", "Animal(tom)"], "Dog(tom)")
# Andrews' challenge (Pelletier 34): beyond Prolog at a small inference budget, easy for E
ANDREWS = ("(((?[X]: ![Y]: (p(X) <=> p(Y))) <=> ((?[X]: q(X)) <=> ![Y]: p(Y))) <=> "
           "((?[X]: ![Y]: (q(X) <=> q(Y))) <=> ((?[X]: p(X)) <=> ![Y]: q(Y))))")


class Liar:
    """A stand-in prover that answers every part at once, with the opposite of the truth given."""

    name = "liar"

    def __init__(self, status: str) -> None:
        self.status = status

    def start(self, q, budget, post, done):
        for p in q.parts:
            post(portfolio.Answer(p.name, self.name, self.status))
        done(self.name, {})
        return lambda: None


class Slow:
    """Wraps a member so that it starts only once `gate` is set (to order answers in a test)."""

    def __init__(self, member, gate: threading.Event) -> None:
        self.member, self.gate, self.name = member, gate, member.name

    def start(self, q, budget, post, done):
        stops = []

        def go():
            self.gate.wait(10)
            stops.append(self.member.start(q, budget, post, done))

        threading.Thread(target=go, daemon=True).start()
        return lambda: [s() for s in stops]


def test_the_default_is_the_portfolio_when_e_is_installed(monkeypatch):
    assert portfolio.default_prover() == "portfolio"
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert portfolio.default_prover() == "prolog"
    with pytest.raises(ValueError, match="prover must be one of prolog, portfolio"):
        portfolio.decide(*THEOREM, prover="vampire")


@pytest.mark.parametrize("story, verdict", [(THEOREM, "TRUE"), (NON_THEOREM, "UNCERTAIN")])
def test_every_prover_agrees_with_prolog_alone(story, verdict):
    alone = portfolio.decide(*story, prover="prolog")
    assert alone.verdict == verdict and not hasattr(alone, "answered_by")
    d = portfolio.decide(*story, prover="portfolio", wait_for_all=True)  # a disagreement would raise
    assert d.verdict == verdict
    assert set(d.answered_by) == set(portfolio.STORY_PARTS)
    assert set(d.answered_by.values()) <= {"prolog", "eprover", "z3"}
    assert d.to_dict()["answered_by"] == d.answered_by


def test_a_proof_by_e_is_kept_as_its_tstp_derivation():
    d = portfolio.decide(*THEOREM, provers=[portfolio.EMember()])
    assert d.verdict == "UNCERTAIN" or d.verdict == "TRUE"
    assert d.answered_by["with_negated_conclusion"] == "eprover"
    tstp = d.tstp["with_negated_conclusion"]
    assert "negated_conjecture" in tstp and "$false" in tstp  # a refutation, as E wrote it
    assert d.proof and d.checked is False and d.unchecked == {"with_conclusion": "eprover"}  # E's saturation
    assert d.premises_used == [0, 1, 2]  # every premise is cited by the derivation
    assert prove.decide(*THEOREM).premises_used == d.premises_used


def test_a_z3_countermodel_is_rechecked_by_ambits_model_checker():
    d = portfolio.decide(*NON_THEOREM, provers=[portfolio.Z3Member()])
    assert d.verdict == "UNCERTAIN" and d.answered_by == {p: "z3" for p in portfolio.STORY_PARTS}
    m = d.countermodel
    model = {"domain": m["domain"], "constants": m["constants"],
             "atoms": {tuple(a.replace(")", "").replace(" ", "").replace("(", ",").split(",")) for a in m["true_atoms"]}}
    premises = [parse(p, "folio") for p in NON_THEOREM[0]]
    assert all(prove.holds(p, model) for p in premises) and not prove.holds(parse("Dog(tom)", "folio"), model)


def test_a_z3_model_that_fails_the_check_is_not_an_answer(monkeypatch):
    wrong = z3_prover.Z3Result("sat", {"domain": ["d1"], "constants": {}, "atoms": set()})
    monkeypatch.setattr(z3_prover.Z3Process, "result", lambda self: wrong)
    d = portfolio.decide(*NON_THEOREM, provers=[portfolio.Z3Member()], time_limit=2.0)
    assert d.verdict == "UNKNOWN"
    assert all("does not satisfy" in r for r in d.reasons["z3"].values())
    with pytest.raises(portfolio.ModelCheckFailed):
        portfolio.checked_model(wrong.model, [parse("Dog(tom)", "folio")])


def test_a_disagreement_is_raised():
    with pytest.raises(portfolio.ProverDisagreement) as e:  # the liar claims a countermodel to a theorem
        portfolio.decide(*THEOREM, provers=[Liar("sat"), portfolio.EMember(), portfolio.Z3Member()],
                         wait_for_all=True)
    assert e.value.first.prover == "liar" and e.value.second.prover in ("eprover", "z3")
    assert e.value.part == "with_negated_conclusion"
    with pytest.raises(portfolio.ProverDisagreement, match="liar says unsat"):
        portfolio.equivalent("∀x P(x)", "∃x P(x)", provers=[Liar("unsat"), portfolio.Z3Member()], wait_for_all=True)


def test_a_disagreement_after_the_answer_is_logged_and_kept(caplog):
    gate = threading.Event()
    before = len(portfolio.LATE_DISAGREEMENTS)
    d = portfolio.decide(*THEOREM, provers=[Liar("sat"), Slow(portfolio.Z3Member(), gate)])
    assert d.verdict == "UNCERTAIN" and d.answered_by["with_negated_conclusion"] == "liar"
    gate.set()  # now Z3 runs, after the answer was returned, and contradicts the liar
    for _ in range(100):
        if len(portfolio.LATE_DISAGREEMENTS) > before:
            break
        threading.Event().wait(0.05)
    late = portfolio.LATE_DISAGREEMENTS[before]
    assert late["first"] == ("liar", "sat") and late["late"] == ("z3", "unsat")
    assert "late disagreement" in caplog.text


def test_a_batch_takes_a_cheap_prolog_stage_then_races_what_it_leaves():
    tptp = [([parse(p, "folio") for p in THEOREM[0]], parse(THEOREM[1], "folio")), ([], parse(ANDREWS, "tptp"))]
    small = {"inferences": 20_000, "time_limit": 10.0}
    assert prove.decide(*tptp[1], **small).verdict == "UNKNOWN"
    first, second = portfolio.decide_batch(tptp, prover="portfolio", **small)
    assert first.verdict == "TRUE" and first.answered_by == {p: "prolog" for p in portfolio.STORY_PARTS}
    assert first.proof == prove.decide(*tptp[0], **small).proof  # Prolog's own evidence, unchanged
    assert first.checked is True
    assert second.verdict == "TRUE" and second.answered_by["with_negated_conclusion"] in ("eprover", "z3")
    assert second.reasons is None  # reasons are given for UNKNOWN only
    assert second.checked is not None  # re-proved by ambit's engine, or said to be unchecked
    assert second.checked or second.unchecked["with_negated_conclusion"] in ("eprover", "z3")


def test_unknown_names_each_provers_reason():
    d = portfolio.decide([], parse(ANDREWS, "tptp"), provers=[portfolio.PrologMember()], inferences=20_000)
    # Prolog gave up on inferences, long before the time limit: that is the one reason named
    assert d.verdict == "UNKNOWN" and d.reason == d.budget == "inference_limit"
    # the part it did settle (a model of the valid conclusion) is kept, and only the open part has a reason
    assert d.refuted is False and d.model is not None and d.answered_by == {"with_conclusion": "prolog"}
    assert d.entailed is None and set(d.reasons["prolog"]) == {"with_negated_conclusion"}


def test_a_settled_part_survives_an_unknown_verdict():
    """Pelletier 38: E (or Z3) proves the entailment, Prolog finds the one-element model of the
    conjecture; before, Prolog's UNKNOWN dropped that model and the portfolio stayed UNKNOWN.
    Prolog alone keeps its one settled part too."""
    goal = parse(P38, "tptp")
    alone = prove.decide([], goal, inferences=200_000, time_limit=5.0)
    assert alone.verdict == "UNKNOWN" and alone.entailed is None and alone.refuted is False
    assert alone.model["domain"] == ["d1"] and alone.model["true_atoms"] == ["r(d1, d1)"]
    if "eprover" in [m.name for m in portfolio.members()]:
        both = portfolio.decide([], goal, prover="portfolio", inferences=200_000, time_limit=5.0)
        assert both.verdict == "TRUE" and both.entailed is True and both.refuted is False
        assert both.answered_by["with_negated_conclusion"] in ("eprover", "z3")


def test_equivalence_by_the_portfolio_agrees_with_prolog_alone():
    pairs = [("∀x (P(x) → Q(x))", "∀x (¬Q(x) → ¬P(x))"), ("∀x ∃y R(x, y)", "∃y ∀x R(x, y)"),
             ("¬∃x (P(x) ∧ Q(x))", "∀x (P(x) → ¬Q(x))")]
    for a, b in pairs:
        alone = portfolio.equivalent(a, b, prover="prolog")
        v = portfolio.equivalent(a, b, prover="portfolio", wait_for_all=True)
        assert v.verdict == alone.verdict
        for ours, prolog in ((v.a_entails_b, alone.a_entails_b), (v.b_entails_a, alone.b_entails_a)):
            assert prolog is None or ours == prolog  # the portfolio may decide a direction Prolog left open
        assert set(v.witness["answered_by"]) == set(portfolio.EQUIV_PARTS)


def test_e_alone_on_a_non_theorem_says_counter_satisfiable():
    r = portfolio.eprover.prove([parse("∀x (P(x) → Q(x))", "folio")], parse("Q(a)", "folio"), 5.0)
    assert r.status == "CounterSatisfiable" and r.proved is False and r.output == "Saturation"
    r = portfolio.eprover.prove([parse("P(a)", "folio")], Not(Not(parse("P(a)", "folio"))), 5.0)
    assert r.proved is True and r.output == "CNFRefutation" and "fof(a0, axiom" in r.tstp


@pytest.mark.parametrize("cmd", ["entails", "equiv"])
def test_the_cli_takes_prover(tmp_path, cmd):
    premises = tmp_path / "premises.txt"
    premises.write_text("\n".join(THEOREM[0]) + "\n", encoding="utf-8")
    args = (["--premises", str(premises), "--conclusion", THEOREM[1]] if cmd == "entails"
            else ["∀x (P(x) → Q(x))", "∀x (¬Q(x) → ¬P(x))"])
    answers = {}
    for prover in ("prolog", "portfolio"):
        out = io.StringIO()
        assert fol_cli.main([cmd, "--from", "folio", "--prover", prover, *args], stdout=out) == 0
        verdict, body = out.getvalue().split("\n", 1)
        answers[prover] = (verdict, json.loads(body))
    assert answers["prolog"][0] == answers["portfolio"][0] in ("TRUE", "EQUIVALENT")
    evidence = answers["portfolio"][1] if cmd == "entails" else answers["portfolio"][1]["witness"]
    assert "answered_by" in evidence
    with pytest.raises(SystemExit):
        fol_cli.main([cmd, "--from", "folio", "--prover", "vampire", *args], stdout=io.StringIO())


def test_z3_reads_function_terms_of_any_term_class():
    from dataclasses import dataclass

    from ambit.logic.syntax.ast import And, Atom, Iff, Quant, Var

    @dataclass(frozen=True)
    class Fn:  # the shape of a function term: a name and argument terms
        name: str
        args: tuple

    def p(t):
        return Atom("P", (t,))

    fx = Fn("f", (Var("x"),))
    axiom = Quant("forall", "x", Iff(p(Var("x")), Not(p(fx))))  # Pelletier 59
    goal = Quant("exists", "x", And((p(Var("x")), Not(p(fx)))))
    assert z3_prover.satisfiable([axiom, Not(goal)], 5.0).status == "unsat"
    r = z3_prover.satisfiable([axiom], 5.0)
    assert r.status == "sat" and r.model is None and "function tables" in r.reason


def test_z3_checks_run_in_a_process_that_a_stop_kills():
    sat = z3_prover.Z3Process([parse("P(a) ∧ ∀x (P(x) → Q(x))", "folio")], 5.0).result()
    assert sat.status == "sat" and sat.model["constants"] == {"a": sat.model["domain"][0]}
    assert z3_prover.Z3Process([parse("P(a) ∧ ¬P(a)", "folio")], 5.0).result().status == "unsat"
    # Pelletier 63's negation keeps Z3 in quantifier rounds; a stop from another thread kills its process
    ax = [parse(f, "tptp") for f in ("![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))", "![X]: f(a, X) = X",
                                     "![X]: ?[Y]: f(Y, X) = a")]
    check = z3_prover.Z3Process([*ax, Not(parse("![X, Y, Z]: (f(X, Y) = f(Z, Y) => X = Z)", "tptp"))], 600.0)
    threading.Timer(0.5, check.stop).start()
    r = check.result()
    assert r.status == "unknown" and r.reason == "stopped"
    with pytest.raises(ProcessLookupError):  # killed and reaped
        __import__("os").kill(check.pid, 0)


def test_a_z3_process_needs_no_main_guard_in_the_callers_script(tmp_path):
    """The Z3 process is a plain `python -m ambit.logic.provers.z3_prover`: a caller's script without
    `if __name__ == "__main__"` is never re-imported (multiprocessing's spawn would re-run it)."""
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "no_guard.py"
    script.write_text("from ambit.logic import parse\nfrom ambit.logic.provers import z3_prover\n"
                      "print(z3_prover.satisfiable_isolated([parse('P(a)', 'folio')], 5.0).status)\n")
    root = Path(__file__).resolve().parents[3] / "src"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0 and out.stdout.strip() == "sat", out.stderr[-2000:]


def test_a_cancelled_scope_ends_the_race_and_stops_every_prover():
    """A server call's scope: its cancellation ends the race at once (the scope's error), and
    E's and Z3's processes are killed rather than left to the time limit."""
    import subprocess

    from ambit.logic.runtime.worker import PrologError, cancellable

    # only infinite models (serial, irreflexive, transitive): no prover can answer either part
    ps = ["∀x ∃y R(x, y)", "∀x ¬R(x, x)", "∀x ∀y ∀z (R(x, y) ∧ R(y, z) → R(x, z))"]
    with cancellable() as scope:
        threading.Timer(1.0, scope.cancel).start()
        with pytest.raises(PrologError) as e:
            portfolio.decide(ps, "P(a)", prover="portfolio", time_limit=600.0, inferences=10**12)
    assert e.value.reason == "cancelled"
    children = subprocess.run(["ps", "-o", "args=", "--ppid", str(__import__("os").getpid())],
                              capture_output=True, text=True).stdout
    assert "eprover" not in children, children


def test_every_member_of_a_batchs_race_gets_the_items_whole_time_but_the_cheap_stage(monkeypatch):
    """The race after the first stage: Prolog, E and Z3 side by side, each with the story's time
    limit less what the cheap first stage spent on it (at most FIRST_STAGE_S), not queued
    behind a long Prolog run."""
    budgets = []

    class Recorder:
        name = "recorder"

        def start(self, q, budget, post, done):
            budgets.append(budget.time_limit)
            done(self.name, {p.name: "gave up" for p in q.parts})
            return lambda: None

    monkeypatch.setattr(portfolio, "members", lambda: [portfolio.PrologMember(), Recorder()])
    infinite = ["∀x ∃y R(x, y)", "∀x ¬R(x, x)", "∀x ∀y ∀z (R(x, y) ∧ R(y, z) → R(x, z))"]
    quick, _ = portfolio.decide_batch([(infinite, "P(a)")] * 2, prover="portfolio", time_limit=30.0,
                                      inferences=20_000)
    assert quick.verdict == "UNKNOWN" and len(budgets) == 2
    assert all(29.5 < b <= 30.0 for b in budgets), budgets  # the first stage took a fraction of a second


def test_prolog_is_interrupted_once_the_race_is_over():
    """Andrews' challenge with no budget to speak of: E and Z3 settle both parts in well under a
    second, long before Prolog's proof search would end; the race then interrupts Prolog, so the
    next Prolog call does not wait behind it (it waited the whole 60 s limit before)."""
    import time

    d = portfolio.decide([], parse(ANDREWS, "tptp"), prover="portfolio", time_limit=15.0, inferences=10**12)
    assert d.verdict == "TRUE" and d.answered_by["with_negated_conclusion"] in {"eprover", "z3"}
    t = time.perf_counter()
    assert prove.decide(["A(a)"], "A(a)").verdict == "TRUE"
    assert time.perf_counter() - t < 10.0  # a hang guard: Prolog left running would hold the worker 15 s
