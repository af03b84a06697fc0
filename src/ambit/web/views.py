"""The service core's answers as JSON for the pages: plain dicts of the same fields the RPCs
return, with a few derived views a page needs (an LF in both of AmP's notations)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from starlette.responses import JSONResponse

from ambit.logic.syntax.dialect import AMP_NAMES
from ambit import logic
from ambit.server.service import Distribution, EquivalenceAnswer, RaddAnswer, ServiceError
from ambit.server.service.deadline import Refused
from ambit.server.service.errors import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, PrologExhausted, WorkerLost,
)
from ambit.web.errors import error_body

# a ServiceError kind -> the HTTP status (the gRPC status's nearest HTTP counterpart) and the code
STATUS = (
    (MalformedLF, 400, "LF_PARSE_ERROR"), (InvalidField, 400, "INVALID_FIELD"),
    (ModelUnavailable, 409, "MODEL_UNAVAILABLE"), (Refused, 503, "OVERLOADED"), (Overloaded, 503, "OVERLOADED"),
    (PrologExhausted, 422, "PROLOG_EXHAUSTED"), (DeadlineExceeded, 504, "DEADLINE_EXCEEDED"),
    (Cancelled, 499, "CANCELLED"), (WorkerLost, 503, "UNAVAILABLE"),
)


def error(e: ServiceError) -> tuple[int, dict[str, Any]]:
    """(HTTP status, body) for a failure of the service core, in the one error shape."""
    status, code = next(((s, c) for kind, s, c in STATUS if isinstance(e, kind)), (500, "INTERNAL"))
    field = position = hint = None
    message = e.message
    if isinstance(e, InvalidField):
        code, field, message = e.reason, e.field, e.description
        position = getattr(e, "position", None)
    if isinstance(e, MalformedLF):
        position = e.error.pos
    if isinstance(e, Refused) and e.per_client:
        status, code = 429, "TOO_MANY_REQUESTS"
    if isinstance(e, PrologExhausted):
        hint = f"the check ran out of Prolog's {e.reason.replace('_', ' ')}: simplify it, or ask for more time"
    if getattr(e, "status", None):  # an edge's own refusal (a body too large: 413)
        status, code = e.status, e.code
    return status, error_body(code, message, field, position, hint)


def error_response(e: ServiceError) -> JSONResponse:
    status, body = error(e)
    retry = getattr(e, "retry_after_s", None)
    if retry is None and status == 503:
        retry = 1.0
    headers = {"retry-after": str(max(1, round(retry)))} if retry is not None else None
    return JSONResponse(body, status_code=status, headers=headers)


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
    """A parse distribution: candidates best first, classes by mass (canonical in fol and lisp)."""
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
