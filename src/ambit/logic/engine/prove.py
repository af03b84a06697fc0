"""Full first-order logic decisions: `decide` (story level), `entails` and `equivalent`.

SWI-Prolog (`prolog/prove.pl`) proves and searches for models under a budget; every model is
checked here by `holds`. A spent budget gives UNKNOWN, never a guess.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Iterable, Sequence

from ambit.logic.syntax.dialect import FOLIO
from ambit.logic.syntax.ast import Formula, constants, free_vars
from ambit.logic.syntax.parse import parse
from ambit.logic.engine import propositional
from ambit.logic.runtime import pool
from ambit.logic.runtime.worker import PrologError, worker
from ambit.logic.syntax.render import prolog_term
from ambit.logic.engine.verdict import DECISIONS, Decision, Verdict, worst
from ambit.logic.engine.model_check import checked_model, holds  # noqa: F401  (the one model checker, re-exported)

# the one budget's defaults (engine/budget.py), re-exported: the CLIs and the portfolio read them here
from ambit.logic.engine.budget import DEFAULT_INFERENCES, DEFAULT_MAX_DOMAIN, DEFAULT_TIME_LIMIT, Budget, backstop  # noqa: E402,F401
CHUNK = 64  # items per Prolog round trip
PROGRAM = "prove.pl"

LF = str | Formula


def formula(x: LF, fmt: str) -> Formula:
    """The AST of a formula given as text in `fmt`, or as a closed AST."""
    if isinstance(x, str):
        return parse(x, fmt)
    if free := free_vars(x):
        raise ValueError(f"a formula must be closed; free variable(s): {', '.join(sorted(free))}")
    return x


def to_term(f: Formula) -> str:
    """`f` as the Prolog term prove.pl reads (quantifier variables as `v(N)`)."""
    return prolog_term(f, "numbered", sep=",")


def _used(proof: list[dict]) -> list[int]:
    return sorted({s["from"] for s in proof if isinstance(s.get("from"), int)})


# the full proof stage's inferences, as a multiple of `inferences` (prove.pl's proof_factor/1)
PROOF_FACTOR = 25
# the full model search's, where it decides (a finite bound is known: prove.pl's decision_factor/1)
DECISION_FACTOR = 5
# the inferences one item may spend, in units of `inferences`: two checks of two short stages,
# the full model search (PROOF_FACTOR where herbrand.pl grounds it) and the full proof search
STAGES_PER_ITEM = 2 * (2 / 20 + max(DECISION_FACTOR, PROOF_FACTOR) + PROOF_FACTOR)


def _run(items: list[str], inferences: int, max_domain: int, time_limit: float) -> list[dict]:
    """prove.pl's answers for items `equiv(A,B)` / `decide(Ps,G)`, CHUNK items a goal."""
    out: list[dict] = []
    futures = []
    w = worker()
    w.consult(PROGRAM)
    for i in range(0, len(items), CHUNK):
        chunk = items[i:i + CHUNK]
        goal = f"prove:batch_json([{','.join(chunk)}],{Budget(time_limit, inferences, max_domain).prolog()},Out)"
        spend = int(len(chunk) * STAGES_PER_ITEM * inferences) + 1_000_000
        futures.append((len(chunk), w.submit_json_quiet(goal, time_limit=backstop(len(chunk), time_limit),
                                                        inferences=spend)))
    for n, fut in futures:
        try:
            out.extend(fut.result())
        except PrologError as e:
            if e.reason not in _SPENT:
                raise
            out.extend([{"unknown": _SPENT[e.reason]}] * n)  # the round trip as a whole ran out
    return out


# PrologError's reasons for a spent budget, in the reasons' vocabulary (logic/engine/verdict.py)
_SPENT = {"time_limit": "time_limit", "inference_limit": "inference_limit", "memory": "memory_limit"}


