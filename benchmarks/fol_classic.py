"""The classic-problems section of fol_bench.py: Pelletier's problems, non-theorems and hard small
problems (benchmarks/problems/*/*.p, TPTP fof with an SZS `% Status` line), each given to ambit's
Prolog prover alone, the portfolio (logic/provers/portfolio.py), E alone and Z3 alone, in one run.

    .venv/bin/python benchmarks/fol_bench.py --section classic [--json] [--time-limit 5]

A problem's answer is Theorem or CounterSatisfiable: every solver is asked that one question.
ambit and the portfolio decide the story and answer with its first part, whether the axioms entail
the conjecture (`Decision.entailed`: True is Theorem, False CounterSatisfiable; it is settled even
where the second part, whether the conjecture can be true, is not, as in Pelletier 63, whose
axioms have only infinite-looking models for a finite search); how many full story verdicts each
found is `story_verdicts`. E reads the file itself, Z3 gets ambit's parse of it (axioms ∧ ¬conjecture). A problem that ambit cannot read (a
parse error, e.g. function terms before the reader knows them) is UNKNOWN for ambit, the
portfolio and Z3, with its message under `parse_failures`; it is never skipped.
"""

from __future__ import annotations

import math
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ambit.logic import parse
from ambit.logic.provers import eprover
from ambit.logic.provers import portfolio  # noqa: E402
from ambit.logic.syntax.ast import Formula, Not  # noqa: E402
from ambit.logic.errors import LFParseError  # noqa: E402

PROBLEMS = ROOT / "benchmarks" / "problems"
SETS = ("pelletier", "nontheorems", "hard")
THEOREM, COUNTER = "Theorem", "CounterSatisfiable"
EXPECTED = {"Theorem": THEOREM, "ContradictoryAxioms": THEOREM, "CounterSatisfiable": COUNTER}
SOLVERS = ("prolog", "portfolio", "eprover", "z3")
# The targets, as fractions of the set (Pelletier: of 60; hard: of 9, the first nine).
TARGETS = {"prolog": {"pelletier": (57, 60), "hard": (5, 9), "hard_added": (1, 2)},
           "portfolio": {"pelletier": (59, 60), "hard": (8, 9), "wrong": 0}}
# The hard problems added when no Prolog stage solved them (pigeonhole in three forms, dense orders
# on a few elements, group and lattice equalities): `hard_added` counts Prolog alone on these.
ADDED_HARD = ("php_7_6", "php_8_7", "php_axioms_4_3", "php_axioms_5_4", "php_axioms_6_5", "php_axioms_7_6",
              "php_quantified_5_4", "php_quantified_6_5", "dense_order_3", "dense_order_4",
              "group_cube_commutator", "lattice_distributive_dual")
_FOF = re.compile(r"fof\(\s*(\w+)\s*,\s*(\w+)\s*,(.*?)\)\s*\.\s*(?=fof\(|\Z)", re.S)


@dataclass
class Problem:
    name: str
    set: str
    path: Path
    expected: str
    premises: list[Formula] | None = None
    conclusion: Formula | None = None
    parse_error: str | None = None


