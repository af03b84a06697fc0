"""The portfolio's questions (``logic.provers.portfolio``), cut into parts, a prover's answer
for one part, and the budget every prover of a race shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ambit.logic.engine.budget import Budget  # noqa: F401  (the one budget; the portfolio's members take it)
from ambit.logic.syntax.ast import Formula, Not

STORY_PARTS = ("with_negated_conclusion", "with_conclusion")
EQUIV_PARTS = ("a_not_b", "b_not_a")


@dataclass(frozen=True)
class Part:
    """Is `axioms ∧ ¬conjecture` satisfiable? (`formulas` is that set.)"""

    name: str
    axioms: tuple[Formula, ...]
    conjecture: Formula

    @property
    def formulas(self) -> list[Formula]:
        return [*self.axioms, Not(self.conjecture)]


@dataclass(frozen=True)
class Question:
    """A story (premises, conclusion) or a pair (a, b), cut into parts."""

    kind: str  # "story" or "equiv"
    parts: tuple[Part, ...]
    premises: tuple[Formula, ...] = ()
    conclusion: Formula | None = None
    pair: tuple[Formula, Formula] | None = None
    amp: str | None = None  # an AmP pair: its format (`fol`, `lisp`); Prolog's first stage is AmP's procedure


def story(premises: Sequence[Formula], conclusion: Formula) -> Question:
    """The two parts of a story: can the conclusion be false, and can it be true, given the premises?"""
    ps = tuple(premises)
    return Question("story", (Part(STORY_PARTS[0], ps, conclusion), Part(STORY_PARTS[1], ps, Not(conclusion))),
                    premises=ps, conclusion=conclusion)


def pair(a: Formula, b: Formula, amp: str | None = None) -> Question:
    """The two parts of a pair: a without b, and b without a (`amp`: the AmP format the pair came in)."""
    return Question("equiv", (Part(EQUIV_PARTS[0], (a,), b), Part(EQUIV_PARTS[1], (b,), a)), pair=(a, b), amp=amp)


@dataclass(frozen=True)
class Answer:
    """A prover's definite answer ("unsat" or "sat") for one part, with its evidence."""

    part: str
    prover: str
    status: str
    evidence: dict = field(default_factory=dict)
    seconds: float = 0.0
    checked: bool = True

    @property
    def final(self) -> bool:
        """Whether this answer ends the part's race: checked, or a proof that can be re-proved."""
        return self.checked or (self.status == "unsat" and "premises_used" in self.evidence)
