"""A portfolio of provers: ambit's Prolog prover (fol.py), E (eprover.py) and Z3 (z3_prover.py)
on the same question, side by side, under the same budget.

A question is cut into parts, each a set of formulas whose satisfiability is asked: a story into
premises ∧ ¬conclusion (`with_negated_conclusion`) and premises ∧ conclusion (`with_conclusion`),
an equivalence into a ∧ ¬b (`a_not_b`) and b ∧ ¬a (`b_not_a`). Every prover works on every part;
the first definite answer for a part settles it, and once every part is settled the others are
stopped (E and Z3 killed: each runs in a process; Prolog's call interrupted). A race
made inside a cancel scope (logic/prolog_worker.py: a server call) ends as soon as the scope is
cancelled, its provers stopped, and raises the scope's "cancelled" error. A second definite answer
that contradicts the first is an error (`ProverDisagreement`), raised, never dropped; one that
arrives after the answer was returned is logged and kept in `LATE_DISAGREEMENTS`.

Evidence says which prover settled each part (`answered_by`); a proof by E is kept as its TSTP
derivation (`tstp`), a proof by Prolog as Prolog's replayed proof, and a model from Z3 counts only
after ambit's own model checker (`fol.holds`) has checked it. `prover="prolog"` is fol.py alone;
the default is the portfolio when `eprover` is installed, else Prolog alone.

The questions and answers are in `portfolio_question.py`, the provers' wrappers (the members) in
`portfolio_members.py`; this module holds the race, the verdicts and the entry points, and every
name of `__all__` is importable from here.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from . import eprover, fol
from .prolog_worker import cancelled_error, current_scope
from .portfolio_members import (
    EMember, Member, ModelCheckFailed, PrologMember, Z3Member, _story_parts, checked_model, members,
)
from .portfolio_question import EQUIV_PARTS, STORY_PARTS, Answer, Budget, Part, Question, pair, story  # noqa: F401
from .verdict import REASONS, worst

PROVERS = ("prolog", "portfolio")
LATE_DISAGREEMENTS: list[dict] = []
log = logging.getLogger(__name__)


class ProverDisagreement(RuntimeError):
    """Two provers gave contradicting definite answers for the same part of a question."""

    def __init__(self, part: str, first: "Answer", second: "Answer") -> None:
        super().__init__(f"provers disagree on {part}: {first.prover} says {first.status}, "
                         f"{second.prover} says {second.status}")
        self.part, self.first, self.second = part, first, second


def default_prover() -> str:
    """`portfolio` when E is installed, else `prolog`."""
    return "portfolio" if eprover.available() else "prolog"


# --------------------------------------------------------------------------- the race


class _Race:
    """Answers of one question as they arrive: the first definite one per part wins."""

    def __init__(self, q: Question) -> None:
        self.q = q
        self.events: queue.Queue = queue.Queue()
        self.settled: dict[str, Answer] = {}
        self.reasons: dict[str, dict[str, str]] = {}
        self.closed = False
        self.lock = threading.Lock()

    def post(self, a: Answer) -> None:
        with self.lock:
            if self.closed:
                first = self.settled.get(a.part)
                if first is not None and first.status != a.status:
                    record = {"part": a.part, "first": (first.prover, first.status), "late": (a.prover, a.status)}
                    LATE_DISAGREEMENTS.append(record)
                    log.error("portfolio: late disagreement %s", record)
                return
        self.events.put(("answer", a))

    def done(self, name: str, reasons: dict[str, str]) -> None:
        self.events.put(("done", (name, reasons)))


def race(q: Question, budget: Budget, provers: Sequence[Member] | None = None,
         wait_for_all: bool = False) -> tuple[dict[str, Answer], dict[str, dict[str, str]], bool]:
    """Every prover on every part of `q`: the first definite answer per part, for each prover
    why it gave none where it gave none, and whether the time limit ended the race. Returns once
    every part is settled (or, with `wait_for_all`, once every prover has finished), or at the
    time limit. ProverDisagreement when two definite answers for a part contradict each other."""
    provers = list(provers) if provers is not None else members()
    if budget.time_limit <= 0:  # nothing left to spend (a batch's second stage): no prover is started
        return {}, {m.name: {p.name: "time_limit" for p in q.parts} for m in provers}, True
    r = _Race(q)
    deadline = time.monotonic() + budget.time_limit
    budget = dataclasses.replace(budget, deadline=deadline)  # every member stops by the same deadline
    scope = current_scope()
    unhook = scope.on_cancel(lambda: r.events.put(("cancelled", None))) if scope is not None else (lambda: None)
    stops = [m.start(q, budget, r.post, r.done) for m in provers]
    running = {m.name for m in provers}
    timed_out = False
    try:
        while running:
            if not wait_for_all and len(r.settled) == len(q.parts):
                break
            try:
                kind, x = r.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                timed_out = True
                for name in running:
                    r.reasons.setdefault(name, {p.name: "time_limit" for p in q.parts})
                break
            if kind == "cancelled":
                raise cancelled_error()
            if kind == "done":
                running.discard(x[0])
                r.reasons[x[0]] = x[1]
                continue
            first = r.settled.setdefault(x.part, x)
            if first.status != x.status:
                raise ProverDisagreement(x.part, first, x)
    finally:
        unhook()
        with r.lock:
            r.closed = True
        for stop in stops:
            try:
                stop()
            except Exception:  # noqa: BLE001 - a prover that fails to stop must not lose the answer
                log.exception("portfolio: stopping a prover failed")
    return r.settled, r.reasons, timed_out


# --------------------------------------------------------------------------- answers in fol's schema


@dataclass(frozen=True)
class PortfolioDecision(fol.Decision):
    """fol's Decision, plus which prover settled each part (`answered_by`), E's derivations
    (`tstp`, by part) and, when UNKNOWN, each prover's reason (`reasons`)."""

    answered_by: dict | None = None
    tstp: dict | None = None
    reasons: dict | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for k in ("answered_by", "tstp", "reasons"):
            if (v := getattr(self, k)) is not None:
                out[k] = v
        return out


