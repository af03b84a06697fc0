"""Logical equivalence and entailment of LFs, decided in SWI-Prolog (`prolog/equivalence.pl`).

Sound and complete for AmP's fragment (no OR under a universal in the antecedent); outside it a
bounded countermodel search and an inference budget, and the honest verdict `UNKNOWN`. A definite
verdict is never a guess: NOT_EQUIVALENT comes from a complete refutation or from a countermodel
that the Prolog model checker has verified. Every call is budgeted, so no input hangs the caller.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Iterable

from ambit.logic.syntax.ast import And, Atom, Formula, Or, Quant, Var, free_vars, predicates, subformulas
from ambit.logic.syntax.canonical import canonical_string
from ambit.logic.engine.prove import _checked as fol_checked, _verdict as fol_verdict, backstop
from ambit.logic.syntax.parse import parse
from ambit.logic.syntax.render import prolog_term
from ambit.logic.runtime.worker import PrologError, worker
from ambit.logic.engine.verdict import VERDICTS, Verdict

DEFAULT_TIME_LIMIT = 2.0  # seconds per pair
DEFAULT_INFERENCES = 1_000_000  # per stage (proof search, countermodel search) and direction
PROGRAM = "equivalence.pl"
CHUNK = 250  # pairs per Prolog round trip in equivalent_batch

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
    """The sorted atoms of `f` with every variable written `_`: canonicalisation keeps each atom
    (it renames variables, reorders operands, drops only vacuous quantifiers), so formulas whose
    keys differ cannot have equal canonical forms. A cheap filter before canonicalising."""
    out = [(g.pred, *[a.name if type(a) is not Var else "_" for a in g.args]) for g in subformulas(f) if type(g) is Atom]
    out.sort()
    return out


def _opts(time_limit: float, inferences: int, max_domain: int | None) -> str:
    return f"opts({float(time_limit):.6f},{int(inferences)},{-1 if max_domain is None else int(max_domain)})"


# the inferences one pair may spend at most: two directions of up to five stages each, then
# the full first-order engine (fol.pl) on a pair left UNKNOWN: two checks of about four stages
_STAGES_PER_PAIR = 20
# PrologError's name for a spent stack, in the reasons' vocabulary (logic/engine/verdict.py)
_REASON = {"memory": "memory_limit"}


def _spend(pairs: int, inferences: int) -> int:
    """The inference limit of a round trip: what its pairs may spend, and then some."""
    return pairs * _STAGES_PER_PAIR * int(inferences) + 1_000_000


_loaded = False


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        worker().consult(PROGRAM)
        _loaded = True


def _true_atoms(extensions: dict[str, list]) -> list[str]:
    """The true atoms of a model given by its extensions, in the shape every engine's models
    share (`"P(d1, d2)"`)."""
    return sorted(f"{p}({', '.join(t)})" if t else p for p, ts in extensions.items() for t in ts)


def with_extensions(model: dict) -> dict:
    """A model in the shared shape (`domain`, `constants`, `true_atoms`) with AmP's
    `extensions` (predicate -> tuples, documented for `fol`/`lisp` in ambit.proto) added."""
    ext: dict[str, list] = {}
    for atom in model.get("true_atoms", []):
        pred, _, rest = atom.partition("(")
        ext.setdefault(pred, []).append([e.strip() for e in rest.rstrip(")").split(",")] if rest else [])
    return {**model, "extensions": {p: sorted(ts) for p, ts in sorted(ext.items())}}


def _name_elements(model: dict | None) -> dict | None:
    """Prolog's integer elements 1..n as 'd1'..'dn' (readable, and distinct from names)."""
    if model is None:
        return None
    d = lambda e: f"d{e}"  # noqa: E731
    ext = {p: [[d(e) for e in t] for t in ts] for p, ts in model["extensions"].items()}
    return {
        "domain": [d(e) for e in model["domain"]],
        "constants": {k: d(v) for k, v in model["constants"].items()},
        "true_atoms": _true_atoms(ext),
        "extensions": ext,
    }


def _amp_model(raw: dict, a: Formula, b: Formula) -> dict:
    """A model of fol.pl (elements 1..n, true atoms as [pred, e1, ...]) in the shape of this
    module's models: elements d1..dn, every predicate of `a` and `b` with its extension."""
    d = lambda e: f"d{e}"  # noqa: E731
    ext: dict[str, list] = {p: [] for p, _ in sorted(predicates(a) | predicates(b))}
    for pred, *args in raw["atoms"]:
        ext.setdefault(pred, []).append([d(e) for e in args])
    ext = {p: sorted(ts) for p, ts in ext.items()}
    return {"domain": [d(e) for e in range(1, raw["size"] + 1)],
            "constants": {c: d(e) for c, e in raw["constants"].items()},
            "true_atoms": _true_atoms(ext), "extensions": ext}


def _witness(w: dict | None) -> dict | None:
    if w is not None and "model" in w:
        w = {**w, "model": _name_elements(w["model"])}
        holds = "a" if w["direction"] == "a_entails_b" else "b"
        w["true_in_model"], w["false_in_model"] = holds, "b" if holds == "a" else "a"
    return w


