"""Full first-order logic decisions: `decide` (story level), `entails` and `equivalent`.

The work happens in SWI-Prolog (`prolog/fol.pl`): a connection-calculus prover for proofs and
a finite model search for countermodels, both under an inference budget. Every model Prolog
returns is checked here once more by `holds` (an evaluator written independently of the
search) before it is reported; every proof was replayed in Prolog before it left.
Verdicts are never guesses: when a budget runs out the answer is UNKNOWN and says which.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Sequence

from .ast import And, Atom, Eq, Formula, Iff, Implies, Not, Or, Quant, Var, Xor, constants, free_vars
from .parse import parse
from . import fol_prop, prolog_pool
from .prolog_worker import PrologError, worker
from .render import prolog_term

DECISIONS = ("TRUE", "FALSE", "UNCERTAIN", "INCONSISTENT", "UNKNOWN")
DEFAULT_INFERENCES = 2_000_000  # per stage (short proof, model search, full proof) and check
DEFAULT_MAX_DOMAIN = 8
DEFAULT_TIME_LIMIT = 5.0  # seconds per item
CHUNK = 64  # items per Prolog round trip
PROGRAM = "fol.pl"

LF = str | Formula


@dataclass(frozen=True)
class Decision:
    """A story's verdict (one of DECISIONS) with its evidence: `proof` (steps; each names the
    clause it uses and where that clause came from: a premise index, `negated_conclusion`,
    `conclusion`, `equality`), `premises_used` (indices), `countermodel` / `model`
    (domain, constants, true atoms); when UNKNOWN, `budget` names the budget that ran out
    (`inferences` or `time_limit`) and `reason` says it in words."""

    verdict: str
    premises_used: list[int] = field(default_factory=list)
    proof: list[dict] | None = None
    countermodel: dict | None = None
    model: dict | None = None
    reason: str | None = None
    budget: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set (a shallow dict: the evidence is plain JSON values already)."""
        return {k: v for k in _DECISION_FIELDS if (v := getattr(self, k)) is not None}


_DECISION_FIELDS = tuple(f.name for f in fields(Decision))


def formula(x: LF, fmt: str) -> Formula:
    """The AST of a formula given as text in `fmt`, or as a closed AST."""
    if isinstance(x, str):
        return parse(x, fmt)
    if free := free_vars(x):
        raise ValueError(f"a formula must be closed; free variable(s): {', '.join(sorted(free))}")
    return x


def to_term(f: Formula) -> str:
    """`f` as the Prolog term fol.pl reads: quantifiers numbered, `v(N)` for their variables,
    names as quoted atoms."""
    return prolog_term(f, "numbered", sep=",")


# --------------------------------------------------------------------------- models


def holds(f: Formula, model: dict, env: dict[str, str] | None = None) -> bool:
    """Whether `f` is true in `model` ({"domain": [...], "constants": {name: element},
    "atoms": set of (pred, elements...)}): the truth definition, one case per connective."""
    env = env or {}
    t = type(f)
    val = lambda a: env[a.name] if type(a) is Var else model["constants"][a.name]  # noqa: E731
    if t is Atom:
        return (f.pred, *[val(a) for a in f.args]) in model["atoms"]
    if t is Eq:
        return val(f.left) == val(f.right)
    if t is Not:
        return not holds(f.body, model, env)
    if t is And:
        return all(holds(c, model, env) for c in f.children)
    if t is Or:
        return any(holds(c, model, env) for c in f.children)
    if t is Implies:
        return not holds(f.left, model, env) or holds(f.right, model, env)
    if t is Iff:
        return holds(f.left, model, env) == holds(f.right, model, env)
    if t is Xor:
        return holds(f.left, model, env) != holds(f.right, model, env)
    if t is Quant:
        test = all if f.kind == "forall" else any
        return test(holds(f.body, model, {**env, f.var: d}) for d in model["domain"])
    raise TypeError(f"not a formula: {f!r}")


def _model(d: dict) -> dict:
    """Prolog's model (elements 1..n) with elements named d1..dn; constants Prolog left free
    (none occur) are absent."""
    el = lambda e: f"d{e}"  # noqa: E731
    return {
        "domain": [el(e) for e in range(1, d["size"] + 1)],
        "constants": {c: el(e) for c, e in d["constants"].items()},
        "atoms": {(a[0], *[el(e) for e in a[1:]]) for a in d["atoms"]},
    }


