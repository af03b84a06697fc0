"""Readings explained (`logic.explain`), for an utterance's LFs or a distribution's meaning
classes; each Prolog call within the request's budget (run out: DEADLINE_EXCEEDED)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from ambit.logic.syntax.dialect import FOL
from ambit import logic
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.explain import Explanation, WordForms, explain_readings, verbalise
from ambit.logic.runtime.worker import PrologError

from ambit.server.guard.limits import Limits
from ambit.server.service import validate
from ambit.server.service.deadline import Deadline
from ambit.server.service.distribution import Distribution
from ambit.server.service.errors import DeadlineExceeded, InvalidField

MAX_READINGS = 16  # LFs per request: the scene search runs once or twice per pair of readings


@dataclass(frozen=True)
class ExplainQuery:
    """An utterance and its readings; `weights` (one per LF) choose the two a question is about."""

    utterance: str
    lfs: tuple[str, ...]
    fmt: str = FOL
    weights: tuple[float, ...] = ()
    time_limit_s: float = 0.0  # Prolog budget per call; 0: the server default


def explain(query: ExplainQuery, limits: Limits, deadline: Deadline, default_s: float) -> Explanation:
    """The explanation of `query`'s readings; a malformed LF is InvalidField `lfs[i]`."""
    validate.text(query.utterance, "utterance", limits.max_prompt_chars)
    if not query.lfs:
        raise InvalidField("lfs", "at least one LF is needed", reason="EMPTY")
    if len(query.lfs) > MAX_READINGS:
        raise InvalidField("lfs", f"{len(query.lfs)} LFs; the limit is {MAX_READINGS}", reason="TOO_MANY")
    for i, lf in enumerate(query.lfs):
        validate.lf(lf, query.fmt, f"lfs[{i}]", limits.max_lf_chars)
    weights = _weights(query.weights, len(query.lfs))
    budget = deadline.budget(query.time_limit_s, default_s)
    return _within(budget, deadline, query.utterance, list(query.lfs), query.fmt, amp_wordforms(), weights)


def _within(budget: float, deadline: Deadline, utterance: str, lfs: list[str], fmt: str, words: WordForms,
            weights: list[float] | None) -> Explanation:
    """`explain_readings` with each Prolog call bounded by `budget`, then the deadline checked."""
    try:
        out = explain_readings(utterance, lfs, fmt, lexicon=words, weights=weights, time_limit=budget)
    except PrologError as e:
        if e.timed_out:
            raise DeadlineExceeded(f"Prolog budget of {budget:.2f} s exhausted") from None
        raise
    deadline.check()
    return out


def _weights(weights: Sequence[float], n: int) -> list[float] | None:
    """The weights (None when none); InvalidField unless one finite, non-negative weight per LF."""
    if not weights:
        return None
    if len(weights) != n:
        raise InvalidField("weights", f"{len(weights)} weights for {n} LFs; give one per LF or none",
                           reason="COUNT_MISMATCH")
    for i, w in enumerate(weights):
        if not math.isfinite(w) or w < 0:
            raise InvalidField(f"weights[{i}]", f"{w} is not a finite non-negative number", reason="OUT_OF_RANGE")
    return list(weights)


def explain_classes(dist: Distribution, utterance: str, fmt: str, deadline: Deadline, default_s: float) -> None:
    """Paraphrase every meaning class of `dist`; explain the two heaviest (`dist.explanation`)."""
    if not dist.classes:
        return
    formulas = [logic.parse(c.canonical, fmt) for c in dist.classes]
    words = amp_wordforms().covering(formulas)
    dist.classes = [replace(c, paraphrase=verbalise(f, words)) for c, f in zip(dist.classes, formulas)]
    if len(dist.classes) < 2:
        return
    top = dist.classes[:2]
    budget = deadline.budget(0, default_s)
    dist.explanation = _within(budget, deadline, utterance, [c.canonical for c in top], fmt, words,
                               [c.probability_mass for c in top])
