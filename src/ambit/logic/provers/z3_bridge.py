"""Full first-order formulas (logic.syntax.ast) as Z3 terms: the independent solver that the tests and
`benchmarks/fol_bench.py` hold ambit's verdicts against. Needs the `z3-solver` package (a test
dependency), imported only when a function here is called."""

from __future__ import annotations

from typing import Any, Sequence

from ambit.logic.syntax.ast import And, Atom, Eq, Formula, Func, Iff, Implies, Not, Or, Quant, Var, Xor


def to_z3(f: Formula, env: dict[str, Any], sort: Any, fns: dict[tuple[str, int], Any]) -> Any:
    """`f` over the uninterpreted sort `sort`; `env` maps bound variables to Z3 constants and
    `fns` collects one Z3 function per (predicate, arity) and per (function term, arity)."""
    import z3

    def term(a: Any) -> Any:
        if type(a) is Var:
            return env[a.name]
        if type(a) is Func:
            key = ("fn " + a.name, len(a.args))
            if key not in fns:
                fns[key] = z3.Function(f"f_{a.name}_{len(a.args)}", *([sort] * (len(a.args) + 1)))
            return fns[key](*[term(b) for b in a.args])
        return z3.Const("c_" + a.name, sort)

    t = type(f)
    if t is Atom:
        key = (f.pred, len(f.args))
        if key not in fns:
            fns[key] = z3.Function(f"{f.pred}_{len(f.args)}", *([sort] * len(f.args)), z3.BoolSort())
        return fns[key](*[term(a) for a in f.args])
    if t is Eq:
        return term(f.left) == term(f.right)
    if t is Not:
        return z3.Not(to_z3(f.body, env, sort, fns))
    if t is And or t is Or:
        return (z3.And if t is And else z3.Or)(*[to_z3(c, env, sort, fns) for c in f.children])
    if t is Quant:
        v = z3.Const(f"{f.var}_{len(env)}", sort)
        body = to_z3(f.body, {**env, f.var: v}, sort, fns)
        return (z3.ForAll if f.kind == "forall" else z3.Exists)([v], body)
    a, b = to_z3(f.left, env, sort, fns), to_z3(f.right, env, sort, fns)
    return {Implies: z3.Implies, Iff: lambda p, q: p == q, Xor: z3.Xor}[t](a, b)


def z3_check(formulas: Sequence[Formula], timeout_ms: int) -> str:
    """Z3's answer for the conjunction of `formulas`: "sat", "unsat" or "unknown"."""
    import z3

    sort = z3.DeclareSort("U")
    fns: dict[tuple[str, int], Any] = {}
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*[to_z3(f, {}, sort, fns) for f in formulas])
    return str(s.check())


def z3_story(premises: Sequence[Formula], conclusion: Formula, timeout_ms: int) -> str | None:
    """Z3's story verdict (TRUE / FALSE / UNCERTAIN / INCONSISTENT), None when it gave up."""
    neg = z3_check([*premises, Not(conclusion)], timeout_ms)
    pos = z3_check([*premises, conclusion], timeout_ms)
    if "unknown" in (neg, pos):
        return None
    return {("unsat", "sat"): "TRUE", ("sat", "unsat"): "FALSE", ("sat", "sat"): "UNCERTAIN",
            ("unsat", "unsat"): "INCONSISTENT"}[(neg, pos)]
