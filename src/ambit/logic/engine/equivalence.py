"""Logical equivalence and entailment of AmP's LFs (`fol`, `lisp`), on the one engine.

AmP's SLD procedure (`prolog/equivalence.pl`), `prolog/monotone.pl`, then `prolog/prove.pl`, in
one budgeted call. No verdict is a guess: NOT_EQUIVALENT comes from a countermodel checked by
`prove.holds`, or from the first stage's complete refutation (`"model": null`).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Callable, Iterable

from ambit.logic.syntax.dialect import FOL
from ambit.logic.syntax.ast import (And, Atom, Formula, Or, Quant, Var, children, free_vars,
                                    predicates)
from ambit.logic.syntax.canonical import canonical_string
from ambit.logic.engine.budget import DEFAULT_INFERENCES, DEFAULT_TIME_LIMIT, Budget, backstop
from ambit.logic.engine.model_check import checked_model
from ambit.logic.engine.prove import LF, STAGES_PER_ITEM, not_equivalent, pair_verdict
from ambit.logic.syntax.parse import parse
from ambit.logic.syntax.render import prolog_term
from ambit.logic.runtime.worker import PrologError, worker
from ambit.logic.engine.verdict import VERDICTS, Verdict

PROGRAM = "equivalence.pl"
CHUNK = 125  # pairs per Prolog round trip in equivalent_batch (one chunk is checked while the next is solved)


def to_prolog_bb(f: Formula, tag: str = "") -> str:
    """`f` as a Blackburn & Bos Prolog term, variables `V<tag>_<n>` (one per binder and tag)."""
    return prolog_term(f, "fresh", tag, sep=",", full=False)


def _formula(x: LF, fmt: str) -> Formula:
    """The AST of an LF given as text (parsed in `fmt`) or as an AST (checked to be closed)."""
    if isinstance(x, str):
        return parse(x, fmt)
    if not isinstance(x, (Atom, And, Or, Quant)):
        raise TypeError(f"expected an LF string or a logic.syntax.ast formula, not {type(x).__name__}")
    if free := free_vars(x):
        raise ValueError(f"an LF must be closed; free variable(s): {', '.join(sorted(free))}")
    return x


def _atoms_key(f: Formula) -> list:
    """The sorted atoms of `f`, each variable written as its binder (kind and depth): a cheap filter
    before canonicalising, as canonicalisation keeps both (a vacuous quantifier aside: Prolog's)."""
    out: list = []
    binders: dict[str, str] = {}

    def walk(g: Formula, depth: int) -> None:
        t = type(g)
        if t is Atom:
            out.append((g.pred, *[binders.get(a.name, "?") if type(a) is Var else a.name for a in g.args]))
        elif t is Quant:
            outer = binders.get(g.var)
            binders[g.var] = f"{'∀' if g.kind == 'forall' else '∃'}{depth}"
            walk(g.body, depth + 1)
            if outer is None:
                del binders[g.var]
            else:
                binders[g.var] = outer
        else:
            for c in children(g):
                walk(c, depth)

    try:
        walk(f, 0)
    finally:
        walk = None  # a recursive closure is a reference cycle: broken here, freed now, not by the collector
    out.sort()
    return out


# the inferences one pair may spend, in units of `inferences`: two SLD directions, then prove.pl
_STAGES_PER_PAIR = 2 + STAGES_PER_ITEM
# PrologError's name for a spent stack, in the reasons' vocabulary (logic/engine/verdict.py)
_REASON = {"memory": "memory_limit"}


def _spend(pairs: int, inferences: int) -> int:
    """The inference limit of a round trip: what its pairs may spend, and then some."""
    return int(pairs * _STAGES_PER_PAIR * int(inferences)) + 1_000_000


def with_extensions(model: dict, *formulas: Formula) -> dict:
    """`model` with AmP's `extensions` (predicate -> tuples) for its atoms and `formulas`."""
    ext: dict[str, list] = {p: [] for f in formulas for p, _ in predicates(f)}
    for atom in model.get("true_atoms", []):
        pred, _, rest = atom.partition("(")
        ext.setdefault(pred, []).append([e.strip() for e in rest[:-1].split(",")] if rest else [])
    return {**model, "extensions": {p: sorted(ts) for p, ts in sorted(ext.items())}}


_BY_SLD = {"status": "unsat", "proof": None}  # a direction the first stage proved: no steps to show


def _verdict(d: dict, a: Formula, b: Formula) -> Verdict:
    """A pair's verdict from the first stage (`sld`) and prove.pl's (`prove.pair_verdict`)."""
    if why := d.get("unknown"):
        return Verdict("UNKNOWN", None, None, {"reason": why})
    if d.get("canonical"):
        return _CANONICAL  # equal normal forms in Prolog (equivalence.pl's normal/2)
    sld_ab, sld_ba = d["sld"]
    by = d.get("proved_by") or ["sld" if s is True else None for s in (sld_ab, sld_ba)]
    if sld_ab is True and sld_ba is True:
        if by == ["sld", "sld"]:
            return Verdict("EQUIVALENT", True, True, {"method": "sld"})
        return Verdict("EQUIVALENT", True, True, {"method": "instances", "method_a_entails_b": by[0],
                                                  "method_b_entails_a": by[1]})
    s1 = _BY_SLD if sld_ab is True else d["a_not_b"]
    s2 = _BY_SLD if sld_ba is True else d["b_not_a"]
    v = pair_verdict({"a_not_b": s1, "b_not_a": s2}, a, b, extensions=True)
    # a direction the search skipped (the other's model came first) keeps the SLD refutation
    ab = False if sld_ab is False else v.a_entails_b
    ba = False if sld_ba is False else v.b_entails_a
    if v.verdict == "NOT_EQUIVALENT":
        return Verdict(v.verdict, ab, ba, v.witness)  # its model with AmP's extensions (checked_model)
    if v.verdict == "EQUIVALENT":  # a direction the first stage proved is named, without steps
        w = {k: x for k, x in v.witness.items() if x is not None}
        w.update({f"method_{name}": m for name, s, m in (("a_entails_b", sld_ab, by[0]), ("b_entails_a", sld_ba, by[1]))
                  if s})
        return Verdict(v.verdict, True, True, w)
    if ab is False or ba is False:  # refuted by the first stage, and no model within the budget
        return not_equivalent("a_entails_b" if ab is False else "b_entails_a", ab, ba, None)
    return v


_IDENTICAL = Verdict("EQUIVALENT", True, True, {"method": "identical"})
# canonicalisation (flattening, sorting, renaming, vacuous quantifiers dropped) keeps the meaning
_CANONICAL = Verdict("EQUIVALENT", True, True, {"method": "canonical"})


# a pair the engine left UNKNOWN for these reasons (its steps, not the clock) may be settled by `settle`
_SETTLED_ELSEWHERE = ("inference_limit", "domain_limit", "memory_limit")
Settle = Callable[[Formula, Formula, Budget], "Verdict | None"]


def equivalent_batch(
    pairs: Iterable[tuple[LF, LF]],
    fmt: str = FOL,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int | None = None,
    canonical_shortcut: bool = True,
    workers: int = 1,
    closed: bool = False,
    read: Callable[[list], list] | None = None,
    settle: Settle | None = None,
) -> list[Verdict]:
    """Verdicts for many pairs, in order, in chunked Prolog round trips (each pair budgeted; the
    next chunk is read while Prolog solves one). Equal canonical forms skip Prolog unless
    `canonical_shortcut` is False; `workers` > 1 runs chunks on processes (runtime/pool.py).
    `closed`: ASTs known closed; `read`: a chunk's reader (logic.syntax.reading); `settle`:
    asked about pairs left UNKNOWN by steps, not time (the portfolio's E: provers/portfolio.py)."""
    pairs = list(pairs)
    if workers > 1:
        from ambit.logic.runtime import pool as prolog_pool

        return prolog_pool.map_chunks(equivalent_batch, pairs, workers, fmt=fmt, time_limit=time_limit,
                                      inferences=inferences, max_domain=max_domain,
                                      canonical_shortcut=canonical_shortcut, settle=settle)
    budget = Budget.of(time_limit=time_limit, inferences=inferences, max_domain=max_domain)
    out: list[Verdict | None] = [None] * len(pairs)
    asts: dict[int, tuple[Formula, Formula]] = {}  # the pairs sent to Prolog
    same = _CanonicalForms() if canonical_shortcut else None
    chunk = read or _reader(fmt, closed)
    pending: list[tuple[list[int], Future]] = []
    refused: list[int] = []  # pairs whose first-stage candidate the checker refused
    formulas = chunk(pairs[:CHUNK])
    for start in range(0, len(pairs), CHUNK):
        todo = []
        for i, (a, b) in enumerate(formulas, start):
            if a == b:
                out[i] = _IDENTICAL
            elif same is not None and same(a, b):
                out[i] = _CANONICAL  # equal canonical forms: equivalent, no Prolog round trip
            else:
                todo.append(i)
                asts[i] = (a, b)
        if todo:
            pending.append((todo, _submit(todo, asts, budget)))
        formulas = chunk(pairs[start + CHUNK:start + 2 * CHUNK]) if start + CHUNK < len(pairs) else []
        while len(pending) > 1:  # the chunk before the one just sent is checked while Prolog solves that one
            _check(*pending.pop(0), asts, out, refused)
    for todo, future in pending:
        _check(todo, future, asts, out, refused)
    if refused:  # asked again, every model from prove.pl's search
        for i, d in zip(refused, _answers(_submit(refused, asts, budget, candidates=False), len(refused))):
            out[i] = _verdict(d, *asts[i])
    if settle is not None:
        for i, v in enumerate(out):
            if v is not None and v.verdict == "UNKNOWN" and v.witness.get("reason") in _SETTLED_ELSEWHERE:
                out[i] = settle(*asts[i], budget) or v
    return out  # type: ignore[return-value]


def _reader(fmt: str, closed: bool) -> Callable[[list], list]:
    """Reads a chunk of pairs into closed ASTs, each text parsed once per batch."""
    parsed: dict[str, Formula] = {}

    def formula(x: LF) -> Formula:
        if isinstance(x, str):
            f = parsed.get(x)
            if f is None:
                f = parsed[x] = _formula(x, fmt)
            return f
        return x if closed and isinstance(x, (Atom, And, Or, Quant)) else _formula(x, fmt)

    return lambda part: [(formula(a), formula(b)) for a, b in part]


class _CanonicalForms:
    """Whether two formulas have equal canonical forms, each key and form computed once. Keyed by
    id with the object kept beside it: an id is unique only while its object lives."""

    def __init__(self) -> None:
        self.keys: dict[int, tuple[Formula, list]] = {}
        self.canon: dict[int, str] = {}

    def __call__(self, a: Formula, b: Formula) -> bool:
        for f in (a, b):
            if id(f) not in self.keys:
                self.keys[id(f)] = (f, _atoms_key(f))
        if self.keys[id(a)][1] != self.keys[id(b)][1]:
            return False
        for f in (a, b):
            if id(f) not in self.canon:
                self.canon[id(f)] = canonical_string(f, FOL, "v")
        return self.canon[id(a)] == self.canon[id(b)]


def _submit(todo: list[int], asts: dict, budget: Budget, candidates: bool = True) -> Future:
    """One round trip for the pairs `todo`: a Future of their dicts (`backstop`, `_spend`)."""
    worker().consult(PROGRAM)
    terms = ",".join(f"p({to_prolog_bb(asts[i][0], f'{i}a')},{to_prolog_bb(asts[i][1], f'{i}b')})" for i in todo)
    goal = f"equivalence:equiv_batch_json([{terms}],{budget.prolog()}{'' if candidates else ',false'},Out)"
    return worker().submit_json_quiet(goal, time_limit=backstop(len(todo), budget.time_limit),
                                      inferences=_spend(len(todo), budget.inferences))


def _check(todo: list[int], future: Future, asts: dict, out: list, refused: list[int]) -> None:
    """One round trip's verdicts into `out`; a pair whose candidate model fails, to `refused`."""
    for i, d in zip(todo, _answers(future, len(todo))):
        try:
            out[i] = _verdict(d, *asts[i])
        except PrologError:
            if not _has_candidate(d):
                raise
            refused.append(i)


def _answers(future: Future, n: int) -> list[dict]:
    """A round trip's dicts, or one `unknown` per pair when the round trip as a whole ran out."""
    try:
        return future.result()
    except PrologError as e:
        if e.reason == "error":
            raise
        return [{"unknown": _REASON.get(e.reason, e.reason)}] * n


def _has_candidate(d: dict) -> bool:
    return any(isinstance(s, dict) and s.get("candidate") for s in (d.get("a_not_b"), d.get("b_not_a")))


def equivalent(
    a: LF,
    b: LF,
    fmt: str = FOL,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int | None = None,
    canonical_shortcut: bool = True,
) -> Verdict:
    """EQUIVALENT / NOT_EQUIVALENT / UNKNOWN for two LFs (strings in `fmt`, or ASTs)."""
    return equivalent_batch([(a, b)], fmt, time_limit=time_limit, inferences=inferences, max_domain=max_domain,
                            canonical_shortcut=canonical_shortcut)[0]


def entails(
    a: LF,
    b: LF,
    fmt: str = FOL,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int | None = None,
) -> bool | None:
    """Whether `a` entails `b`: True, False, or None when undecided within the budget."""
    fa, fb = _formula(a, fmt), _formula(b, fmt)
    if canonical_string(fa, FOL, "v") == canonical_string(fb, FOL, "v"):
        return True
    worker().consult(PROGRAM)
    budget = Budget.of(time_limit=time_limit, inferences=inferences, max_domain=max_domain)
    goal = f"equivalence:entails_json({to_prolog_bb(fa, 'a')},{to_prolog_bb(fb, 'b')},{budget.prolog()},Out)"
    try:
        d = worker().query_json_quiet(goal, time_limit=backstop(1, time_limit), inferences=_spend(1, inferences))
    except PrologError as e:
        if e.reason != "error":  # a budget ran out: undecided
            return None
        raise
    if d.get("unknown"):
        return None
    if d["sld"] is not None:  # the first stage proved it, or refuted it completely
        return d["sld"]
    s = d["a_not_b"]
    if s["status"] == "sat":
        checked_model(s["model"], [fa], [fb])  # raises on a model that is wrong
    return {"unsat": True, "sat": False}.get(s["status"])


__all__ = ["Verdict", "VERDICTS", "equivalent", "equivalent_batch", "entails", "to_prolog_bb", "with_extensions"]
