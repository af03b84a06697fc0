"""Z3 as the independent solver the tests hold ambit's Prolog verdicts against, through the one
Z3 translation of full first-order formulas (`ambit.logic.provers.z3_prover`, which the portfolio
runs as a member; `check` is its bare form). Import it after `pytest.importorskip("z3")`."""

from __future__ import annotations

from typing import Sequence

from ambit.logic.provers.z3_prover import check
from ambit.logic.syntax.ast import Formula, Iff, Not

STORY = {("unsat", "sat"): "TRUE", ("sat", "unsat"): "FALSE", ("sat", "sat"): "UNCERTAIN",
         ("unsat", "unsat"): "INCONSISTENT"}


def z3_check(formulas: Sequence[Formula], timeout_ms: int) -> str:
    """Z3's answer for the conjunction of `formulas`: "sat", "unsat" or "unknown"."""
    return check(formulas, timeout_ms)


def z3_story(premises: Sequence[Formula], conclusion: Formula, timeout_ms: int) -> str | None:
    """Z3's story verdict (TRUE / FALSE / UNCERTAIN / INCONSISTENT), None when it gave up."""
    neg = z3_check([*premises, Not(conclusion)], timeout_ms)
    pos = z3_check([*premises, conclusion], timeout_ms)
    return STORY.get((neg, pos))


def z3_equivalent(a: Formula, b: Formula, timeout_ms: int = 60_000) -> bool:
    """Whether Z3 proves `a` ↔ `b` valid (its negation unsatisfiable) within `timeout_ms`."""
    return z3_check([Not(Iff(a, b))], timeout_ms) == "unsat"
