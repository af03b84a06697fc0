"""Z3 (`z3-solver`) as a member of the portfolio (portfolio.py), its models read back for
ambit's checker; checks run in killable Z3 processes (`Z3Process`). z3 is imported lazily.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Sequence

from ambit.logic.syntax.ast import And, Atom, Eq, Formula, Iff, Implies, Not, Or, Quant, Var, Xor

MAX_MODEL_CELLS = 200_000  # atoms enumerated to read a model back; beyond it the model is not read


def available() -> bool:
    """Whether Z3 (the `z3-solver` package, `ambit-semantics[provers]`) is installed."""
    return importlib.util.find_spec("z3") is not None


class Unsupported(ValueError):
    """A formula holds something this translation does not know (the message says what)."""


@dataclass(frozen=True)
class Z3Result:
    """"sat" (with ambit's `model`), "unsat" (with its `core`) or "unknown" (`reason`)."""

    status: str
    model: dict | None = None
    reason: str | None = None
    core: tuple[int, ...] | None = None


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
        s.set("unsat_core", True)
        for i, t in enumerate(terms):  # each formula tracked, so that an "unsat" names the ones it needed
            s.assert_and_track(t, z3.Bool(f"formula_{i}", self.ctx))
        if self._stopped.is_set():
            return Z3Result("unknown", reason="stopped")
        # Z3's timeout is soft: a watchdog interrupts the check at the budget + 10% + 0.1 s
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
            return Z3Result(status, core=tuple(sorted(int(str(c).rsplit("_", 1)[1]) for c in s.unsat_core())))
        return _read_model(s.model(), sort, preds, consts, z3)

    def stop(self) -> None:
        """Interrupt the check (from any thread); `result()` then says "unknown" (stopped)."""
        self._stopped.set()
        self.ctx.interrupt()


def _to_z3(f: Formula, env: dict[str, Any], sort: Any, preds: dict, consts: dict, z3: Any) -> Any:
    """`f` over the sort `sort`; `preds` and `consts` collect the symbols made (to read models)."""

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
    """Z3's model as ambit's (elements d1..dn), every atom evaluated with model completion."""
    if any(k.startswith("function ") for k, _ in preds):
        return Z3Result("sat", reason="the model has function tables, which are not read back")
    # no symbol of the sort needed: any one-element model does
    universe = list(m.get_universe(sort) or []) or [z3.Const("c__any", sort)]
    if sum(len(universe) ** k for _, k in preds) > MAX_MODEL_CELLS:
        return Z3Result("sat", reason=f"model too large to read back ({len(universe)} elements)")
    name = {str(u): f"d{i}" for i, u in enumerate(universe, 1)}

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


def check(formulas: Sequence[Formula], timeout_ms: int) -> str:
    """Z3's bare answer (no core, watchdog or model: a third of `satisfiable`'s time), for tests."""
    import z3

    sort = z3.DeclareSort("U")
    preds: dict[tuple[str, int], Any] = {}
    consts: dict[str, Any] = {}
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*[_to_z3(f, {}, sort, preds, consts, z3) for f in formulas])
    return str(s.check())


POOL_SIZE = 4  # idle Z3 processes kept for the next checks (a race has two parts; two races may overlap)
START_S = 5.0  # allowance for a new process to start (Python, ambit's AST, z3) before its first check
SEND_PART = 2_000  # formulas per message of a large request (a few ms to pickle: a stop is seen that soon)


def _serve() -> None:
    """A Z3 process: answers requests on the original stdout (other writes go to stderr)."""
    from multiprocessing.connection import Connection

    answers = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)
    requests = Connection(0, writable=False)
    import z3  # noqa: F401 - loaded before "ready", so that no check's time goes to the import

    answers.send("ready")
    gathered: list = []
    while True:
        try:
            formulas, time_limit = requests.recv()
        except (EOFError, OSError):
            return
        if time_limit is None:  # a part of a large request (Z3Process.result): more follows
            gathered.extend(formulas)
            continue
        formulas, gathered = [*gathered, *formulas], []
        answers.send(satisfiable(formulas, time_limit))


