"""The portfolio's members (``logic.provers.portfolio``): one wrapper per prover, posting its
definite answers; ``members()`` lists those installed on this machine."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Protocol, Sequence

from ambit._extras import install_line
from ambit.logic.provers import eprover
from ambit.logic.engine import equivalence, prove
from ambit.logic.runtime.worker import CancelScope, current_scope
from ambit.logic.engine.model_check import ModelCheckFailed, checked_model
from ambit.logic.provers.portfolio_question import EQUIV_PARTS, STORY_PARTS, Answer, Budget, Part, Question

log = logging.getLogger("ambit.logic.provers.portfolio")  # the members log under the portfolio's name


class Member(Protocol):
    """One prover: `start` works on `q`, posts Answers, calls `done` once and returns a stopper."""

    name: str

    def start(self, q: Question, budget: Budget, post: Callable[[Answer], None],
              done: Callable[[str, dict[str, str]], None]) -> Callable[[], None]: ...


def _thread(fn: Callable[[], None], name: str) -> None:
    """`fn` on a new thread, inside the starting thread's cancel scope (its Prolog calls stop with it)."""
    scope = current_scope()

    def run() -> None:
        if scope is None:
            return fn()
        with scope.active():
            return fn()

    threading.Thread(target=run, name=name, daemon=True).start()


class PrologMember:
    """ambit's own prover (prove.py), both parts at once; `stop` interrupts its call (own scope)."""

    name = "prolog"

    def start(self, q, budget, post, done):
        outer = current_scope()
        scope = CancelScope(outer.owner if outer is not None else "")
        unhook = outer.on_cancel(scope.cancel) if outer is not None else (lambda: None)

        def stop() -> None:
            scope.cancel()
            unhook()

        def work() -> None:
            with scope.active():
                solve()

        def solve() -> None:
            t0 = time.perf_counter()
            opts: dict[str, Any] = {"time_limit": budget.left(), "inferences": budget.inferences,
                                    "max_domain": budget.max_domain}
            reasons: dict[str, str] = {}
            try:
                if q.kind == "story":  # the portfolio checked the story's formulas already
                    d = prove.decide_batch_timed([(list(q.premises), q.conclusion)], closed=True, **opts)[0][0]
                    parts = _story_parts(d)
                    for part, status, ev in parts:
                        post(Answer(part, self.name, status, ev, time.perf_counter() - t0))
                    reasons = {p: d.reason or "unknown" for p in set(STORY_PARTS) - {p for p, _, _ in parts}}
                else:
                    v = (equivalence.equivalent_batch([q.pair], q.amp, **opts) if q.amp is not None
                         else prove.equivalent_batch([q.pair], **opts))[0]
                    for part, status, ev in _equiv_parts(v):
                        post(Answer(part, self.name, status, ev, time.perf_counter() - t0))
                    if v.verdict == "UNKNOWN":
                        reasons = {p: str(v.witness.get("reason", "unknown")) for p in EQUIV_PARTS}
            except Exception as e:  # noqa: BLE001 - reported as this member's reason
                reasons = {p.name: f"error: {e}" for p in q.parts}
            done(self.name, reasons)

        _thread(work, "portfolio-prolog")
        return stop


def _story_parts(d: prove.Decision) -> list[tuple[str, str, dict]]:
    """prove's story Decision as per-part answers: those it settled (an UNKNOWN verdict can settle one)."""
    neg, pos = STORY_PARTS
    proof = {"proof": d.proof, "premises_used": d.premises_used} if d.proof is not None else {}
    out = []
    if d.entailed is not None:
        out.append((neg, "unsat", proof) if d.entailed else (neg, "sat", {"model": d.countermodel}))
    if d.refuted is not None:
        out.append((pos, "unsat", proof) if d.refuted else (pos, "sat", {"model": d.model}))
    return out


def _equiv_parts(v: Any) -> list[tuple[str, str, dict]]:
    """prove's equivalence Verdict as per-part answers."""
    out = []
    w = v.witness or {}
    for part, entails, direction, proof_key in ((EQUIV_PARTS[0], v.a_entails_b, "a_entails_b", "proof_a_entails_b"),
                                                (EQUIV_PARTS[1], v.b_entails_a, "b_entails_a", "proof_b_entails_a")):
        if entails is True:
            out.append((part, "unsat", {"proof": w[proof_key]} if proof_key in w else {"method": w.get("method")}))
        elif entails is False:
            out.append((part, "sat", {"model": w["model"]} if w.get("direction") == direction else {}))
    return out


class _PerPartMember:
    """A prover checking each part on its own thread (E, Z3): `prepare`, `launch`, `settle`."""

    name = ""

    def prepare(self, q: Question, part: Part, budget: Budget, stopped: threading.Event, shared: dict) -> Any:
        """The check's input (`shared`: one dict per race); _Stopped if the race ends meanwhile."""
        return None

    def launch(self, part: Part, budget: Budget, prepared: Any = None) -> Any:
        raise NotImplementedError

    def settle(self, part: Part, check: Any, t0: float, post: Callable[[Answer], None],
               reasons: dict[str, str]) -> None:
        raise NotImplementedError

    def start(self, q, budget, post, done):
        checks: dict[str, Any] = {}
        stopped = threading.Event()
        reasons: dict[str, str] = {}
        left = [len(q.parts)]
        lock = threading.Lock()
        shared: dict = {"lock": threading.Lock()}

        def work(part: Part) -> None:
            t0 = time.perf_counter()
            try:
                prepared = self.prepare(q, part, budget, stopped, shared)
                with lock:  # started here, on the member's thread, unless the race is already over
                    if stopped.is_set():
                        raise _Stopped
                    checks[part.name] = check = self.launch(part, budget, prepared)
                self.settle(part, check, t0, post, reasons)
            except _Stopped:
                reasons[part.name] = "stopped"
            except ModelCheckFailed as e:
                reasons[part.name] = f"error: {e}"
                log.error("%s: %s", self.name, e)
            except Exception as e:  # noqa: BLE001 - this prover failing is its reason, the others go on
                reasons[part.name] = f"error: {e}"
            with lock:
                left[0] -= 1
                if left[0] == 0:
                    done(self.name, reasons)

        def stop() -> None:
            with lock:
                stopped.set()
                for c in checks.values():
                    c.stop()

        for part in q.parts:
            _thread(lambda part=part: work(part), f"portfolio-{self.name}-{part.name}")
        return stop