_STORY = {("unsat", "sat"): "TRUE", ("sat", "unsat"): "FALSE", ("sat", "sat"): "UNCERTAIN",
          ("unsat", "unsat"): "INCONSISTENT"}


def _unknown_reason(reasons: dict, missing: Sequence[str], timed_out: bool) -> str:
    """The one reason (logic/verdict.py's REASONS) of a portfolio UNKNOWN: `time_limit` when the
    shared budget's clock ran out, else the worst reason ambit's own prover gave for an unsettled
    part (E and Z3 speak their own words: they stay in `reasons`), else `time_limit` (every other
    prover stopped or gave up before the clock did, so the clock is what was left to spend)."""
    if timed_out:
        return "time_limit"
    own = [r for p, r in (reasons.get("prolog") or {}).items() if p in missing and r in REASONS]
    return worst(own) if own else "time_limit"


def _story_decision(settled: dict[str, Answer], reasons: dict, timed_out: bool) -> PortfolioDecision:
    neg, pos = settled.get(STORY_PARTS[0]), settled.get(STORY_PARTS[1])
    answered_by = {p: a.prover for p, a in settled.items()}
    tstp = {p: a.evidence["tstp"] for p, a in settled.items() if "tstp" in a.evidence} or None
    entailed = None if neg is None else neg.status == "unsat"
    refuted = None if pos is None else pos.status == "unsat"
    proof_part = neg if entailed else pos if refuted else None
    evidence = dict(
        premises_used=list(proof_part.evidence.get("premises_used", [])) if proof_part else [],
        proof=proof_part.evidence.get("proof") if proof_part else None,
        countermodel=neg.evidence.get("model") if entailed is False else None,
        model=pos.evidence.get("model") if refuted is False else None,
        entailed=entailed, refuted=refuted, answered_by=answered_by or None, tstp=tstp)
    if neg is None or pos is None:
        missing = [p for p in STORY_PARTS if p not in settled]
        return PortfolioDecision("UNKNOWN", reason=_unknown_reason(reasons, missing, timed_out), reasons=reasons,
                                 **evidence)
    return PortfolioDecision(_STORY[(neg.status, pos.status)], **evidence)


