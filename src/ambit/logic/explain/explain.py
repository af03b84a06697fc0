"""`explain_readings`: paraphrases, distinguishing situations and a clarification question for
an utterance's candidate LFs, made from the restricted reading of AmP's universals; the literal
equivalence checker decides which readings are one meaning."""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from ambit.logic.syntax.dialect import FOL
from ambit.logic.syntax.ast import And, Formula, Or
from ambit.logic.engine.equivalence import equivalent_batch
from ambit.logic.syntax.parse import parse
from ambit.logic.runtime.worker import PrologError
from ambit.logic.explain.describe import describe, facts
from ambit.logic.explain.read import OPENERS
from ambit.logic.explain.restricted import Every, Exists, Restricted, restrict
from ambit.logic.explain.situations import degenerate_roles, find_scene
from ambit.logic.explain.verbalise import verbalise
from ambit.logic.explain.wordforms import WordForms

QUANTIFIERS = "restricted"


@dataclass(frozen=True)
class Reading:
    lf: str
    paraphrase: str
    weight: float | None = None


@dataclass(frozen=True)
class Situation:
    """A least scene in which reading `holds` is true and reading `fails` false."""

    holds: int
    fails: int
    domain: list[str]
    constants: dict[str, str]
    facts: list[str]
    description: str
    size: int
    searched_from: int  # every domain size from here up to `size` - 1 was searched in full
    bound: int


@dataclass(frozen=True)
class Question:
    """"Do you mean (a) ... or (b) ...?", and a yes/no question about `situation`."""

    text: str
    readings: list[int]
    yes_no: str | None = None
    situation: int | None = None
    answers: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Explanation:
    utterance: str
    format: str
    readings: list[Reading]
    situations: list[Situation]
    question: Question | None
    note: str | None = None
    quantifiers: str = QUANTIFIERS

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def explain_readings(utterance: str, lfs: Sequence[str], fmt: str = FOL,
                     lexicon: WordForms | None = None, weights: Sequence[float] | None = None,
                     time_limit: float | None = None, inferences: int | None = None) -> Explanation:
    """Explain the readings `lfs` of `utterance`; `weights` choose the two readings the question is
    about (default: the first two). `inferences` bounds each scene search, a budget that answers
    the same on any machine however loaded. A budget is never an exception: an unsettled pair counts
    as two readings, a search over it is given up, and `note` names both."""
    if weights is not None and len(weights) != len(lfs):
        raise ValueError(f"{len(weights)} weights for {len(lfs)} LFs")
    formulas: list[Formula] = [parse(lf, fmt) for lf in lfs]
    words = (lexicon or WordForms()).covering(formulas)
    readings = [Reading(lf, verbalise(f, words), None if weights is None else float(weights[i]))
                for i, (lf, f) in enumerate(zip(lfs, formulas))]
    pairs = list(itertools.combinations(range(len(formulas)), 2))
    limit = {} if time_limit is None else {"time_limit": time_limit}
    scene_limit = {**limit, **({} if inferences is None else {"inferences": inferences})}
    verdicts = dict(zip(pairs, equivalent_batch([(formulas[i], formulas[j]) for i, j in pairs], **limit)))
    distinct = _representatives(len(formulas), verdicts)
    unsettled = [(i, j, v.reason) for (i, j), v in verdicts.items() if v.verdict == "UNKNOWN"]
    if len(distinct) < 2:
        why = "one reading" if len(formulas) == 1 else "the readings are equivalent"
        return Explanation(utterance, fmt, readings, [], None, f"nothing to tell apart: {why}")
    restricted = {i: restrict(formulas[i]) for i in distinct}
    situations: list[Situation] = []
    gave_up: list[tuple[int, int, str]] = []
    for i, j in itertools.combinations(distinct, 2):
        v = verdicts[(i, j)]
        for holds, fails, entailed in ((i, j, v.a_entails_b), (j, i, v.b_entails_a)):
            if entailed and not (_universal(restricted[holds]) or _universal(restricted[fails])):
                continue  # no universal: literal = restricted reading, and the prover showed no scene
            try:
                scene = find_scene(restricted[holds], restricted[fails], **scene_limit)
            except PrologError as e:
                if e.reason in ("error", "cancelled"):  # a bug, or a caller gone: not a budget
                    raise
                gave_up.append((holds, fails, e.reason))
                continue
            if scene is not None:
                situations.append(Situation(holds, fails, list(scene.domain), scene.constants, facts(scene, fmt),
                                            describe(scene, words), len(scene.domain), scene.searched_from,
                                            scene.bound))
    a, b = sorted(distinct, key=lambda k: -(weights[k] if weights is not None else -k))[:2]
    note = "; ".join(filter(None, (_degenerate(formulas), _note(situations, gave_up, time_limit, unsettled)))) or None
    return Explanation(utterance, fmt, readings, situations, _question(utterance, readings, situations, a, b), note)