def _checked(d: dict, true: Sequence[Formula], false: Sequence[Formula]) -> dict:
    """The model, after checking that every formula of `true` holds in it and none of `false`;
    a model that fails the check is a bug in the search, raised, never reported."""
    m = _model(d)
    for f in true:
        if not holds(f, m):
            raise PrologError(f"model search returned a model that does not satisfy {f!r}")
    for f in false:
        if holds(f, m):
            raise PrologError(f"model search returned a model that satisfies {f!r}")
    return {
        "domain": m["domain"],
        "constants": m["constants"],
        "true_atoms": sorted(f"{a[0]}({', '.join(a[1:])})" if len(a) > 1 else a[0] for a in m["atoms"]),
    }


def _used(proof: list[dict]) -> list[int]:
    return sorted({s["from"] for s in proof if isinstance(s.get("from"), int)})


# --------------------------------------------------------------------------- Prolog calls


def _budget(inferences: int, max_domain: int) -> str:
    return f"budget({int(inferences)},{int(max_domain)})"


def _run(items: list[str], inferences: int, max_domain: int, time_limit: float) -> list[dict | None]:
    """fol.pl's answers for items `equiv(A,B)` / `decide(Ps,G)`, in chunks (one Prolog goal
    each; the next chunk is written while Prolog solves one); None for an item of a chunk that
    ran past its time backstop."""
    out: list[dict | None] = []
    futures = []
    w = worker()
    w.consult(PROGRAM)
    for i in range(0, len(items), CHUNK):
        chunk = items[i:i + CHUNK]
        goal = f"fol:batch_json([{','.join(chunk)}],{_budget(inferences, max_domain)},Out)"
        futures.append((len(chunk), w.submit_json_quiet(goal, time_limit=time_limit * len(chunk) + 5.0)))
    for n, fut in futures:
        try:
            out.extend(fut.result())
        except PrologError as e:
            if not e.timed_out:
                raise
            out.extend([None] * n)
    return out