def _equiv_verdict(settled: dict[str, Answer], reasons: dict, timed_out: bool):
    from .equivalence import Verdict

    ab, ba = settled.get(EQUIV_PARTS[0]), settled.get(EQUIV_PARTS[1])
    answered_by = {p: a.prover for p, a in settled.items()}
    tstp = {p: a.evidence["tstp"] for p, a in settled.items() if "tstp" in a.evidence}
    entails = lambda a: None if a is None else a.status == "unsat"  # noqa: E731
    for a, direction, true_in, false_in in ((ab, "a_entails_b", "a", "b"), (ba, "b_entails_a", "b", "a")):
        if a is not None and a.status == "sat":
            w = {"direction": direction, "true_in_model": true_in, "false_in_model": false_in,
                 "answered_by": answered_by}
            if "model" in a.evidence:
                w["model"] = a.evidence["model"]
            else:
                w["saturation"] = a.evidence.get("saturation")
            return Verdict("NOT_EQUIVALENT", entails(ab), entails(ba), w)
    if ab is not None and ba is not None:
        w: dict[str, Any] = {"method": "portfolio", "answered_by": answered_by}
        for a, key in ((ab, "proof_a_entails_b"), (ba, "proof_b_entails_a")):
            if "proof" in a.evidence:
                w[key] = a.evidence["proof"]
        if tstp:
            w["tstp"] = tstp
        return Verdict("EQUIVALENT", True, True, w)
    missing = [p for p in EQUIV_PARTS if p not in settled]
    return Verdict("UNKNOWN", entails(ab), entails(ba), {"reason": _unknown_reason(reasons, missing, timed_out),
                                                         "answered_by": answered_by, "reasons": reasons})


# --------------------------------------------------------------------------- entry points


def _check_prover(prover: str | None) -> str:
    prover = prover or default_prover()
    if prover not in PROVERS:
        raise ValueError(f"prover must be one of {', '.join(PROVERS)}, not {prover!r}")
    return prover


def _budget(opts: dict) -> Budget:
    unknown = set(opts) - {"time_limit", "inferences", "max_domain", "proof_object"}
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
    return Budget(**opts)


def decide(premises: Sequence[fol.LF], conclusion: fol.LF, fmt: str = "folio", *, prover: str | None = None,
           provers: Sequence[Member] | None = None, wait_for_all: bool = False, **opts: Any) -> fol.Decision:
    """fol.decide's verdict for a story, by Prolog alone (`prover="prolog"`) or by the portfolio
    (`"portfolio"`: every prover side by side on both parts); default: `default_prover()`.
    `provers` replaces the portfolio's members (tests inject stand-ins through it)."""
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        return fol.decide(premises, conclusion, fmt, **opts)
    q = story([fol.formula(p, fmt) for p in premises], fol.formula(conclusion, fmt))
    return _story_decision(*race(q, _budget(opts), provers, wait_for_all))


def _rest(budget: Budget, spent: float) -> Budget:
    """What is left of an item's budget after Prolog spent `spent` seconds on it alone (a batch's
    second stage): each item is kept to its one time limit in all."""
    return dataclasses.replace(budget, time_limit=max(0.0, budget.time_limit - spent))


