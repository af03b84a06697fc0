"""Z3 (`z3-solver`) as one member of the portfolio (portfolio.py): satisfiability of a set of
closed formulas, with the model Z3 finds read back as ambit's model, so that ambit's own model
checker (`fol.holds`) can check it before it counts.

Each check builds its terms in its own `z3.Context`, so checks on different threads never share
Z3 state and one can be interrupted (`Z3Check.stop`) without touching the others. z3 is imported
only when a check is made.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any, Sequence

from .ast import And, Atom, Eq, Formula, Iff, Implies, Not, Or, Quant, Var, Xor

MAX_MODEL_CELLS = 200_000  # atoms enumerated to read a model back; beyond it the model is not read


class Unsupported(ValueError):
    """A formula holds something this translation does not know (the message says what)."""


@dataclass(frozen=True)
class Z3Result:
    """`status` is "sat", "unsat" or "unknown"; `model` (for "sat", when it could be read) is
    ambit's model: {"domain": [...], "constants": {name: element}, "atoms": {(pred, elements...)}};
    `reason` says why a "sat" has no model or why the answer is "unknown"."""

    status: str
    model: dict | None = None
    reason: str | None = None


class Z3Check:
    """One satisfiability check of the conjunction of `formulas`, stoppable from another thread."""

    def __init__(self, formulas: Sequence[Formula], time_limit: float) -> None:
        import z3

        self._z3 = z3
        self.ctx = z3.Context()
        self.formulas = list(formulas)
        self.time_limit = time_limit
        self._stopped = threading.Event()

    def result(self) -> Z3Result:
        """Z3's answer, with the model read back when it is "sat"."""
        z3 = self._z3
        sort = z3.DeclareSort("U", self.ctx)
        preds: dict[tuple[str, int], Any] = {}
        consts: dict[str, Any] = {}
        try:
            terms = [_to_z3(f, {}, sort, preds, consts, z3) for f in self.formulas]
        except Unsupported as e:
            return Z3Result("unknown", reason=f"not translated: {e}")
        s = z3.Solver(ctx=self.ctx)
        s.set("timeout", max(1, int(self.time_limit * 1000)))
        s.add(*terms)
        if self._stopped.is_set():
            return Z3Result("unknown", reason="stopped")
        # Z3's own timeout is soft (a quantifier round can run far past it): a watchdog
        # interrupts the check once the budget, plus 10% and 0.1 s, is spent
        overran = threading.Event()

        def overrun() -> None:
            overran.set()
            self.ctx.interrupt()

        watchdog = threading.Timer(self.time_limit * 1.1 + 0.1, overrun)
        watchdog.daemon = True
        watchdog.start()
        try:
            status = str(s.check())
        finally:
            watchdog.cancel()
        if self._stopped.is_set():
            return Z3Result("unknown", reason="stopped")
        if overran.is_set() and status == "unknown":
            return Z3Result("unknown", reason="time_limit")
        if status == "unknown":
            return Z3Result(status, reason=s.reason_unknown())
        if status == "unsat":
            return Z3Result(status)
        return _read_model(s.model(), sort, preds, consts, z3)

    def stop(self) -> None:
        """Interrupt the check (from any thread); `result()` then says "unknown" (stopped)."""
        self._stopped.set()
        self.ctx.interrupt()