class _Worker:
    """One long-lived Z3 process: a plain subprocess (multiprocessing re-imports `__main__`)."""

    def __init__(self) -> None:
        from multiprocessing.connection import Connection

        root = str(Path(__file__).resolve().parents[2])  # the folder that holds ambit/
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self.proc = subprocess.Popen([sys.executable, "-m", "ambit.logic.provers.z3_prover"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        self._to = Connection(os.dup(self.proc.stdin.fileno()), readable=False)
        self._from = Connection(os.dup(self.proc.stdout.fileno()), writable=False)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.checks = 0
        self._kill_lock = threading.Lock()
        self._killed = False

    def send(self, request: Any) -> None:
        self._to.send(request)

    def answer(self, timeout: float) -> Any | None:
        """The answer, or None when none came within `timeout` seconds. EOFError when the process ended."""
        return self._from.recv() if self._from.poll(timeout) else None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """End the process and close the pipes, once (closing a descriptor twice could close
        another file that reused its number)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(5)
            self._to.close()
            self._from.close()


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def _checkout() -> _Worker:
    with _idle_lock:
        while _idle:
            w = _idle.pop()
            if w.alive():
                return w
            w.kill()
    return _Worker()


def _checkin(w: _Worker) -> None:
    with _idle_lock:
        if len(_idle) < POOL_SIZE:
            _idle.append(w)
            return
    w.kill()


class Z3Process:
    """`Z3Check` in a pooled process, killed on overrun or stop (Z3 ignores some interrupts)."""

    def __init__(self, formulas: Sequence[Formula], time_limit: float, start_s: float = START_S,
                 deadline: float | None = None) -> None:
        self.formulas = list(formulas)
        self.time_limit = time_limit
        self.deadline = deadline  # a time.monotonic() value: sending a large request stops there
        self.start_s = start_s
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._worker: _Worker | None = None  # the process while the check runs
        self.pid: int | None = None  # the process the check ran on

    def result(self) -> Z3Result:
        w = _checkout()
        with self._lock:
            if self._stopped.is_set():
                _checkin(w)
                return Z3Result("unknown", reason="stopped")
            self._worker, self.pid = w, w.proc.pid
        fresh, w.checks = w.checks == 0, w.checks + 1
        try:
            if fresh and w.answer(self.start_s) != "ready":  # a new process: started within start_s?
                self._release(w, keep=False)
                return Z3Result("unknown", reason=f"z3 process did not start within {self.start_s:g} s")
            if not self._send(w):
                self._release(w, keep=False)
                return Z3Result("unknown", reason="stopped" if self._stopped.is_set() else "time_limit")
            r = w.answer(self.time_limit * 1.1 + 0.1)
        except (EOFError, OSError):
            self._release(w, keep=False)
            if self._stopped.is_set():
                return Z3Result("unknown", reason="stopped")
            return Z3Result("unknown", reason=f"z3 process ended (exit code {w.proc.returncode})")
        if not self._release(w, keep=r is not None) or r is None:
            return Z3Result("unknown", reason="stopped" if self._stopped.is_set() else "time_limit")
        return r

    def _send(self, w: _Worker) -> bool:
        """The request, SEND_PART formulas at a time; False if a stop or the deadline came first."""
        fs = self.formulas
        parts = [fs[i:i + SEND_PART] for i in range(0, len(fs), SEND_PART)] or [[]]
        for n, part in enumerate(parts, 1):
            if self._stopped.is_set() or (self.deadline is not None and time.monotonic() > self.deadline):
                return False
            w.send((part, self.time_limit if n == len(parts) else None))
        return True

    def _release(self, w: _Worker, keep: bool) -> bool:
        """`w` back to the pool when `keep` and not stopped meanwhile (True), else killed."""
        with self._lock:
            self._worker = None
            keep = keep and not self._stopped.is_set()
        if keep:
            _checkin(w)
        else:
            w.kill()
        return keep

    def stop(self) -> None:
        """End the check now (from any thread): its process is killed; `result()` says "stopped"."""
        self._stopped.set()
        with self._lock:
            w = self._worker
        if w is not None:
            w.kill()


def satisfiable_isolated(formulas: Sequence[Formula], time_limit: float, start_s: float = START_S) -> Z3Result:
    """`satisfiable` in a Z3 process, killed once its time is spent (see Z3Process)."""
    return Z3Process(formulas, time_limit, start_s).result()


__all__ = ["MAX_MODEL_CELLS", "POOL_SIZE", "Unsupported", "Z3Check", "Z3Process", "Z3Result", "check",
           "satisfiable", "satisfiable_isolated"]


if __name__ == "__main__":  # a Z3 process; its answers must pickle as logic.provers.z3_prover's, not __main__'s
    from ambit.logic.provers.z3_prover import _serve as serve

    serve()