def decide_batch(stories: Iterable[tuple[Sequence[fol.LF], fol.LF]], fmt: str = "folio", *,
                 prover: str | None = None, provers: Sequence[Member] | None = None,
                 wait_for_all: bool = False, workers: int = 1, **opts: Any) -> list[fol.Decision]:
    """`decide` for many stories, in order. The portfolio takes a batch in two stages, so that a
    batch keeps Prolog's speed: Prolog decides the whole batch first (fol.decide_batch, on
    `workers` processes), then E and Z3 race on each story it left UNKNOWN, for what is left of
    the story's time limit (`_rest`). With `provers` or `wait_for_all`, every story is raced by every prover instead."""
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        return fol.decide_batch(stories, fmt, workers=workers, **opts)
    budget = _budget(opts)
    parsed = [([fol.formula(p, fmt) for p in ps], fol.formula(c, fmt)) for ps, c in stories]
    if provers is not None or wait_for_all:
        return [_story_decision(*race(story(ps, c), budget, provers, wait_for_all)) for ps, c in parsed]
    first = fol.decide_batch_timed(parsed, workers=workers, time_limit=budget.time_limit,
                                   inferences=budget.inferences, max_domain=budget.max_domain)
    out: list[fol.Decision] = []
    for (d, spent), (ps, c) in zip(first, parsed):
        if d.verdict != "UNKNOWN":
            out.append(PortfolioDecision(**{f.name: getattr(d, f.name) for f in dataclasses.fields(fol.Decision)},
                                         answered_by={p: "prolog" for p in STORY_PARTS}))
            continue
        known = {part: Answer(part, "prolog", status, ev) for part, status, ev in _story_parts(d)}
        q = story(ps, c)
        q = dataclasses.replace(q, parts=tuple(p for p in q.parts if p.name not in known))  # the parts left open
        settled, reasons, timed_out = race(q, _rest(budget, spent), [m for m in members() if m.name != "prolog"])
        out.append(_story_decision({**known, **settled},
                                   {"prolog": {p.name: d.reason or "unknown" for p in q.parts}, **reasons}, timed_out))
    return out


def equivalent(a: fol.LF, b: fol.LF, fmt: str = "folio", *, prover: str | None = None,
               provers: Sequence[Member] | None = None, wait_for_all: bool = False, **opts: Any):
    """Full first-order equivalence (logic.equivalence.Verdict) by Prolog alone or by the
    portfolio, every prover side by side on both directions; see `decide`."""
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        return fol.equivalent_batch([(a, b)], fmt, **opts)[0]
    fa, fb = fol.formula(a, fmt), fol.formula(b, fmt)
    if fa == fb:
        from .equivalence import Verdict

        return Verdict("EQUIVALENT", True, True, {"method": "identical"})
    return _equiv_verdict(*race(pair(fa, fb), _budget(opts), provers, wait_for_all))


def equivalent_batch(pairs: Iterable[tuple[fol.LF, fol.LF]], fmt: str = "folio", *, prover: str | None = None,
                     provers: Sequence[Member] | None = None, wait_for_all: bool = False, workers: int = 1,
                     **opts: Any) -> list:
    """`equivalent` for many pairs, in order, in two stages as `decide_batch` does."""
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        return fol.equivalent_batch(pairs, fmt, workers=workers, **opts)
    budget = _budget(opts)
    parsed = [(fol.formula(a, fmt), fol.formula(b, fmt)) for a, b in pairs]
    if provers is not None or wait_for_all:
        return [equivalent(a, b, provers=provers, wait_for_all=wait_for_all, prover="portfolio", **opts)
                for a, b in parsed]
    first = fol.equivalent_batch_timed(parsed, workers=workers, time_limit=budget.time_limit,
                                       inferences=budget.inferences, max_domain=budget.max_domain)
    out = []
    for (v, spent), (a, b) in zip(first, parsed):
        if v.verdict != "UNKNOWN":
            out.append(dataclasses.replace(v, witness={**(v.witness or {}),
                                                       "answered_by": {p: "prolog" for p in EQUIV_PARTS}}))
            continue
        settled, reasons, timed_out = race(pair(a, b), _rest(budget, spent), [m for m in members() if m.name != "prolog"])
        out.append(_equiv_verdict(settled, {"prolog": {p: str(v.witness.get("reason")) for p in EQUIV_PARTS},
                                            **reasons}, timed_out))
    return out


__all__ = ["EQUIV_PARTS", "LATE_DISAGREEMENTS", "PROVERS", "STORY_PARTS", "Answer", "Budget", "EMember",
           "Member", "ModelCheckFailed", "PortfolioDecision", "PrologMember", "ProverDisagreement", "Question",
           "Z3Member", "checked_model", "decide", "decide_batch", "default_prover", "equivalent",
           "equivalent_batch", "members", "pair", "race", "story"]
