"""A single large story's first stage (``logic.provers.portfolio``), linear in its size."""

from __future__ import annotations

import dataclasses
import threading
import time

from ambit.logic.engine import prove
from ambit.logic.engine.model_check import checked_model
from ambit.logic.provers.portfolio_members import _check_stopped, _Stopped, _story_parts, proof_from
from ambit.logic.provers.portfolio_question import Answer, Budget, Question
from ambit.logic.syntax.ast import (And, Atom, Eq, Formula, Iff, Implies, Not, Or, Quant, Xor, constants, functions,
                                    predicates)

# the most premises a large story's first stage proves from, and its seconds for that proof
RELEVANT_MAX = prove.STASH_PART
RELEVANT_S = 0.5


def first_stage(q: Question, budget: Budget) -> dict[str, Answer]:
    """The parts a large story's first stage settles: proofs from related premises, else models."""
    budget = dataclasses.replace(budget, deadline=time.monotonic() + budget.time_limit)
    premises, conclusion = q.premises, q.conclusion
    names = constants(conclusion) | {f for f, _ in functions(conclusion)}
    known: dict[str, Answer] = {}
    never = threading.Event()  # the stage ends by its deadline alone
    try:
        used = []
        for i, p in enumerate(premises):
            if i % 1_000 == 0:
                _check_stopped(never, budget)
            own = constants(p) | {f for f, _ in functions(p)}
            if not own or names & own:
                used.append(i)
        if used and len(used) <= RELEVANT_MAX:
            d = prove.decide_batch_timed([([premises[i] for i in used], conclusion)], closed=True,
                                         time_limit=min(RELEVANT_S, budget.left()), inferences=budget.inferences,
                                         max_domain=budget.max_domain)[0][0]
            for part, status, _ in _story_parts(d):
                if status == "unsat":
                    known[part] = Answer(part, "prolog", "unsat", proof_from(d, used))
        for part in q.parts:
            if part.name not in known:
                model = uniform_model(part.formulas, never, budget)
                if model is not None:
                    known[part.name] = Answer(part.name, "uniform", "sat", {"model": model})
    except _Stopped:
        pass
    return known


def uniform_model(formulas: list[Formula], stopped: threading.Event, budget: Budget) -> dict | None:
    """A checked one-element model of `formulas` with every atom alike, or None (linear time)."""
    for value in (True, False):
        for i, f in enumerate(formulas):
            if i % 1_000 == 0:
                _check_stopped(stopped, budget)
            if not _uniform(f, value):
                break
        else:
            out: dict = {"domain": ["d1"], "constants": {}, "true_atoms": []}
            for start in range(0, len(formulas), prove.STASH_PART):  # each part checked in the model as
                _check_stopped(stopped, budget)                      # far as its own symbols go
                part = formulas[start:start + prove.STASH_PART]
                preds = set().union(*map(predicates, part)) if value else set()
                model = {"domain": ["d1"], "constants": {}, "atoms": {(p, *["d1"] * n) for p, n in preds},
                         "functions": {f: {("d1",) * n: "d1"} for f, n in set().union(*map(functions, part))}}
                m = checked_model(model, part)
                out["constants"].update(m["constants"])
                out["true_atoms"] += m["true_atoms"]
                out.setdefault("functions", {}).update(m.get("functions", {}))
            out["true_atoms"] = sorted(set(out["true_atoms"]))
            if not out["functions"]:
                del out["functions"]
            return out
    return None


def _uniform(f: Formula, value: bool) -> bool:
    """Whether `f` holds in the one-element model where every atom is `value`."""
    t = type(f)
    if t is Atom:
        return value
    if t is Eq:
        return True
    if t is Not:
        return not _uniform(f.body, value)
    if t is And:
        return all(_uniform(c, value) for c in f.children)
    if t is Or:
        return any(_uniform(c, value) for c in f.children)
    if t is Quant:
        return _uniform(f.body, value)
    left, right = _uniform(f.left, value), _uniform(f.right, value)
    if t is Implies:
        return not left or right
    if t is Iff:
        return left == right
    if t is Xor:
        return left != right
    raise TypeError(f"not a formula: {f!r}")


__all__ = ["RELEVANT_MAX", "RELEVANT_S", "first_stage", "uniform_model"]
