"""A portfolio of provers: Prolog (prove.py), E (eprover.py) and Z3 (z3_prover.py) racing on
each part of a question after one cheap Prolog stage; E's and Z3's proofs are re-proved
(`check`). Questions: `portfolio_question.py`; members: `portfolio_members.py`; `race.py`.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ambit.logic.syntax.canonical import canonical_string
from ambit.logic.syntax.dialect import FOL, FOLIO, dialect
from ambit.logic.provers import eprover, large_story
from ambit.logic.engine import equivalence, prove
from ambit.logic.engine.equivalence import _CANONICAL, _IDENTICAL, with_extensions
from ambit.logic.runtime.worker import PrologError
from ambit.logic.provers.portfolio_members import (
    EMember, Member, ModelCheckFailed, PrologMember, Z3Member, _story_parts, checked_model, members, reprove,
)
from ambit.logic.provers.portfolio_question import EQUIV_PARTS, STORY_PARTS, Answer, Budget, Part, Question, pair, story  # noqa: F401
from ambit.logic.provers.race import LATE_DISAGREEMENTS, ProverDisagreement, run
from ambit.logic.syntax.ast import Formula
from ambit.logic.engine.verdict import REASONS, Verdict, worst

PROVERS = ("prolog", "portfolio")
log = logging.getLogger(__name__)


def default_prover() -> str:
    """`portfolio` when E is installed, else `prolog`."""
    return "portfolio" if eprover.available() else "prolog"


def race(q: Question, budget: Budget, provers: Sequence[Member] | None = None,
         wait_for_all: bool = False) -> tuple[dict[str, Answer], dict[str, dict[str, str]], bool]:
    """race.py's `run` of `provers` (default: `members()`) on `q`, its answers then `check`ed."""
    return run(q, budget, list(provers) if provers is not None else members(), wait_for_all, check)


# a re-proof's least seconds (more would keep a server call past its deadline)
CHECK_MIN_S = 0.1


def check(q: Question, settled: dict[str, Answer], budget: Budget) -> None:
    """Re-prove (`reprove`) every unchecked "unsat" that names its axioms, after the race."""
    parts = {p.name: p for p in q.parts}
    for name, a in list(settled.items()):
        if a.checked or a.status != "unsat" or "premises_used" not in a.evidence or name not in parts:
            continue
        try:  # Budget.left()'s floor is below CHECK_MIN_S
            ev = reprove(parts[name], a.evidence["premises_used"], budget,
                         max(budget.left(), CHECK_MIN_S))
        except PrologError as e:  # a budget or a stack ran out: the answer stays unchecked
            if e.reason in ("cancelled", "error"):
                raise
            log.info("portfolio: re-proving %s's answer for %s failed: %s", a.prover, name, e)
            ev = None
        if ev is not None:
            settled[name] = dataclasses.replace(a, checked=True, evidence={**a.evidence, **ev, "checked_by": "prolog"})


@dataclass(frozen=True)
class PortfolioDecision(prove.Decision):
    """prove's Decision, plus who settled each part, E's proofs, reasons and unchecked parts."""

    answered_by: dict | None = None
    tstp: dict | None = None
    reasons: dict | None = None
    unchecked: dict | None = None


_STORY = {("unsat", "sat"): "TRUE", ("sat", "unsat"): "FALSE", ("sat", "sat"): "UNCERTAIN",
          ("unsat", "unsat"): "INCONSISTENT"}


def _unknown_reason(reasons: dict, missing: Sequence[str], timed_out: bool) -> str:
    """A portfolio UNKNOWN's reason: the worst of ambit's own prover, else `time_limit`."""
    if timed_out:
        return "time_limit"
    own = [r for p, r in (reasons.get("prolog") or {}).items() if p in missing and r in REASONS]
    return worst(own) if own else "time_limit"


def _proof(a: Answer) -> list | None:
    """A part's proof as steps: ambit's replayed proof, else E's derivation (`eprover.steps`)."""
    return a.evidence.get("proof") or a.evidence.get("derivation")