def decide_batch(
    stories: Iterable[tuple[Sequence[LF], LF]],
    fmt: str = "folio",
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> list[Decision]:
    """`decide` for many (premises, conclusion) stories, in order, in few Prolog round trips
    (one goal per chunk of CHUNK stories). With `workers` > 1 the stories are cut into chunks
    that run side by side on that many processes (prolog_pool.py), each reading, solving and
    checking its own; the answers are the same."""
    if workers > 1:
        return prolog_pool.map_chunks(decide_batch, list(stories), workers, fmt=fmt, inferences=inferences,
                                      max_domain=max_domain, time_limit=time_limit)
    parsed = [([formula(p, fmt) for p in ps], formula(c, fmt)) for ps, c in stories]
    items = [f"decide([{','.join(to_term(p) for p in ps)}],{to_term(c)})" for ps, c in parsed]
    answers = _run(items, inferences, max_domain, time_limit)
    return [_decision(d, ps, c) for d, (ps, c) in zip(answers, parsed)]


def _decision(d: dict | None, ps: list[Formula], c: Formula) -> Decision:
    if d is None:
        return Decision("UNKNOWN", reason="time_limit", budget="time_limit")
    neg, pos = d["with_negated_conclusion"], d["with_conclusion"]
    v = d["verdict"]
    if v == "TRUE":
        return Decision(v, _used(neg["proof"]), proof=neg["proof"], model=_checked(pos["model"], [*ps, c], []))
    if v == "FALSE":
        return Decision(v, _used(pos["proof"]), proof=pos["proof"], countermodel=_checked(neg["model"], ps, [c]))
    if v == "UNCERTAIN":
        return Decision(v, countermodel=_checked(neg["model"], ps, [c]), model=_checked(pos["model"], [*ps, c], []))
    if v == "INCONSISTENT":
        return Decision(v, _used(neg["proof"]), proof=neg["proof"])
    which = [k for k, s in (("with_negated_conclusion", neg), ("with_conclusion", pos)) if s["status"] == "unknown"]
    return Decision(v, reason=f"inference budget ran out ({', '.join(which)})", budget="inferences")


def decide(premises: Sequence[LF], conclusion: LF, fmt: str = "folio", **budget: Any) -> Decision:
    """TRUE (premises ⊢ conclusion), FALSE (premises ⊢ ¬conclusion), UNCERTAIN (neither),
    INCONSISTENT (the premises have no model) or UNKNOWN (a budget ran out), with evidence."""
    return decide_batch([(premises, conclusion)], fmt, **budget)[0]


def equivalent_batch(
    pairs: Iterable[tuple[LF, LF]],
    fmt: str = "folio",
    *,
    inferences: int = DEFAULT_INFERENCES,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> list:
    """Full first-order equivalence of many pairs: `logic.equivalence.Verdict`s, in order; the
    witness holds the two proofs (EQUIVALENT), a checked countermodel (NOT_EQUIVALENT), or why
    the answer is UNKNOWN. With `workers` > 1 the pairs run in chunks side by side on that many
    processes (prolog_pool.py), with the same answers."""
    from .equivalence import Verdict

    if workers > 1:
        return prolog_pool.map_chunks(equivalent_batch, list(pairs), workers, fmt=fmt, inferences=inferences,
                                      max_domain=max_domain, time_limit=time_limit)

    parsed = [(formula(a, fmt), formula(b, fmt)) for a, b in pairs]
    out: list = [None] * len(parsed)
    todo = []
    for i, (a, b) in enumerate(parsed):
        if a == b:
            out[i] = Verdict("EQUIVALENT", True, True, {"method": "identical"})
        elif (v := _propositional(a, b)) is not None:
            out[i] = v
        else:
            todo.append(i)
    answers = _run([f"equiv({to_term(parsed[i][0])},{to_term(parsed[i][1])})" for i in todo],
                   inferences, max_domain, time_limit)
    for i, d in zip(todo, answers):
        out[i] = _verdict(d, *parsed[i])
    return out


def _propositional(a: Formula, b: Formula):
    """The verdict of the truth table over `a`'s and `b`'s closed parts (fol_prop.py) when it
    settles the pair: when they agree on every row (or their bodies do, under a shared
    quantifier prefix), and on ground atoms when they differ (the row, checked by `holds`, is
    the countermodel); None otherwise."""
    from .equivalence import Verdict

    t = fol_prop.table(a, b)
    if t is None:
        return None
    if t.a == t.b:
        return Verdict("EQUIVALENT", True, True, {"method": "propositional", "parts": len(t.parts)})
    if not t.ground:
        bodies = fol_prop.common_prefix_bodies(a, b)
        inner = fol_prop.table(*bodies) if bodies else None
        if inner is not None and inner.a == inner.b:
            return Verdict("EQUIVALENT", True, True, {"method": "propositional_under_quantifiers",
                                                      "parts": len(inner.parts)})
        return None
    ab, ba = t.entails(t.a, t.b), t.entails(t.b, t.a)
    names = constants(a) | constants(b)
    if not ab:
        return Verdict("NOT_EQUIVALENT", False, ba, {
            "direction": "a_entails_b", "true_in_model": "a", "false_in_model": "b",
            "model": _checked(t.model(t.first_row(t.a & ~t.b), names), [a], [b])})
    return Verdict("NOT_EQUIVALENT", True, False, {
        "direction": "b_entails_a", "true_in_model": "b", "false_in_model": "a",
        "model": _checked(t.model(t.first_row(t.b & ~t.a), names), [b], [a])})


def _verdict(d: dict | None, a: Formula, b: Formula):
    from .equivalence import Verdict

    if d is None:
        return Verdict("UNKNOWN", None, None, {"reason": "time_limit"})
    s1, s2 = d["a_not_b"], d["b_not_a"]
    if s1["status"] == "sat":
        return Verdict("NOT_EQUIVALENT", False, None, {
            "direction": "a_entails_b", "true_in_model": "a", "false_in_model": "b",
            "model": _checked(s1["model"], [a], [b])})
    if s2 is not None and s2["status"] == "sat":
        ab = True if s1["status"] == "unsat" else None
        return Verdict("NOT_EQUIVALENT", ab, False, {
            "direction": "b_entails_a", "true_in_model": "b", "false_in_model": "a",
            "model": _checked(s2["model"], [b], [a])})
    ab = True if s1["status"] == "unsat" else None
    ba = True if s2 is not None and s2["status"] == "unsat" else None
    if ab and ba:
        return Verdict("EQUIVALENT", True, True, {"method": "connection_proof",
                                                  "proof_a_entails_b": s1["proof"], "proof_b_entails_a": s2["proof"]})
    return Verdict("UNKNOWN", ab, ba, {"reason": "inference budget ran out"})


def entails(premises: Sequence[LF], conclusion: LF, fmt: str = "folio", **budget: Any) -> bool | None:
    """Whether the premises entail the conclusion: True (also when the premises are
    inconsistent: they entail everything), False, or None when a budget ran out."""
    d = decide(premises, conclusion, fmt, **budget)
    return {"TRUE": True, "INCONSISTENT": True, "FALSE": False, "UNCERTAIN": False}.get(d.verdict)


__all__ = ["Decision", "DECISIONS", "decide", "decide_batch", "entails", "equivalent_batch", "holds", "to_term"]