def decide_batch(
    stories: Iterable[tuple[Sequence[LF], LF]],
    fmt: str = FOLIO,
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> list[Decision]:
    """`decide` for many stories, in order (`workers` > 1: chunks on processes, runtime/pool.py)."""
    return [d for d, _ in decide_batch_timed(stories, fmt, inferences=inferences, max_domain=max_domain,
                                             time_limit=time_limit, workers=workers)]


def decide_batch_timed(
    stories: Iterable[tuple[Sequence[LF], LF]],
    fmt: str = FOLIO,
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    closed: bool = False,
) -> list[tuple[Decision, float]]:
    """`decide_batch`, each decision with Prolog's seconds (`closed`: ASTs known closed)."""
    if workers > 1:
        return pool.map_chunks(decide_batch_timed, list(stories), workers, fmt=fmt, inferences=inferences,
                                      max_domain=max_domain, time_limit=time_limit)
    if closed:
        parsed = [(list(ps), c) for ps, c in stories]
    else:
        parsed = [([formula(p, fmt) for p in ps], formula(c, fmt)) for ps, c in stories]
    if len(parsed) == 1 and len(parsed[0][0]) > STASH_PART:  # one large story: sent in parts
        ps, c = parsed[0]
        d = _run_large(ps, c, inferences, max_domain, time_limit)
        return [(_decision(d, ps, c), _seconds(d, time_limit))]
    items = [f"decide([{','.join(to_term(p) for p in ps)}],{to_term(c)})" for ps, c in parsed]
    answers = _run(items, inferences, max_domain, time_limit)
    return [(_decision(d, ps, c), _seconds(d, time_limit)) for d, (ps, c) in zip(answers, parsed)]


# premises per part of a large story (_run_large): Prolog parses a part in tens of ms
STASH_PART = 2_000
_stash_keys = iter(range(1, 1 << 62))


def _run_large(premises: list[Formula], conclusion: Formula, inferences: int, max_domain: int,
               time_limit: float) -> dict:
    """A story too large for one goal: premises sent STASH_PART at a time, all in `time_limit`."""
    deadline = time.monotonic() + time_limit
    w = worker()
    w.consult(PROGRAM)
    key = f"s{next(_stash_keys)}"
    try:
        for i in range(0, len(premises), STASH_PART):
            left = deadline - time.monotonic()
            if left <= 0:
                return {"unknown": "time_limit", "seconds": time_limit}
            terms = ",".join(to_term(p) for p in premises[i:i + STASH_PART])
            try:
                w.query_json_quiet(f"prove:stash({key},[{terms}]),Out=true", time_limit=left)
            except PrologError as e:
                if e.reason not in _SPENT:
                    raise
                return {"unknown": _SPENT[e.reason], "seconds": time_limit}
        left = deadline - time.monotonic()
        if left <= 0:
            return {"unknown": "time_limit", "seconds": time_limit}
        return _run([f"decide(stash({key}),{to_term(conclusion)})"], inferences, max_domain, left)[0]
    finally:
        with contextlib.suppress(PrologError):
            w.query_json_quiet(f"prove:unstash({key}),Out=true", time_limit=5)


def _seconds(d: dict, time_limit: float) -> float:
    """The seconds an item took in Prolog (all of its time limit if its round trip was stopped)."""
    return float(d.get("seconds", time_limit))


def _decision(d: dict, ps: list[Formula], c: Formula) -> Decision:
    if why := d.get("unknown"):  # the item as a whole was stopped
        return Decision("UNKNOWN", reason=why)
    neg, pos = d["with_negated_conclusion"], d["with_conclusion"]
    entailed, refuted = _SETTLED.get(neg["status"]), _SETTLED.get(pos["status"])
    proof = neg if entailed else pos if refuted else None  # INCONSISTENT: the first part's proof
    return Decision(
        d["verdict"], _used(proof["proof"]) if proof else [], proof=proof["proof"] if proof else None,
        countermodel=checked_model(neg["model"], ps, [c]) if entailed is False else None,
        model=checked_model(pos["model"], [*ps, c], []) if refuted is False else None,
        reason=worst([s["reason"] for s in (neg, pos) if s["status"] == "unknown"]) if d["verdict"] == "UNKNOWN" else None,
        entailed=entailed, refuted=refuted)


def decide(premises: Sequence[LF], conclusion: LF, fmt: str = FOLIO, **budget: Any) -> Decision:
    """TRUE (premises ⊢ conclusion), FALSE (premises ⊢ ¬conclusion), UNCERTAIN (neither),
    INCONSISTENT (the premises have no model) or UNKNOWN (a budget ran out), with evidence."""
    return decide_batch([(premises, conclusion)], fmt, **budget)[0]


def equivalent_batch(
    pairs: Iterable[tuple[LF, LF]],
    fmt: str = FOLIO,
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> list[Verdict]:
    """Full first-order equivalence of many pairs, in order (`workers`: as in decide_batch)."""
    return [v for v, _ in equivalent_batch_timed(pairs, fmt, inferences=inferences, max_domain=max_domain,
                                                 time_limit=time_limit, workers=workers)]


def equivalent_batch_timed(
    pairs: Iterable[tuple[LF, LF]],
    fmt: str = FOLIO,
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> list[tuple[Verdict, float]]:
    """`equivalent_batch`, each verdict with the seconds Prolog spent on it (0 if settled here)."""
    if workers > 1:
        return pool.map_chunks(equivalent_batch_timed, list(pairs), workers, fmt=fmt, inferences=inferences,
                                      max_domain=max_domain, time_limit=time_limit)

    parsed = [(formula(a, fmt), formula(b, fmt)) for a, b in pairs]
    out: list = [None] * len(parsed)
    todo = []
    for i, (a, b) in enumerate(parsed):
        if a == b:
            out[i] = (Verdict("EQUIVALENT", True, True, {"method": "identical"}), 0.0)
        elif (v := _propositional(a, b)) is not None:
            out[i] = (v, 0.0)
        else:
            todo.append(i)
    answers = _run([f"equiv({to_term(parsed[i][0])},{to_term(parsed[i][1])})" for i in todo],
                   inferences, max_domain, time_limit)
    for i, d in zip(todo, answers):
        out[i] = (pair_verdict(d, *parsed[i]), _seconds(d, time_limit))
    return out


def _propositional(a: Formula, b: Formula) -> Verdict | None:
    """The truth table's verdict over the closed parts (propositional.py) if it settles."""
    t = propositional.table(a, b)
    if t is None:
        return None
    if t.a == t.b:
        return Verdict("EQUIVALENT", True, True, {"method": "propositional", "parts": len(t.parts)})
    if not t.ground:
        bodies = propositional.common_prefix_bodies(a, b)
        inner = propositional.table(*bodies) if bodies else None
        if inner is not None and inner.a == inner.b:
            return Verdict("EQUIVALENT", True, True, {"method": "propositional_under_quantifiers",
                                                      "parts": len(inner.parts)})
        return None
    ab, ba = t.entails(t.a, t.b), t.entails(t.b, t.a)
    names = constants(a) | constants(b)
    if not ab:
        return not_equivalent("a_entails_b", False, ba,
                              checked_model(t.model(t.first_row(t.a & ~t.b), names), [a], [b]))
    return not_equivalent("b_entails_a", True, False,
                          checked_model(t.model(t.first_row(t.b & ~t.a), names), [b], [a]))


_SETTLED = {"unsat": True, "sat": False}  # a direction's status -> whether it is entailed


def not_equivalent(direction: str, ab: bool | None, ba: bool | None, model: dict | None) -> Verdict:
    """NOT_EQUIVALENT, `direction` failing in `model` (None: refuted without a model)."""
    true_in, false_in = ("a", "b") if direction == "a_entails_b" else ("b", "a")
    return Verdict("NOT_EQUIVALENT", ab, ba, {"direction": direction, "true_in_model": true_in,
                                              "false_in_model": false_in, "model": model})


def pair_verdict(d: dict, a: Formula, b: Formula, extensions: bool = False) -> Verdict:
    """A pair's verdict from prove.pl's two directions (`extensions`: see `checked_model`)."""
    if why := d.get("unknown"):
        return Verdict("UNKNOWN", None, None, {"reason": why})
    s1, s2 = d["a_not_b"], d["b_not_a"]
    ab, ba = (_SETTLED.get(s["status"] if s is not None else None) for s in (s1, s2))
    if ab is False:
        model = checked_model(s1["model"], [a], [b], extensions)
        return not_equivalent("a_entails_b", False, ba, model)
    if ba is False:
        model = checked_model(s2["model"], [b], [a], extensions)
        return not_equivalent("b_entails_a", ab, False, model)
    if ab and ba:
        return Verdict("EQUIVALENT", True, True, {"method": "connection_proof",
                                                  "proof_a_entails_b": s1["proof"], "proof_b_entails_a": s2["proof"]})
    return Verdict("UNKNOWN", ab, ba, {"reason": worst([s["reason"] for s in (s1, s2)
                                                       if s is not None and s["status"] == "unknown"])})


def entails(premises: Sequence[LF], conclusion: LF, fmt: str = FOLIO, **budget: Any) -> bool | None:
    """Whether the premises entail the conclusion (inconsistent ones entail all); None: unknown."""
    return decide(premises, conclusion, fmt, **budget).entailed


__all__ = ["DECISION_FACTOR", "Decision", "DECISIONS", "PROOF_FACTOR", "decide", "decide_batch", "decide_batch_timed", "entails",
           "equivalent_batch", "equivalent_batch_timed", "checked_model", "holds", "pair_verdict", "to_term"]
