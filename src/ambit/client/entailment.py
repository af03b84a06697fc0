"""Entailment results on the client side: the CheckEntailment message as a plain dataclass
(verdict and evidence), and the request built from plain values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ambit.proto.v1 import ambit_pb2 as pb

VERDICTS = {
    pb.ENTAILMENT_VERDICT_TRUE: "TRUE", pb.ENTAILMENT_VERDICT_FALSE: "FALSE",
    pb.ENTAILMENT_VERDICT_UNCERTAIN: "UNCERTAIN", pb.ENTAILMENT_VERDICT_INCONSISTENT: "INCONSISTENT",
    pb.ENTAILMENT_VERDICT_UNKNOWN: "UNKNOWN", pb.ENTAILMENT_VERDICT_UNSPECIFIED: "UNSPECIFIED",
}


@dataclass(frozen=True)
class Entailment:
    """A story's verdict with its evidence (proof, premises used, models; for UNKNOWN the budget
    that ran out); `entailed` and `refuted` (⊨ ¬conclusion) are its parts, None where unsettled."""

    verdict: str
    premises_used: list[int]
    proof: list[dict]
    countermodel: dict | None
    model: dict | None
    unknown_budget: str
    reason: str
    entailed: bool | None = None
    refuted: bool | None = None
    answered_by: dict | None = None  # a portfolio server: part -> prover ("prolog", "eprover", "z3")
    tstp: dict | None = None  # a portfolio server: part -> E's TSTP derivation

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def request(request_id: str, premises: Sequence[str], conclusion: str, fmt: int,
            time_limit_ms: int) -> pb.CheckEntailmentRequest:
    return pb.CheckEntailmentRequest(request_id=request_id, premises=list(premises), conclusion=conclusion,
                                     format=fmt, time_limit_ms=time_limit_ms)


def _step(s: pb.ProofStep) -> dict:
    out: dict[str, Any] = {"step": s.step, "depth": s.depth, "source": s.source}
    if s.HasField("premise_index"):
        out["premise_index"] = s.premise_index
    if s.clause:
        out["clause"] = s.clause
    if s.literal:
        out["literal"] = s.literal
    if s.literals:
        out["literals"] = list(s.literals)
    return out


def _model(r: pb.CheckEntailmentResponse, name: str) -> dict | None:
    if not r.HasField(name):
        return None
    m = getattr(r, name)
    return {"domain": list(m.domain), "constants": dict(m.constants), "true_atoms": list(m.true_atoms),
            "functions": dict(m.functions)}


def entailment(r: pb.CheckEntailmentResponse) -> Entailment:
    """The dataclass for a CheckEntailment response."""
    return Entailment(
        verdict=VERDICTS.get(r.verdict, str(r.verdict)), premises_used=list(r.premises_used),
        proof=[_step(s) for s in r.proof], countermodel=_model(r, "countermodel"), model=_model(r, "model"),
        unknown_budget=r.unknown_budget, reason=r.reason,
        entailed=r.entailed if r.HasField("entailed") else None,
        refuted=r.refuted if r.HasField("refuted") else None,
        answered_by=dict(r.answered_by) or None, tstp=dict(r.tstp) or None,
    )
