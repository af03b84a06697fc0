"""The classic problem set (benchmarks/problems/) and its reader (benchmarks/fol_classic.py):
every file has an expected status and is read, or refused with a parse error, never a crash;
E and Z3 never contradict a file's expected status (the set keeps only problems where they agree)."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import pytest

from tests.paths import REPO


def _classic():
    spec = importlib.util.spec_from_file_location("fol_classic", REPO / "benchmarks" / "fol_classic.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fol_classic", mod)
    spec.loader.exec_module(mod)
    return mod


def test_every_problem_has_a_status_and_is_read_or_refused_with_a_parse_error():
    c = _classic()
    ps = c.problems()
    counts = {s: sum(p.set == s for p in ps) for s in c.SETS}
    assert counts == {"pelletier": 65, "nontheorems": 20, "hard": 21}
    assert {p.expected for p in ps if p.set == "nontheorems"} == {c.COUNTER}
    assert {p.expected for p in ps if p.set != "nontheorems"} == {c.THEOREM}
    for p in ps:
        assert (p.parse_error is None) == (p.conclusion is not None), p.name
        if p.parse_error:  # the reader names the formula and the position
            assert p.parse_error.split(":")[0] in ("goal", *[f"ax{i}" for i in range(1, 30)]), p.parse_error
    assert [p.name for p in ps if p.set == "pelletier" and not p.parse_error][:3] == ["p01", "p02", "p03"]


def test_a_file_without_a_status_is_refused(tmp_path):
    c = _classic()
    f = tmp_path / "x.p"
    f.write_text("fof(goal, conjecture, p | ~p).\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Status"):
        c.read_problem(f, "pelletier")
    f.write_text("% Status : Theorem\nfof(a, axiom, p).\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no conjecture"):
        c.read_problem(f, "pelletier")


@pytest.mark.slow
def test_e_and_z3_never_contradict_the_expected_status():
    pytest.importorskip("z3")
    if shutil.which("eprover") is None:
        pytest.skip("the E prover is not installed (`apt-get install -y eprover`)")
    c = _classic()
    contradictions, decided = [], 0
    for p in c.problems():
        answers = {"eprover": c.run_e(p, 5.0)[0]}
        if not p.parse_error:
            answers["z3"] = c.run_z3(p, 5.0)[0]
        for solver, a in answers.items():
            decided += a is not None
            if a is not None and a != p.expected:
                contradictions.append((p.name, solver, a, p.expected))
    assert not contradictions
    assert decided >= 140


@pytest.mark.slow
def test_the_classic_section_reports_every_solver_and_a_parse_failure_as_unknown():
    pytest.importorskip("z3")
    pytest.importorskip("pyswip")
    c = _classic()
    out = c.classic_section(2.0, sets=("hard",))
    hard = out["sets"]["hard"]
    solvers = ["prolog", "portfolio", "z3"] + (["eprover"] if shutil.which("eprover") else [])
    n = len(c.problems(("hard",)))
    assert set(hard) == set(solvers) and out["problems"] == {"hard": n}
    for s in solvers:
        r = hard[s]
        assert r["solved"] + r["unknown"] + r["wrong"] == n and r["wrong"] == 0
    # the group problem has function terms: unknown to ambit's reader, so to Prolog, the portfolio, Z3
    if "group_right_identity" in out["parse_failures"]:
        assert all("group_right_identity" in hard[s]["unsolved"] for s in ("prolog", "portfolio", "z3"))
    assert set(out["targets"]) >= {"prolog_hard", "prolog_hard_added", "portfolio_hard", "portfolio_wrong"}
    assert out["targets"]["portfolio_wrong"]["met"]


def test_the_added_hard_problems_are_in_the_hard_set_and_read():
    c = _classic()
    hard = {p.name: p for p in c.problems(("hard",))}
    assert set(c.ADDED_HARD) <= set(hard)
    assert not [n for n in c.ADDED_HARD if hard[n].parse_error]


@pytest.mark.parametrize("name", ["php_axioms_5_4", "php_quantified_5_4", "php_7_6", "dense_order_3"])
def test_prolog_alone_proves_pigeonhole_and_dense_orders_by_exhaustion(name):
    """Pigeonhole (function-free: grounded over its constants and decided by DPLL) and a dense
    order on a few elements (a domain-closure axiom bounds the model search): Prolog alone proves
    them, and the proof says no model exists within the bound."""
    pytest.importorskip("pyswip")
    from ambit.logic.engine import prove

    c = _classic()
    p = c.read_problem(REPO / "benchmarks" / "problems" / "hard" / f"{name}.p", "hard")
    d = prove.decide(p.premises, p.conclusion, "tptp")
    assert d.entailed is True
    assert d.proof[0]["step"] == "exhausted", d.proof[0]
