"""Distinguishing situations: the least scene (up to `bound` elements: names + the variables of both
readings) in which one reading is true and another false. situations.pl proposes the candidates and
the engine's one model checker (logic/engine/model_check.py) picks: one truth definition."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterator

from ambit.logic.engine.model_check import Checker
from ambit.logic.runtime.cancel import PrologError
from ambit.logic.syntax.ast import And, Atom, Const, Formula, Implies, Or, Quant, Var
from ambit.logic.runtime.worker import worker
from ambit.logic.syntax.full_render import quote
from ambit.logic.explain.restricted import Every, Exists, Restricted, bound_variables, conjunction

PROGRAM = "situations.pl"
TIME_LIMIT = 10.0  # seconds for one search, a backstop: the bound keeps searches small
PAGE = 2000  # candidate scenes per round trip (the 120 searches of the explain tests' sample see at most 252)


@dataclass(frozen=True)
class Scene:
    """A finite model: named elements, their sorts, `constants` (name -> element), binary facts."""

    domain: tuple[str, ...]
    sorts: dict[str, str]
    constants: dict[str, str]
    facts: tuple[tuple[str, tuple[str, ...]], ...]
    events: frozenset[str] = field(default_factory=frozenset)
    searched_from: int = 1
    bound: int = 0


def find_scene(a: Restricted, b: Restricted, time_limit: float = TIME_LIMIT,
               inferences: int | None = None) -> Scene | None:
    """The least scene (within the bound) with `a` true and `b` false, or None; over `time_limit`
    or `inferences`: PrologError. A budget in inferences answers the same on any machine."""
    atoms = _atoms(a) + _atoms(b)
    sorts = sorted({x.pred for x in atoms if len(x.args) == 1})
    names = sorted({t.name for x in atoms for t in x.args if isinstance(t, Const)})
    events = _event_sorts(a) | _event_sorts(b)
    presupposed = sorted(_presupposed(a) | _presupposed(b) | _required(a))
    bound = len(names) + len(bound_variables(a)) + len(bound_variables(b))
    args = (f"{to_term(a, 'a')},{_list(sorts)},{_list(names)},{_name_list(_name_kinds(atoms))},"
            f"{_list(sorted(_functional(atoms)))},{_list(presupposed)}")
    readings = Checker([as_formula(a), as_formula(b)])  # compiled once, checked in every candidate
    for d in _candidates(args, max(1, len(names)), bound, time_limit, inferences):
        readings.bind(_model(d))
        if not readings.check(1) and readings.check(0):  # b first: a candidate is made of a's witnesses
            return _scene(d, events, bound)
    return None


def _candidates(args: str, first: int, bound: int, time_limit: float, inferences: int | None) -> Iterator[dict]:
    """situations.pl's candidate scenes, a page per round trip, all within one budget."""
    w = worker()
    w.consult(PROGRAM)
    start, spent = time.monotonic(), 0
    for n in range(first, bound + 1):
        skip, more = 0, True
        while more:
            left = time_limit - (time.monotonic() - start)
            if left <= 0 or (inferences is not None and spent >= inferences):
                raise _spent(left <= 0)
            page = w.query_json_quiet(f"situations:candidates_json({args},{n},{skip},{PAGE},Out)", time_limit=left,
                                      inferences=None if inferences is None else inferences - spent)
            spent, skip, more = spent + page["inferences"], skip + PAGE, page["more"]
            yield from ({"size": n, "from": first, **s} for s in page["scenes"])


def as_formula(r: Restricted | None) -> Formula | None:
    """A restricted reading as an ordinary formula, for the one model checker."""
    if r is None or isinstance(r, Atom):
        return r
    if isinstance(r, (And, Or)):
        return type(r)(tuple(as_formula(c) for c in r.children))
    kinds = list(r.kinds)
    if isinstance(r, Exists):
        body = [as_formula(r.body)] if r.body is not None else []
        return Quant("exists", r.var, conjunction(kinds + body))
    body = as_formula(r.body)
    return Quant("forall", r.var, Implies(conjunction(kinds), body) if kinds else body)


def _model(d: dict) -> dict:
    """A candidate scene (elements 1..size) as the one model checker's model."""
    return {"domain": list(range(1, d["size"] + 1)), "constants": d["constants"], "functions": {},
            "atoms": {(s, e) for e, s in d["sorts"]} | {(p, *args) for p, args in d["facts"]}}


def _spent(timed_out: bool) -> PrologError:
    """The error of a search whose budget its pages have spent (as the worker raises it within one)."""
    return (PrologError("Prolog time limit exceeded", timed_out=True) if timed_out
            else PrologError("Prolog inference budget exceeded", reason="inference_limit"))


def to_term(r: Restricted | None, tag: str) -> str:
    """`r` as a situations.pl term; variables `V<tag>_<name>`, names and predicates quoted."""
    match r:
        case None:
            return "true"
        case Atom(pred, args):
            return f"rel({quote(pred)},[{','.join(_arg(t, tag) for t in args)}])"
        case And(children) | Or(children):
            op = "and" if isinstance(r, And) else "or"
            return f"{op}([{','.join(to_term(c, tag) for c in children)}])"
        case Exists(var, kinds, body) | Every(var, kinds, body):
            op = "ex" if isinstance(r, Exists) else "every"
            return f"{op}(V{tag}_{var},{_list(k.pred for k in kinds)},{to_term(body, tag)})"
    raise TypeError(f"not a restricted formula: {r!r}")


