"""Logical equivalence and entailment of AmP's LFs (`fol`, `lisp`), on the one engine.

The first stage is AmP's procedure (`prolog/equivalence.pl`: SLD resolution over the Skolemised
antecedent), sound and complete for AmP's fragment (no OR under a universal in the antecedent)
and cheap. What SLD leaves open meets a second step that only formulas without negation allow
(`prolog/monotone.pl`): a proof from one or two instances of the consequent's matrix whose every
clause holds an instance of one of the antecedent's clauses (method `instances`), and the least
countermodel of the antecedent in which the consequent stays false. Every direction neither
step settles goes on, in the same Prolog call and within the same budget, to the one first-order
engine (`prolog/prove.pl`): its connection prover and its finite-model search, as for every other
dialect. Every countermodel is checked here by the one model checker
(`prove.holds`) before it is reported. A definite verdict is never a guess: NOT_EQUIVALENT comes
from a checked countermodel or, where the search found none within its budget, from the first
stage's complete refutation (`"model": null`). Every call is budgeted, so no input hangs the caller.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Callable, Iterable

from ambit.logic.syntax.dialect import FOL
from ambit.logic.syntax.ast import And, Atom, Formula, Or, Quant, Var, children, free_vars
from ambit.logic.syntax.canonical import canonical_string
from ambit.logic.engine.budget import DEFAULT_INFERENCES, DEFAULT_MAX_DOMAIN, DEFAULT_TIME_LIMIT, Budget, backstop
from ambit.logic.engine.model_check import checked_model
from ambit.logic.engine.prove import STAGES_PER_ITEM, pair_verdict
from ambit.logic.syntax.parse import parse
from ambit.logic.syntax.render import prolog_term
from ambit.logic.runtime.worker import PrologError, worker
from ambit.logic.engine.verdict import VERDICTS, Verdict

PROGRAM = "equivalence.pl"
CHUNK = 125  # pairs per Prolog round trip in equivalent_batch (one chunk is checked while the next is solved)

LF = str | Formula


def to_prolog_bb(f: Formula, tag: str = "") -> str:
    """`f` as a Prolog term in Blackburn & Bos style (`some(X, F)`, `all(X, F)`, `and`, `or`,
    `rel(Pred, Args)`), one Prolog variable per quantifier, named `V<tag>_<n>` so that shadowed
    names stay apart and formulas sharing one goal text (tags differ) share no variable.
    Constants and predicates are quoted atoms. The text is read inside Prolog (json_call.pl), so
    no variable binding crosses back into Python."""
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
    """The sorted atoms of `f`, each variable written as its binder: the quantifier's kind and how
    many quantifiers enclose it. Canonicalisation keeps each atom and each binder's place among
    the quantifiers (it renames variables, reorders operands, flattens, and drops only vacuous
    quantifiers), so formulas whose keys differ almost never have equal canonical forms: a cheap
    filter before canonicalising. (Only a vacuous quantifier above a binder can make the keys of
    equal canonical forms differ; such a pair goes to Prolog, whose normal forms find it.)"""
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


def _budget(time_limit: float, inferences: int, max_domain: int | None) -> str:
    return Budget(time_limit, inferences, DEFAULT_MAX_DOMAIN if max_domain is None else max_domain).prolog()


# the inferences one pair may spend at most, in units of `inferences`: the first stage's two
# directions, then what prove.pl's two checks may spend
_STAGES_PER_PAIR = 2 + STAGES_PER_ITEM
# PrologError's name for a spent stack, in the reasons' vocabulary (logic/engine/verdict.py)
_REASON = {"memory": "memory_limit"}


def _spend(pairs: int, inferences: int) -> int:
    """The inference limit of a round trip: what its pairs may spend, and then some."""
    return int(pairs * _STAGES_PER_PAIR * int(inferences)) + 1_000_000


_loaded = False


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        worker().consult(PROGRAM)
        _loaded = True


def with_extensions(model: dict, *formulas: Formula) -> dict:
    """A model in the shared shape (`domain`, `constants`, `true_atoms`) with AmP's
    `extensions` (predicate -> tuples, documented for `fol`/`lisp` in ambit.proto) added: every
    predicate true of something, and every predicate of `formulas` (an empty list if of none)."""
    ext: dict[str, list] = {}
    for f in formulas:
        _predicates_into(f, ext)
    for atom in model.get("true_atoms", []):
        pred, _, rest = atom.partition("(")
        ext.setdefault(pred, []).append([e.strip() for e in rest[:-1].split(",")] if rest else [])
    return {**model, "extensions": {p: sorted(ts) for p, ts in sorted(ext.items())}}


def _predicates_into(f: Formula, ext: dict[str, list]) -> None:
    """An empty extension in `ext` for every predicate of `f`."""
    t = type(f)
    if t is Atom:
        ext.setdefault(f.pred, [])
    elif t is Quant:
        _predicates_into(f.body, ext)
    else:
        for c in children(f):
            _predicates_into(c, ext)


_BY_SLD = {"status": "unsat", "proof": None}  # a direction the first stage proved: no steps to show


def _verdict(d: dict, a: Formula, b: Formula) -> Verdict:
    """A pair's verdict from the one engine's answer: the first stage (`sld`: each direction
    proved, refuted, or left open), then prove.pl's answer for each direction it did not prove
    (`a_not_b`, `b_not_a`), read by `prove.pair_verdict`, which checks every model. A direction
    the first stage refuted completely is not entailed even without a model."""
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
    # a direction the search stopped before (a model of the other was found first) keeps the
    # first stage's complete refutation
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
        direction = "a_entails_b" if ab is False else "b_entails_a"
        holds = "a" if direction == "a_entails_b" else "b"
        return Verdict("NOT_EQUIVALENT", ab, ba, {"direction": direction, "true_in_model": holds,
                                                  "false_in_model": "b" if holds == "a" else "a", "model": None})
    return v


_IDENTICAL = Verdict("EQUIVALENT", True, True, {"method": "identical"})
# Canonicalisation only flattens, sorts operands of AND/OR, renames bound variables and drops
# vacuous quantifiers: every step keeps the meaning, so equal canonical forms are equivalent.
_CANONICAL = Verdict("EQUIVALENT", True, True, {"method": "canonical"})


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
) -> list[Verdict]:
    """Verdicts for many pairs, in order, in few Prolog round trips. `time_limit` (seconds) and
    `inferences` bound each pair (a pair over budget is UNKNOWN); `max_domain` caps the
    countermodel search (default DEFAULT_MAX_DOMAIN elements; 0 turns it off). Pairs with equal canonical
    forms are EQUIVALENT without asking Prolog (witness method `canonical`) unless
    `canonical_shortcut` is False, which makes Prolog prove every pair. Strings are parsed in
    `fmt` (LFParseError for one that does not parse). Pairs go to Prolog in chunks, and the next
    chunk is parsed and rendered while Prolog solves the previous one. With `workers` > 1 the
    pairs are cut into chunks that run side by side on that many processes (prolog_pool.py),
    with the same answers. `closed`: the ASTs given are known to be closed (read by
    logic.syntax.reading), so they are not walked again here. `read`: reads a chunk of `pairs`
    into closed ASTs (the API's reading, logic.syntax.reading), called chunk by chunk so that
    reading the next chunk overlaps Prolog's work on the one before."""
    pairs = list(pairs)
    if workers > 1:
        from ambit.logic.runtime import pool as prolog_pool

        return prolog_pool.map_chunks(equivalent_batch, pairs, workers, fmt=fmt, time_limit=time_limit,
                                      inferences=inferences, max_domain=max_domain,
                                      canonical_shortcut=canonical_shortcut)
    opts = _budget(time_limit, inferences, max_domain)
    pending: list[tuple[list[int], Future]] = []
    out: list[Verdict | None] = [None] * len(pairs)
    parsed: dict[str, Formula] = {}  # an LF text met twice in the batch is parsed once

    def formula(x: LF) -> Formula:
        if isinstance(x, str):
            f = parsed.get(x)
            if f is None:
                f = parsed[x] = _formula(x, fmt)
            return f
        return x if closed and isinstance(x, (Atom, And, Or, Quant)) else _formula(x, fmt)

    asts: dict[int, tuple[Formula, Formula]] = {}  # the pairs sent to Prolog, until answered
    keys: dict[int, list] = {}  # per formula object (all kept alive by `pairs` or `parsed`)
    canon: dict[int, str] = {}

    def same_canonical_form(a: Formula, b: Formula) -> bool:
        for f in (a, b):
            if id(f) not in keys:
                keys[id(f)] = _atoms_key(f)
        if keys[id(a)] != keys[id(b)]:
            return False
        for f in (a, b):
            if id(f) not in canon:
                canon[id(f)] = canonical_string(f, FOL, "v")
        return canon[id(a)] == canon[id(b)]

    refused: list[int] = []  # pairs whose first-stage candidate the checker refused

    def check(todo: list[int], future: Future) -> None:
        """The verdicts of one round trip's pairs, every model checked."""
        for i, d in zip(todo, _answers(future, len(todo))):
            try:
                out[i] = _verdict(d, *asts[i])
            except PrologError:
                if not _has_candidate(d):
                    raise
                refused.append(i)

    def chunk(start: int) -> list[tuple[Formula, Formula]]:
        part = pairs[start:start + CHUNK]
        return read(part) if read is not None else [(formula(a), formula(b)) for a, b in part]

    formulas = chunk(0)
    for start in range(0, len(pairs), CHUNK):
        todo = []
        for i, (a, b) in enumerate(formulas, start):
            if a == b:
                out[i] = _IDENTICAL
            elif canonical_shortcut and same_canonical_form(a, b):
                out[i] = _CANONICAL  # equal canonical forms: equivalent, no Prolog round trip
            else:
                todo.append(i)
                asts[i] = (a, b)
        if todo:
            _ensure_loaded()
            terms = ",".join(
                f"p({to_prolog_bb(formulas[i - start][0], f'{i}a')},{to_prolog_bb(formulas[i - start][1], f'{i}b')})"
                for i in todo
            )
            goal = f"equivalence:equiv_batch_json([{terms}],{opts},Out)"
            # each pair is bounded in Prolog already (equiv_batch_json: call_with_time_limit/2 per pair)
            pending.append((todo, worker().submit_json_quiet(goal, time_limit=backstop(len(todo), time_limit),
                                                             inferences=_spend(len(todo), inferences))))
        formulas = chunk(start + CHUNK) if start + CHUNK < len(pairs) else []
        # the chunk before the one just sent is checked while Prolog solves that one
        while len(pending) > 1:
            check(*pending.pop(0))
    for todo, future in pending:
        check(todo, future)
    if refused:  # asked again, every model from prove.pl's search
        terms = ",".join(f"p({to_prolog_bb(asts[i][0], f'{i}a')},{to_prolog_bb(asts[i][1], f'{i}b')})" for i in refused)
        future = worker().submit_json_quiet(f"equivalence:equiv_batch_json([{terms}],{opts},false,Out)",
                                            time_limit=backstop(len(refused), time_limit),
                                            inferences=_spend(len(refused), inferences))
        for i, d in zip(refused, _answers(future, len(refused))):
            out[i] = _verdict(d, *asts[i])
    return out  # type: ignore[return-value]


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
    _ensure_loaded()
    goal = (
        f"equivalence:entails_json({to_prolog_bb(fa, 'a')},{to_prolog_bb(fb, 'b')},"
        f"{_budget(time_limit, inferences, max_domain)},Out)"
    )
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
        return False
    if s["status"] == "unsat":
        return True
    return None


__all__ = ["Verdict", "VERDICTS", "equivalent", "equivalent_batch", "entails", "to_prolog_bb", "with_extensions"]
