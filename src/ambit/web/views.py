"""The service core's answers as JSON for the pages: plain dicts of the same fields the RPCs
return, with a few derived views a page needs (an LF in both of AmP's notations)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ambit.logic.syntax.dialect import AMP_NAMES
from ambit import logic
from ambit.server.service import Distribution, EquivalenceAnswer, RaddAnswer, ServiceError
from ambit.server.service.errors import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, PrologExhausted, WorkerLost,
)

# a ServiceError kind -> the HTTP status (the gRPC status's nearest HTTP counterpart)
STATUS = (
    (MalformedLF, 400), (InvalidField, 400), (ModelUnavailable, 409), (Overloaded, 429),
    (PrologExhausted, 422), (DeadlineExceeded, 504), (Cancelled, 499), (WorkerLost, 503),
)


def error(e: ServiceError) -> tuple[int, dict[str, Any]]:
    """(HTTP status, body) for a failure of the service core: the message, and the field and
    reason where the input was at fault (a parse error's position too)."""
    status = next((code for kind, code in STATUS if isinstance(e, kind)), 500)
    body: dict[str, Any] = {"error": e.message, "kind": type(e).__name__, "status": status}
    if isinstance(e, InvalidField):
        body.update(field=e.field, reason=e.reason)
    if isinstance(e, MalformedLF):
        body["position"] = e.error.pos
    return status, body


def equivalence(answer: EquivalenceAnswer) -> dict[str, Any]:
    v = answer.verdict
    return {"verdict": v.verdict, "a_entails_b": v.a_entails_b, "b_entails_a": v.b_entails_a,
            "canonical_a": answer.canonical_a, "canonical_b": answer.canonical_b,
            "witness": v.witness, "checked": v.is_checked}


def decision(d: logic.Decision, premises: list[str], conclusion: str) -> dict[str, Any]:
    return {**d.to_dict(), "premises": premises, "conclusion": conclusion, "checked": d.is_checked}


def radd(answer: RaddAnswer) -> dict[str, Any]:
    return {"instance": answer.instance.to_dict(), "result": answer.result.to_dict()}


def notations(lf: str, fmt: str) -> dict[str, str]:
    """An AmP LF in fol and in lisp (what a reading shows beside its canonical form)."""
    out = {fmt: lf}
    for other in AMP_NAMES:
        if other != fmt:
            try:
                out[other] = logic.convert(lf, fmt, other)
            except (logic.LFParseError, ValueError):
                out[other] = ""
    return out


def distribution(dist: Distribution, fmt: str) -> dict[str, Any]:
    """A parse distribution: candidates best first (each with its class), classes by mass, each
    class's canonical form in fol and lisp, and the explanation when one was asked for."""
    candidates = [{
        "text": c.text, "probability": c.probability, "logprob": c.logprob, "min_prob": c.min_prob,
        "tokens": c.tokens, "token_probs": c.token_probs, "parse_status": c.parse_status,
        "canonical": c.canonical, "meaning_class": c.meaning_class,
        "parse_error": None if c.parse_error is None else str(c.parse_error),
    } for c in dist.candidates]
    classes = [{**asdict(k), "notations": notations(k.canonical, fmt)} for k in dist.classes]
    return {"model_id": dist.model_id, "prompt": dist.prompt, "format": fmt, "candidates": candidates,
            "classes": classes, "classes_exact": dist.classes_exact, "unparsed_mass": dist.unparsed_mass,
            "explanation": None if dist.explanation is None else dist.explanation.to_dict()}