def _arg(t, tag: str) -> str:
    return f"V{tag}_{t.name}" if isinstance(t, Var) else quote(t.name)


def _list(items) -> str:
    return "[" + ",".join(quote(i) for i in items) + "]"


def _name_kinds(atoms: list[Atom]) -> dict[str, list[str]]:
    """The nouns said of each name (`walker(TM)`): the sorts its element may take."""
    kinds: dict[str, set[str]] = {}
    for x in atoms:
        if len(x.args) == 1 and isinstance(x.args[0], Const):
            kinds.setdefault(x.args[0].name, set()).add(x.pred)
    return {name: sorted(ks) for name, ks in sorted(kinds.items())}


def _name_list(kinds: dict[str, list[str]]) -> str:
    return "[" + ",".join(f"{quote(n)}-{_list(ks)}" for n, ks in kinds.items()) + "]"


def _atoms(r: Restricted | None) -> list[Atom]:
    match r:
        case None:
            return []
        case Atom():
            return [r]
        case And(children) | Or(children):
            return [a for c in children for a in _atoms(c)]
        case Exists(_, kinds, body) | Every(_, kinds, body):
            return list(kinds) + _atoms(body)
    raise TypeError(r)


def _event_vars(r: Restricted) -> set[str]:
    """Variables first in a binary atom (events), never second (participants: `agent(x, x)`)."""
    binary = [x for x in _atoms(r) if len(x.args) == 2]
    second = {x.args[1].name for x in binary if isinstance(x.args[1], Var)}
    return {x.args[0].name for x in binary if isinstance(x.args[0], Var)} - second


def degenerate_roles(r: Restricted) -> list[Atom]:
    """Role atoms said of a name, or of a variable that is a participant (`agent(x, x)`)."""
    from ambit.logic.explain.verbalise import ROLES

    events = _event_vars(r)
    return [x for x in _atoms(r) if x.pred in ROLES and len(x.args) == 2
            and not (isinstance(x.args[0], Var) and x.args[0].name in events)]


def _event_sorts(r: Restricted) -> set[str]:
    """Sorts given to event variables (their verbs)."""
    evs = _event_vars(r)
    return {x.pred for x in _atoms(r) if len(x.args) == 1 and isinstance(x.args[0], Var) and x.args[0].name in evs}


def _functional(atoms: list[Atom]) -> set[str]:
    """Binary predicates whose first argument is always an event: each event has one agent, ..."""
    second = {x.args[1] for x in atoms if len(x.args) == 2}
    binary = {x.pred for x in atoms if len(x.args) == 2}
    return {p for p in binary
            if all(isinstance(x.args[0], Var) and x.args[0] not in second for x in atoms if x.pred == p)}


def _presupposed(r: Restricted | None) -> set[str]:
    match r:
        case Every(_, kinds, body):
            return ({kinds[0].pred} if len(kinds) == 1 else set()) | _presupposed(body)
        case Exists(_, _, body):
            return _presupposed(body)
        case And(children) | Or(children):
            return set().union(*(_presupposed(c) for c in children))
    return set()


def _required(r: Restricted | None) -> set[str]:
    """Sorts without which `r` cannot be true: the kinds of its existentials outside any OR
    (under a universal too, whose restrictor is presupposed not empty)."""
    match r:
        case Exists(_, kinds, body):
            return ({kinds[0].pred} if len(kinds) == 1 else set()) | _required(body)
        case Every(_, _, body):
            return _required(body)
        case And(children):
            return set().union(*(_required(c) for c in children))
    return set()


def _scene(d: dict, event_sorts: set[str], bound: int) -> Scene:
    """Name Prolog's elements: e1, ... for events, a noun's initial, a name in lower case."""
    sorts = {int(e): s for e, s in d["sorts"]}
    named = {int(e): c for c, e in d["constants"].items()}
    elements = range(1, d["size"] + 1)
    noun_sorts = sorted({s for e, s in sorts.items() if s not in event_sorts and e not in named})
    initials = [s[0] for s in noun_sorts] + (["e"] if any(s in event_sorts for s in sorts.values()) else [])
    prefix = {s: s[0] if initials.count(s[0]) == 1 else s for s in noun_sorts}
    names: dict[int, str] = {}
    counts: dict[str, int] = {}
    for e in elements:
        if e in named:
            base = named[e].lower()
            names[e] = base if base not in names.values() else f"{base}{e}"
        else:
            s = sorts.get(e, "")
            p = "e" if s in event_sorts else prefix.get(s, "u")
            counts[p] = counts.get(p, 0) + 1
            names[e] = f"{p}{counts[p]}"
    return Scene(domain=tuple(names[e] for e in elements),
                 sorts={names[e]: s for e, s in sorts.items()},
                 constants={c: names[int(e)] for c, e in d["constants"].items()},
                 facts=tuple((p, tuple(names[int(x)] for x in args)) for p, args in d["facts"]),
                 events=frozenset(names[e] for e, s in sorts.items() if s in event_sorts),
                 searched_from=d["from"], bound=bound)


__all__ = ["Scene", "find_scene", "to_term"]