def _verdict(d: dict, a: Formula, b: Formula) -> Verdict:
    """The verdict of equivalence.pl; for a pair it left UNKNOWN, that of the full first-order
    engine it went on to (`full_fol`), whose models `fol.holds` checks here. The directions
    either engine proved are kept."""
    own = Verdict(d["verdict"], d["a_entails_b"], d["b_entails_a"], _witness(d["witness"]))
    full = d.get("full_fol")
    if full is None:
        return own
    v = fol_verdict(full, a, b)
    if v.verdict == "NOT_EQUIVALENT":  # the model in this format's shape (extensions per predicate)
        raw = full["a_not_b" if v.witness["direction"] == "a_entails_b" else "b_not_a"]["model"]
        return Verdict(v.verdict, v.a_entails_b, v.b_entails_a, {**v.witness, "model": _amp_model(raw, a, b)})
    if v.verdict != "UNKNOWN":
        return v
    ab = True if True in (own.a_entails_b, v.a_entails_b) else None
    ba = True if True in (own.b_entails_a, v.b_entails_a) else None
    return Verdict("UNKNOWN", ab, ba, v.witness)


_IDENTICAL = Verdict("EQUIVALENT", True, True, {"method": "identical"})
# Canonicalisation only flattens, sorts operands of AND/OR, renames bound variables and drops
# vacuous quantifiers: every step keeps the meaning, so equal canonical forms are equivalent.
_CANONICAL = Verdict("EQUIVALENT", True, True, {"method": "canonical"})
_OVER_TIME = {"verdict": "UNKNOWN", "a_entails_b": None, "b_entails_a": None, "witness": {"reason": "time_limit"}}


def equivalent_batch(
    pairs: Iterable[tuple[LF, LF]],
    fmt: str = "fol",
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int | None = None,
    canonical_shortcut: bool = True,
    workers: int = 1,
) -> list[Verdict]:
    """Verdicts for many pairs, in order, in few Prolog round trips. `time_limit` (seconds) and
    `inferences` bound each pair (a pair over budget is UNKNOWN); `max_domain` caps the
    countermodel search (default #names + #variables; 0 turns it off). Pairs with equal canonical
    forms are EQUIVALENT without asking Prolog (witness method `canonical`) unless
    `canonical_shortcut` is False, which makes Prolog prove every pair. Strings are parsed in
    `fmt` (LFParseError for one that does not parse). Pairs go to Prolog in chunks, and the next
    chunk is parsed and rendered while Prolog solves the previous one. With `workers` > 1 the
    pairs are cut into chunks that run side by side on that many processes (prolog_pool.py),
    with the same answers."""
    pairs = list(pairs)
    if workers > 1:
        from ambit.logic.runtime import pool as prolog_pool

        return prolog_pool.map_chunks(equivalent_batch, pairs, workers, fmt=fmt, time_limit=time_limit,
                                      inferences=inferences, max_domain=max_domain,
                                      canonical_shortcut=canonical_shortcut)
    opts = _opts(time_limit, inferences, max_domain)
    pending: list[tuple[list[int], Future]] = []
    out: list[Verdict | None] = [None] * len(pairs)
    parsed: dict[str, Formula] = {}  # an LF text met twice in the batch is parsed once

    def formula(x: LF) -> Formula:
        if isinstance(x, str):
            f = parsed.get(x)
            if f is None:
                f = parsed[x] = _formula(x, fmt)
            return f
        return _formula(x, fmt)

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
                canon[id(f)] = canonical_string(f, "fol", "v")
        return canon[id(a)] == canon[id(b)]

    formulas = [(formula(a), formula(b)) for a, b in pairs[:CHUNK]]
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
        formulas = [(formula(a), formula(b)) for a, b in pairs[start + CHUNK : start + 2 * CHUNK]]
    for todo, future in pending:
        try:
            results = future.result()
        except PrologError as e:
            if e.reason == "error":
                raise
            results = [{**_OVER_TIME, "witness": {"reason": _REASON.get(e.reason, e.reason)}}] * len(todo)
        for i, d in zip(todo, results):
            out[i] = _verdict(d, *asts.pop(i))
    return out  # type: ignore[return-value]


def equivalent(
    a: LF,
    b: LF,
    fmt: str = "fol",
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
    fmt: str = "fol",
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int | None = None,
) -> bool | None:
    """Whether `a` entails `b`: True, False, or None when undecided within the budget."""
    fa, fb = _formula(a, fmt), _formula(b, fmt)
    if canonical_string(fa, "fol", "v") == canonical_string(fb, "fol", "v"):
        return True
    _ensure_loaded()
    goal = (
        f"equivalence:entails_json({to_prolog_bb(fa, 'a')},{to_prolog_bb(fb, 'b')},"
        f"{_opts(time_limit, inferences, max_domain)},Out)"
    )
    try:
        d = worker().query_json_quiet(goal, time_limit=backstop(1, time_limit), inferences=_spend(1, inferences))
    except PrologError as e:
        if e.reason != "error":  # a budget ran out: undecided
            return None
        raise
    if d["entails"] is False and "full_fol_model" in (d["witness"] or {}):
        fol_checked(d["witness"]["full_fol_model"], [fa], [fb])  # raises on a model that is wrong
    return d["entails"]


__all__ = ["Verdict", "VERDICTS", "equivalent", "equivalent_batch", "entails", "to_prolog_bb", "with_extensions"]