def _unchecked(settled: dict[str, Answer]) -> dict[str, str] | None:
    return {p: a.prover for p, a in settled.items() if not a.checked} or None


def _story_decision(settled: dict[str, Answer], reasons: dict, timed_out: bool) -> PortfolioDecision:
    neg, pos = settled.get(STORY_PARTS[0]), settled.get(STORY_PARTS[1])
    answered_by = {p: a.prover for p, a in settled.items()}
    tstp = {p: a.evidence["tstp"] for p, a in settled.items() if "tstp" in a.evidence} or None
    entailed = None if neg is None else neg.status == "unsat"
    refuted = None if pos is None else pos.status == "unsat"
    proof_part = neg if entailed else pos if refuted else None
    unchecked = _unchecked(settled)
    evidence = dict(
        premises_used=list(proof_part.evidence.get("premises_used", [])) if proof_part else [],
        proof=_proof(proof_part) if proof_part else None,
        countermodel=neg.evidence.get("model") if entailed is False else None,
        model=pos.evidence.get("model") if refuted is False else None,
        entailed=entailed, refuted=refuted, answered_by=answered_by or None, tstp=tstp,
        checked=(unchecked is None) if settled else None, unchecked=unchecked)
    if neg is None or pos is None:
        missing = [p for p in STORY_PARTS if p not in settled]
        return PortfolioDecision("UNKNOWN", reason=_unknown_reason(reasons, missing, timed_out), reasons=reasons,
                                 **evidence)
    return PortfolioDecision(_STORY[(neg.status, pos.status)], **evidence)


def _equiv_verdict(settled: dict[str, Answer], reasons: dict, timed_out: bool, amp: str | None = None):
    ab, ba = settled.get(EQUIV_PARTS[0]), settled.get(EQUIV_PARTS[1])
    answered_by = {p: a.prover for p, a in settled.items()}
    tstp = {p: a.evidence["tstp"] for p, a in settled.items() if "tstp" in a.evidence}
    unchecked = _unchecked(settled)
    checks = {"checked": unchecked is None, **({"unchecked": unchecked} if unchecked else {})}
    entails = lambda a: None if a is None else a.status == "unsat"  # noqa: E731
    for a, direction, true_in, false_in in ((ab, "a_entails_b", "a", "b"), (ba, "b_entails_a", "b", "a")):
        if a is not None and a.status == "sat":
            w = {"direction": direction, "true_in_model": true_in, "false_in_model": false_in,
                 "answered_by": answered_by, "checked": a.checked, **({"unchecked": {a.part: a.prover}}
                                                                      if not a.checked else {})}
            if "model" in a.evidence:
                w["model"] = with_extensions(a.evidence["model"]) if amp else a.evidence["model"]
            else:
                w["saturation"] = a.evidence.get("saturation")
            return Verdict("NOT_EQUIVALENT", entails(ab), entails(ba), w)
    if ab is not None and ba is not None:
        w: dict[str, Any] = {"method": "portfolio", "answered_by": answered_by, **checks}
        for a, key in ((ab, "proof_a_entails_b"), (ba, "proof_b_entails_a")):
            if (proof := _proof(a)) is not None:
                w[key] = proof
            elif "method" in a.evidence:
                w[key.replace("proof", "method")] = a.evidence["method"]
        if tstp:
            w["tstp"] = tstp
        return Verdict("EQUIVALENT", True, True, w)
    missing = [p for p in EQUIV_PARTS if p not in settled]
    return Verdict("UNKNOWN", entails(ab), entails(ba), {"reason": _unknown_reason(reasons, missing, timed_out),
                                                         "answered_by": answered_by, "reasons": reasons})


# A batch's sequential first stage: Prolog alone, seconds per item (most take a few ms).
FIRST_STAGE_S = 0.05


def _check_prover(prover: str | None) -> str:
    prover = prover or default_prover()
    if prover not in PROVERS:
        raise ValueError(f"prover must be one of {', '.join(PROVERS)}, not {prover!r}")
    return prover