def _note(situations: list[Situation], gave_up: list[tuple[int, int, str]], time_limit: float | None,
          unsettled: list[tuple[int, int, str | None]] = ()) -> str | None:
    """What the situations leave out: unsettled pairs, searches given up, or none found at all."""
    parts = []
    if unsettled:
        which = "; ".join(f"readings {i} and {j} ({why or 'unknown'})" for i, j, why in unsettled)
        parts.append(f"whether these readings are equivalent was not settled within the Prolog budget: {which}; "
                     "they are told apart as if they were not")
    if gave_up:
        budget = f" of {time_limit:g} s" if time_limit is not None else ""
        which = "; ".join(f"reading {h} true, reading {f} false" + ("" if why == "time_limit" else f": {why}")
                          for h, f, why in gave_up)
        parts.append(f"the search for a situation ({which}) ran out of its Prolog budget{budget}; "
                     "a larger budget (--prolog-seconds) may find one")
    elif not situations:
        parts.append("no situation within the search bound tells the readings apart")
    return "; ".join(parts) or None


def _degenerate(formulas: Sequence[Formula]) -> str | None:
    """Readings that say a role of something that is no event (`agent(x, x)`, a model's slip)."""
    from ambit.logic.syntax.render import render

    found = [(k, bad) for k, f in enumerate(formulas) if (bad := degenerate_roles(restrict(f)))]
    if not found:
        return None
    which = "; ".join(f"reading {k}: {', '.join(render(x, FOL) for x in bad)}" for k, bad in found)
    return (f"degenerate reading{'s' if len(found) > 1 else ''} ({which}): a role (agent, patient, instrument) "
            "relates an event to a participant, and here it is said of something that is no event")


def _representatives(n: int, verdicts: dict) -> list[int]:
    """One index per class of literally equivalent readings (the first of each)."""
    reps: list[int] = []
    for k in range(n):
        if not any(verdicts[(r, k)].verdict == "EQUIVALENT" for r in reps):
            reps.append(k)
    return reps


def _universal(r: Restricted | None) -> bool:
    match r:
        case Every():
            return True
        case Exists(_, _, body):
            return _universal(body)
        case And(children) | Or(children):
            return any(_universal(c) for c in children)
    return False


def _question(utterance: str, readings: list[Reading], situations: list[Situation], a: int, b: int) -> Question:
    text = f"Do you mean (a) {_inline(readings[a].paraphrase)}, or (b) {_inline(readings[b].paraphrase)}?"
    for k, s in enumerate(situations):
        if {s.holds, s.fails} == {a, b}:
            ask = f"Suppose this: {s.description} Would you say \"{utterance}\" then?"
            return Question(text, [a, b], ask, k, {"yes": s.holds, "no": s.fails})
    return Question(text, [a, b])


def _inline(paraphrase: str) -> str:
    """A paraphrase inside a question: no full stop, no capital unless it starts with a name."""
    first = paraphrase.split(" ", 1)[0]
    text = paraphrase[:-1]
    return text[0].lower() + text[1:] if first.lower() in OPENERS else text