def read_problem(path: Path, set_name: str) -> Problem:
    """A problem file: its expected status, and its axioms and conjecture as ambit reads them
    (`parse_error` set, and the formulas None, when ambit cannot read one of them)."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^%\s*Status\s*:\s*(\w+)", text, re.M)
    if not m or m.group(1) not in EXPECTED:
        raise ValueError(f"{path}: no '% Status : Theorem|ContradictoryAxioms|CounterSatisfiable' line")
    p = Problem(path.stem, set_name, path, EXPECTED[m.group(1)])
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
    premises, conclusion = [], None
    for name, role, formula in _FOF.findall(body):
        try:
            f = parse(" ".join(formula.split()), "tptp")
        except LFParseError as e:
            p.parse_error = f"{name}: {e}"
            return p
        if role == "conjecture":
            conclusion = f
        else:
            premises.append(f)
    if conclusion is None:
        raise ValueError(f"{path}: no conjecture")
    p.premises, p.conclusion = premises, conclusion
    return p


def problems(sets: tuple[str, ...] = SETS) -> list[Problem]:
    return [read_problem(f, s) for s in sets for f in sorted((PROBLEMS / s).glob("*.p"))]


# --------------------------------------------------------------------------- one answer per solver


def _entailment_answer(d) -> str | None:
    return {True: THEOREM, False: COUNTER}.get(d.entailed)


def run_prolog(p: Problem, t: float) -> tuple[str | None, dict]:
    d = portfolio.decide(p.premises, p.conclusion, "tptp", prover="prolog", time_limit=t)
    return _entailment_answer(d), {"verdict": d.verdict, **({"reason": d.reason} if d.reason else {})}


def run_portfolio(p: Problem, t: float) -> tuple[str | None, dict]:
    d = portfolio.decide(p.premises, p.conclusion, "tptp", prover="portfolio", time_limit=t)
    return _entailment_answer(d), {"verdict": d.verdict, "answered_by": d.answered_by, "checked": d.checked,
                                   **({"unchecked": d.unchecked} if d.unchecked else {})}


def run_e(p: Problem, t: float) -> tuple[str | None, dict]:
    r = eprover.prove_file(str(p.path), t)
    return {True: THEOREM, False: COUNTER}.get(r.proved), {"szs": r.status}


def run_z3(p: Problem, t: float) -> tuple[str | None, dict]:
    from ambit.logic.provers import z3_prover

    r = z3_prover.satisfiable_isolated([*p.premises, Not(p.conclusion)], t)  # Z3 may overrun: a process
    return {"unsat": THEOREM, "sat": COUNTER}.get(r.status), {"reason": r.reason} if r.reason else {}


RUNNERS: dict[str, Callable[[Problem, float], tuple[str | None, dict]]] = {
    "prolog": run_prolog, "portfolio": run_portfolio, "eprover": run_e, "z3": run_z3}


def classic_section(time_limit: float, sets: tuple[str, ...] = SETS) -> dict:
    """Every solver on every problem; per set and solver: solved, UNKNOWN, wrong, errors, median ms,
    the longest call and how many calls ran past the time limit + 10% + 0.1 s (`over_budget`)."""
    ps = problems(sets)
    solvers = [s for s in SOLVERS if s != "eprover" or eprover.available()]
    rows: dict[str, dict[str, tuple[str | None, float, dict]]] = {s: {} for s in solvers}
    portfolio.decide([], parse("p | ~p", "tptp"), "tptp", prover="prolog")  # warm up Prolog
    for s in solvers:  # one solver at a time, so that none shares the CPUs with another's leftovers
        for p in ps:
            t0 = time.perf_counter()
            if p.parse_error and s != "eprover":
                rows[s][p.name] = (None, 0.0, {"error": f"parse: {p.parse_error}"})
                continue
            try:
                ans, note = RUNNERS[s](p, time_limit)
            except Exception as e:  # noqa: BLE001 - a crash or a disagreement is reported, the run goes on
                ans, note = None, {"error": f"{type(e).__name__}: {e}"}
            rows[s][p.name] = (ans, time.perf_counter() - t0, note)
        if s == "portfolio":  # Prolog calls the portfolio left running end before the next solver
            from ambit.logic.runtime.worker import worker

            worker().run(lambda prolog: None)
    out: dict = {"time_limit_s": time_limit, "solvers": solvers,
                 "note": "every solver answers whether the axioms entail the conjecture (ambit and the "
                         "portfolio: the story's first part, Decision.entailed); story_verdicts counts ambit's "
                         "and the portfolio's full story verdicts (both parts settled)",
                 "problems": {s: sum(p.set == s for p in ps) for s in sets}, "sets": {}}
    for set_name in sets:
        group = [p for p in ps if p.set == set_name]
        per: dict = {}
        for s in solvers:
            answers = [rows[s][p.name] for p in group]
            per[s] = {
                "solved": sum(a == p.expected for p, (a, _, _) in zip(group, answers)),
                "unknown": sum(a is None for a, _, _ in answers),
                "wrong": sum(a is not None and a != p.expected for p, (a, _, _) in zip(group, answers)),
                "errors": sum("error" in n for _, _, n in answers),
                "median_ms": round(statistics.median(dt for _, dt, _ in answers) * 1e3, 1) if answers else None,
                "max_s": round(max(dt for _, dt, _ in answers), 2) if answers else None,
                "over_budget": sum(dt > 1.1 * time_limit + 0.1 for _, dt, _ in answers),
                "unsolved": [p.name for p, (a, _, _) in zip(group, answers) if a != p.expected],
            }
            if s in ("prolog", "portfolio"):
                per[s]["story_verdicts"] = sum(n.get("verdict") not in (None, "UNKNOWN") for _, _, n in answers)
        out["sets"][set_name] = per
    out["wrong_answers"] = [{"solver": s, "problem": p.name, "expected": p.expected, "answer": rows[s][p.name][0]}
                            for s in solvers for p in ps if rows[s][p.name][0] not in (None, p.expected)]
    out["errors"] = [{"solver": s, "problem": p.name, "error": rows[s][p.name][2]["error"]}
                     for s in solvers for p in ps if "error" in rows[s][p.name][2] and not p.parse_error]
    out["parse_failures"] = {p.name: p.parse_error for p in ps if p.parse_error}
    if "portfolio" in rows:
        won: dict[str, int] = {}
        for _, _, note in rows["portfolio"].values():
            for prover in (note.get("answered_by") or {}).values():
                won[prover] = won.get(prover, 0) + 1
        out["portfolio_parts_answered_by"] = won
        out["late_disagreements"] = list(portfolio.LATE_DISAGREEMENTS)
    out["targets"] = targets(out)
    return out


def targets(out: dict) -> dict:
    """The issue's targets next to the measured figures, scaled to this set's sizes."""
    res: dict = {}
    for solver, goals in TARGETS.items():
        if solver not in out["solvers"]:
            continue
        for set_name, goal in goals.items():
            if set_name == "hard_added":
                if "hard" not in out["sets"]:
                    continue
                unsolved = set(out["sets"]["hard"][solver]["unsolved"])
                n = len(ADDED_HARD)
                measured = sum(name not in unsolved for name in ADDED_HARD)
                need = math.ceil(goal[0] / goal[1] * n)
                res[f"{solver}_hard_added"] = {"target": f">= {goal[0]}/{goal[1]} (here >= {need}/{n})",
                                               "measured": f"{measured}/{n}", "met": measured >= need}
                continue
            if set_name == "wrong":
                measured = sum(out["sets"][s][solver]["wrong"] for s in out["sets"])
                res[f"{solver}_wrong"] = {"target": 0, "measured": measured, "met": measured == 0}
                continue
            if set_name not in out["sets"]:
                continue
            n = out["problems"][set_name]
            need = math.ceil(goal[0] / goal[1] * n)
            measured = out["sets"][set_name][solver]["solved"]
            res[f"{solver}_{set_name}"] = {"target": f">= {goal[0]}/{goal[1]} (here >= {need}/{n})",
                                           "measured": f"{measured}/{n}", "met": measured >= need}
    return res


__all__ = ["ADDED_HARD", "Problem", "classic_section", "problems", "read_problem"]