def decide(premises: Sequence[prove.LF], conclusion: prove.LF, fmt: str = FOLIO, *, prover: str | None = None,
           provers: Sequence[Member] | None = None, wait_for_all: bool = False, **opts: Any) -> prove.Decision:
    """prove.decide's verdict for a story, by `prover` (default: `default_prover()`)."""
    return decide_batch([(premises, conclusion)], fmt, prover=prover, provers=provers, wait_for_all=wait_for_all,
                        **opts)[0]


def _left(budget: Budget, spent: float) -> Budget:
    """What is left of an item's time limit after the first stage spent `spent` seconds on it."""
    return dataclasses.replace(budget, time_limit=max(0.0, budget.time_limit - spent))


def decide_batch(stories: Iterable[tuple[Sequence[prove.LF], prove.LF]], fmt: str = FOLIO, *,
                 prover: str | None = None, provers: Sequence[Member] | None = None,
                 wait_for_all: bool = False, workers: int = 1, **opts: Any) -> list[prove.Decision]:
    """`decide` for many stories: a cheap first stage, then a race on each story it left open."""
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        return prove.decide_batch(stories, fmt, workers=workers, **opts)
    budget = Budget.of(**opts)
    t0 = time.monotonic()
    parsed = [([prove.formula(p, fmt) for p in ps], prove.formula(c, fmt)) for ps, c in stories]
    if provers is not None or wait_for_all:
        return [_story_decision(*race(story(ps, c), budget, provers, wait_for_all)) for ps, c in parsed]
    large = len(parsed) == 1 and len(parsed[0][0]) > prove.STASH_PART
    if large:
        # one large story: large_story's first stage (sending it to Prolog outlasts FIRST_STAGE_S)
        first = [(prove.Decision("UNKNOWN", reason="time_limit"), time.monotonic() - t0)]
    else:
        first = prove.decide_batch_timed(parsed, workers=workers, time_limit=min(FIRST_STAGE_S, budget.time_limit),
                                         inferences=budget.inferences, max_domain=budget.max_domain, closed=True)
        if len(parsed) == 1:  # one story: what the first stage took by the clock, writing and reading included
            first = [(d, max(spent, time.monotonic() - t0)) for d, spent in first]
    out: list[prove.Decision] = []
    for (d, spent), (ps, c) in zip(first, parsed):
        if d.verdict != "UNKNOWN":
            out.append(PortfolioDecision(**{**{f.name: getattr(d, f.name) for f in dataclasses.fields(prove.Decision)},
                                            "checked": True}, answered_by={p: "prolog" for p in STORY_PARTS}))
            continue
        q = story(ps, c)
        known = (large_story.first_stage(q, _left(budget, spent)) if large else
                 {part: Answer(part, "prolog", status, ev) for part, status, ev in _story_parts(d)})
        q = dataclasses.replace(q, parts=tuple(p for p in q.parts if p.name not in known))  # the parts left open
        spent = time.monotonic() - t0 if large else spent
        if not q.parts or spent >= budget.time_limit:  # none open, or a large story spent it all
            settled, reasons, timed_out = {}, {}, bool(q.parts)
        else:
            settled, reasons, timed_out = race(q, _left(budget, spent))
        out.append(_story_decision({**known, **settled}, reasons, timed_out))
    return out


def equivalent(a: prove.LF, b: prove.LF, fmt: str = FOLIO, *, prover: str | None = None,
               provers: Sequence[Member] | None = None, wait_for_all: bool = False, **opts: Any):
    """Equivalence (logic.engine.verdict.Verdict) of two formulas of any dialect; see `decide`."""
    return equivalent_batch([(a, b)], fmt, prover=prover, provers=provers, wait_for_all=wait_for_all, **opts)[0]


# E's processed clauses for a pair the engine left open: steps, not time, so a busy machine gives
# the same verdicts. On the 2,000 tail pairs E decides all it decides within 1,000 (~10 ms each).
E_STEPS = 1_000


