"""The one evidence schema of the engine (whatever the dialect: AmP's formats through
equivalence.py's first stage, every format through prove.py): one `Verdict` for equivalence, one
`Decision` for a story, and one list of reasons for UNKNOWN.

A reason is named only where it is true:
  time_limit        the item's seconds ran out (Prolog stopped it: call_with_time_limit/2)
  inference_limit   a stage ran out of its inference budget
  memory_limit      a stage ran out of stack (SWI's resource error)
  domain_limit      no model up to the largest domain searched, and no proof either
  outside_fragment  no longer given (AmP's first stage now always goes on to the one engine, whose
                    reasons are the four above); kept so that old results still read
The evidence of a definite answer is JSON (`witness` of a Verdict, the fields of a Decision),
documented field by field in proto/v1/ambit.proto next to `witness_json`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

VERDICTS = ("EQUIVALENT", "NOT_EQUIVALENT", "UNKNOWN")
DECISIONS = ("TRUE", "FALSE", "UNCERTAIN", "INCONSISTENT", "UNKNOWN")
REASONS = ("time_limit", "inference_limit", "memory_limit", "domain_limit", "outside_fragment")


def worst(reasons: list[str]) -> str:
    """The reason to report when several stages were stopped: the first in REASONS order."""
    for r in REASONS:
        if r in reasons:
            return r
    raise ValueError(f"no reason among {reasons!r}; expected some of {REASONS}")


@dataclass(frozen=True)
class Verdict:
    """The answer for one pair: `verdict` in VERDICTS; each direction True/False, or None when
    undecided; `witness` a countermodel (NOT_EQUIVALENT), how it was proved, or (UNKNOWN)
    `{"reason": one of REASONS}`."""

    verdict: str
    a_entails_b: bool | None
    b_entails_a: bool | None
    witness: dict | None = None

    @property
    def is_checked(self) -> bool:
        """Whether ambit checked the evidence itself: False where the witness says `checked:
        false` (the portfolio: a part settled on E's or Z3's word alone, `unchecked` says by whom)."""
        return (self.witness or {}).get("checked", True) is not False

    @property
    def reason(self) -> str | None:
        """UNKNOWN: the reason (one of REASONS); None otherwise."""
        return (self.witness or {}).get("reason") if self.verdict == "UNKNOWN" else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """A story's verdict (one of DECISIONS) with its evidence: `proof` (steps; each names the
    clause it uses and where that clause came from: a premise index, `negated_conclusion`,
    `conclusion`, `equality`), `premises_used` (indices), `countermodel` / `model`
    (domain, constants, functions, true atoms); when UNKNOWN, `reason` is one of REASONS.

    `entailed` (premises ⊨ conclusion) and `refuted` (premises ⊨ ¬conclusion) are the story's two
    parts, True/False each, None where undecided: a verdict is the pair of them (TRUE: True/False,
    FALSE: False/True, UNCERTAIN: False/False, INCONSISTENT: True/True), and an UNKNOWN verdict
    can still settle one of them, with its proof or checked model as evidence.

    `checked`: whether ambit checked the evidence of every settled part itself (set by the
    portfolio, False where a part rests on another prover's word: E's derivation or Z3's unsat
    core that ambit's engine did not re-prove, or E's saturation without a model); None (Prolog
    alone) means checked, as every answer of ambit's own engine is (`is_checked`).

    `reading`: how the story's formulas were read (dialect.py's `Reading`: the dialect, its
    free-variable policy, and which formulas had free variables closed under ∀)."""

    verdict: str
    premises_used: list[int] = field(default_factory=list)
    proof: list[dict] | None = None
    countermodel: dict | None = None
    model: dict | None = None
    reason: str | None = None
    entailed: bool | None = None
    refuted: bool | None = None
    checked: bool | None = None
    reading: dict | None = None  # how the formulas were read (logic.syntax.reading.Reading): dialect, free_variables

    @property
    def is_checked(self) -> bool:
        """Whether the evidence was checked by ambit (what summaries count)."""
        return self.checked is not False

    @property
    def budget(self) -> str | None:
        """The spent budget when UNKNOWN (the reason, under the name the wire's
        `unknown_budget` field has)."""
        return self.reason

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set (a shallow dict: the evidence is plain JSON values already)."""
        return {k: v for k in _DECISION_FIELDS if (v := getattr(self, k)) is not None}


_DECISION_FIELDS = tuple(f.name for f in fields(Decision))

__all__ = ["DECISIONS", "Decision", "REASONS", "VERDICTS", "Verdict", "worst"]