def _to_z3(f: Formula, env: dict[str, Any], sort: Any, preds: dict, consts: dict, z3: Any) -> Any:
    """`f` over the uninterpreted sort `sort` (bound variables in `env`); `preds` (keyed by
    (name, arity); function symbols as ("function NAME", arity)) and `consts` collect the
    symbols made, for reading the model back."""

    def term(a: Any) -> Any:
        if type(a) is Var:
            return env[a.name]
        if getattr(a, "args", None):  # a function term f(t1, ..., tn), whatever its AST class
            key = ("function " + a.name, len(a.args))
            if key not in preds:
                preds[key] = z3.Function(f"f_{a.name}_{len(a.args)}", *([sort] * (len(a.args) + 1)))
            return preds[key](*[term(t) for t in a.args])
        if not hasattr(a, "name"):
            raise Unsupported(f"term {a!r}")
        if a.name not in consts:
            consts[a.name] = z3.Const("c_" + a.name, sort)
        return consts[a.name]

    t = type(f)
    rec = lambda g: _to_z3(g, env, sort, preds, consts, z3)  # noqa: E731
    if t is Atom:
        key = (f.pred, len(f.args))
        if key not in preds:
            preds[key] = z3.Function(f"p_{f.pred}_{len(f.args)}", *([sort] * len(f.args)), z3.BoolSort(sort.ctx))
        return preds[key](*[term(a) for a in f.args])
    if t is Eq:
        return term(f.left) == term(f.right)
    if t is Not:
        return z3.Not(rec(f.body))
    if t is And or t is Or:
        return (z3.And if t is And else z3.Or)(*[rec(c) for c in f.children])
    if t is Quant:
        v = z3.Const(f"v{len(env)}_{f.var}", sort)
        body = _to_z3(f.body, {**env, f.var: v}, sort, preds, consts, z3)
        return (z3.ForAll if f.kind == "forall" else z3.Exists)([v], body)
    if t in (Implies, Iff, Xor):
        a, b = rec(f.left), rec(f.right)
        return {Implies: z3.Implies, Iff: lambda p, q: p == q, Xor: z3.Xor}[t](a, b)
    raise Unsupported(f"formula {f!r}")


def _read_model(m: Any, sort: Any, preds: dict, consts: dict, z3: Any) -> Z3Result:
    """Z3's model as ambit's (elements named d1..dn in Z3's universe order); every atom over the
    universe is evaluated (with model completion), so the model is total."""
    if any(k.startswith("function ") for k, _ in preds):
        return Z3Result("sat", reason="the model has function tables, which are not read back")
    universe = list(m.get_universe(sort) or [])
    if not universe:  # no symbol of the sort was needed: any one-element model does
        universe = [z3.Const("c__any", sort)]
    if sum(len(universe) ** k for _, k in preds) > MAX_MODEL_CELLS:
        return Z3Result("sat", reason=f"model too large to read back ({len(universe)} elements)")
    name = {}
    for i, u in enumerate(universe, 1):
        name[str(u)] = f"d{i}"

    def element(expr: Any) -> str:
        v = m.eval(expr, model_completion=True)
        return name.get(str(v), name[str(universe[0])])

    atoms = set()
    for (pred, k), fn in preds.items():
        for args in itertools.product(universe, repeat=k):
            if z3.is_true(m.eval(fn(*args), model_completion=True)):
                atoms.add((pred, *[name[str(a)] for a in args]))
    return Z3Result("sat", {"domain": [name[str(u)] for u in universe],
                            "constants": {c: element(e) for c, e in consts.items()},
                            "atoms": atoms})


def satisfiable(formulas: Sequence[Formula], time_limit: float) -> Z3Result:
    """Z3's answer for the conjunction of `formulas`, within `time_limit` seconds."""
    return Z3Check(formulas, time_limit).result()


def _child(conn: Any, formulas: list[Formula], time_limit: float) -> None:
    conn.send(satisfiable(formulas, time_limit))
    conn.close()


def satisfiable_isolated(formulas: Sequence[Formula], time_limit: float, start_s: float = 5.0) -> Z3Result:
    """`satisfiable` in a child process that is killed once `time_limit` (+10%, +0.1 s, and
    `start_s` for the child's start) is spent: Z3 ignores its timeout and interrupts inside some
    quantifier rounds (Pelletier 63 ran for minutes), and only a process can be stopped for sure."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, list(formulas), time_limit), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(time_limit * 1.1 + 0.1 + start_s):
            return parent.recv()
        return Z3Result("unknown", reason="time_limit")
    except EOFError:
        return Z3Result("unknown", reason=f"z3 process ended (exit code {proc.exitcode})")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()


__all__ = ["MAX_MODEL_CELLS", "Unsupported", "Z3Check", "Z3Result", "satisfiable", "satisfiable_isolated"]