def settle_by_e(a: Formula, b: Formula, budget: Budget):
    """The verdict by E (E_STEPS steps a direction, b ⊢ a only after a ⊢ b) of an AmP pair the
    engine left open within its inferences, marked unchecked; None when E settles neither."""
    settled: dict[str, Answer] = {}
    for part, (x, y) in zip(EQUIV_PARTS, ((a, b), (b, a))):
        r = eprover.prove([x], y, budget.time_limit, proof_object=False, steps=E_STEPS)
        if r.proved is None:
            return None
        status = "unsat" if r.proved else "sat"
        settled[part] = Answer(part, EMember.name, status, {"saturation": r.status} if status == "sat" else
                               {"method": "eprover"}, checked=False)
        if status == "sat":
            break
    return _equiv_verdict(settled, {}, False, FOL)


def _same(a: Formula, b: Formula, amp: bool):
    """The cheap shortcut before any prover: identical formulas, or (AmP) equal canonical forms."""
    if a == b:
        return _IDENTICAL
    if amp and canonical_string(a, FOL, "v") == canonical_string(b, FOL, "v"):
        return _CANONICAL
    return None


def equivalent_batch(pairs: Iterable[tuple[prove.LF, prove.LF]], fmt: str = FOLIO, *, prover: str | None = None,
                     provers: Sequence[Member] | None = None, wait_for_all: bool = False, workers: int = 1,
                     **opts: Any) -> list:
    """`equivalent` for many pairs, in two stages as `decide_batch` (AmP's: equivalence.py)."""
    amp = dialect(fmt).amp  # AmP's formats (`fol`, `lisp`): Prolog's stage is AmP's procedure
    if _check_prover(prover) == "prolog" and provers is None:
        opts.pop("proof_object", None)
        if amp:
            settle = settle_by_e if eprover.available() else None
            return equivalence.equivalent_batch(pairs, fmt, workers=workers, settle=settle, **opts)
        return prove.equivalent_batch(pairs, fmt, workers=workers, **opts)
    budget = Budget.of(**opts)
    parsed = [(prove.formula(a, fmt), prove.formula(b, fmt)) for a, b in pairs]
    amp_fmt = fmt if amp else None
    if provers is not None or wait_for_all:
        return [_same(a, b, amp) or _equiv_verdict(*race(pair(a, b, amp_fmt), budget, provers, wait_for_all), amp_fmt)
                for a, b in parsed]
    t1 = min(FIRST_STAGE_S, budget.time_limit)
    if amp:
        t0 = time.perf_counter()
        firsts = equivalence.equivalent_batch(parsed, fmt, time_limit=t1, inferences=budget.inferences,
                                              workers=workers)
        first = [(v, min(t1, time.perf_counter() - t0)) for v in firsts]
    else:
        first = prove.equivalent_batch_timed(parsed, workers=workers, time_limit=t1, inferences=budget.inferences,
                                           max_domain=budget.max_domain)
    out = []
    for (v, spent), (a, b) in zip(first, parsed):
        if v.verdict != "UNKNOWN":
            out.append(dataclasses.replace(v, witness={**(v.witness or {}), "checked": True,
                                                       "answered_by": {p: "prolog" for p in EQUIV_PARTS}}))
            continue
        settled, reasons, timed_out = race(pair(a, b, amp_fmt), _left(budget, spent))
        out.append(_equiv_verdict(settled, reasons, timed_out, amp_fmt))
    return out


__all__ = ["EQUIV_PARTS", "LATE_DISAGREEMENTS", "PROVERS", "STORY_PARTS", "Answer", "Budget", "EMember",
           "Member", "ModelCheckFailed", "PortfolioDecision", "PrologMember", "ProverDisagreement", "Question",
           "Z3Member", "checked_model", "decide", "decide_batch", "default_prover", "equivalent",
           "equivalent_batch", "members", "pair", "race", "settle_by_e", "story", "check", "E_STEPS", "FIRST_STAGE_S"]