class EMember(_PerPartMember):
    """E: one process per part; its Theorem (unsat) and CounterSatisfiable (sat) are unchecked."""

    name = "eprover"

    def prepare(self, q, part, budget, stopped, shared):
        """The part's problem: the shared axioms written once (the other part waits)."""
        with shared["lock"]:  # one part writes the shared axioms; the other finds them written
            key = ("axioms", tuple(map(id, part.axioms)))
            if key not in shared:
                shared[key] = eprover.axiom_lines(part.axioms, lambda: _check_stopped(stopped, budget))
            lines = shared[key]
        return eprover.Problem(lines, part.conjecture)

    def launch(self, part, budget, prepared=None):
        problem = prepared if prepared is not None else eprover.Problem(eprover.axiom_lines(part.axioms), part.conjecture)
        return problem.start(budget.left(), budget.proof_object)

    def settle(self, part, check, t0, post, reasons):
        r = check.result()
        if r.proved is True:
            ev = ({"tstp": r.tstp, "derivation": eprover.steps(r.tstp), "premises_used": eprover.axioms_used(r.tstp)}
                  if r.output == "CNFRefutation" else {})
            post(Answer(part.name, self.name, "unsat", ev, time.perf_counter() - t0, checked=False))
        elif r.proved is False:  # E's saturation is no model: it waits for a prover that shows one
            post(Answer(part.name, self.name, "sat", {"saturation": r.status}, time.perf_counter() - t0,
                        checked=False))
        else:
            reasons[part.name] = f"SZS status {r.status}" if r.status else "stopped"


class Z3Member(_PerPartMember):
    """Z3: one process per part; an unsat's core (`premises_used`) is re-proved from."""

    name = "z3"

    def launch(self, part, budget, prepared=None):
        from ambit.logic.provers import z3_prover

        return z3_prover.Z3Process(part.formulas, budget.left(), deadline=budget.deadline)

    def settle(self, part, check, t0, post, reasons):
        r = check.result()
        if r.status == "unsat":
            n = len(part.axioms)
            ev = {"premises_used": [i for i in r.core if i < n], "unsat_core": list(r.core)} if r.core is not None else {}
            post(Answer(part.name, self.name, "unsat", ev, time.perf_counter() - t0, checked=False))
        elif r.status == "sat" and r.model is not None:
            post(Answer(part.name, self.name, "sat", {"model": checked_model(r.model, part.formulas)},
                        time.perf_counter() - t0))
        else:
            reasons[part.name] = r.reason or r.status


class _Stopped(Exception):
    """The race ended before this member began."""


def _check_stopped(stopped: threading.Event, budget: Budget) -> None:
    """_Stopped once the race is over or its deadline has passed (a member preparing its input)."""
    if stopped.is_set() or (budget.deadline is not None and time.monotonic() > budget.deadline):
        raise _Stopped


CHECK_INFERENCES_FACTOR = 4  # a re-proof's inference budget, in units of the race's


def reprove(part: Part, used: Sequence[int], budget: Budget, time_limit: float) -> dict | None:
    """Re-prove another prover's "unsat" from the axioms it names (`used`): evidence, or None."""
    used = sorted({i for i in used if 0 <= i < len(part.axioms)})
    axioms = [part.axioms[i] for i in used]
    d = prove.decide_batch([(axioms, part.conjecture)], time_limit=time_limit,
                         inferences=budget.inferences * CHECK_INFERENCES_FACTOR, max_domain=budget.max_domain)[0]
    if d.entailed is not True or d.proof is None:
        return None
    return proof_from(d, used)


def proof_from(d: prove.Decision, used: Sequence[int]) -> dict:
    """The evidence of `d`, a proof from the axioms `used`, its premise indices mapped back."""
    back = lambda s: {**s, "from": used[s["from"]]} if isinstance(s.get("from"), int) else s  # noqa: E731
    return {"proof": [back(s) for s in d.proof or []], "premises_used": [used[i] for i in d.premises_used]}


_said_missing: set[str] = set()  # optional provers already reported missing (one line each, once)


def members() -> list[Member]:
    """The portfolio's provers on this machine: Prolog, and E and Z3 when installed."""
    from ambit.logic.provers import z3_prover

    out: list[Member] = [PrologMember()]
    if eprover.available():
        out.append(EMember())
    if z3_prover.available():
        out.append(Z3Member())
    elif "z3" not in _said_missing:
        _said_missing.add("z3")
        log.warning("the portfolio runs without Z3 (not installed: %s)", install_line("provers"))
    return out
