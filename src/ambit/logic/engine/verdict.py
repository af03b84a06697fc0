"""The one evidence schema of the engine, whatever the dialect: `Verdict` for equivalence,
`Decision` for a story, and one list of reasons for UNKNOWN.

A reason is named only where it is true:
  time_limit        the item's seconds ran out (Prolog stopped it: call_with_time_limit/2)
  inference_limit   a stage ran out of its inference budget
  memory_limit      a stage ran out of stack (SWI's resource error)
  domain_limit      no model up to the largest domain searched, and no proof either
  outside_fragment  no longer given; kept so that old results still read
Evidence is JSON, documented in proto/v1/ambit.proto next to `witness_json`.
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
    """One pair's `verdict` (VERDICTS), each direction (None: undecided), and its `witness`."""

    verdict: str
    a_entails_b: bool | None
    b_entails_a: bool | None
    witness: dict | None = None

    @property
    def is_checked(self) -> bool:
        """Whether ambit checked the evidence itself (False on E's or Z3's word alone)."""
        return (self.witness or {}).get("checked", True) is not False

    @property
    def reason(self) -> str | None:
        """UNKNOWN: the reason (one of REASONS); None otherwise."""
        return (self.witness or {}).get("reason") if self.verdict == "UNKNOWN" else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """A story's verdict (one of DECISIONS) with its evidence; `entailed` (premises ⊨ conclusion)
    and `refuted` (⊨ ¬conclusion) make it (TRUE: True/False, INCONSISTENT: True/True, ...), and
    an UNKNOWN can settle one. `checked`: False where a part rests on E's or Z3's word alone."""

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
        """The spent budget when UNKNOWN (the reason, as the wire's `unknown_budget` names it)."""
        return self.reason

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, a subclass's too (shallow: the evidence is plain JSON)."""
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}


__all__ = ["DECISIONS", "Decision", "REASONS", "VERDICTS", "Verdict", "worst"]
