"""Conversions of the logic RPCs between their protobuf messages and the core's values."""

from __future__ import annotations

import json
import re
from typing import Any

from ambit.proto.v1 import ambit_pb2 as pb

from ambit.logic.explain import Explanation
from ambit.logic.syntax.dialect import FOLIO, dialects

from ambit.server.convert.common import FORMATS, enum, formats
from ambit.server.service import (
    CanonicalQuery, InvalidField, EntailmentQuery, EquivalenceAnswer, EquivalenceQuery, ExplainQuery, RaddAnswer, RaddQuery,
)

FORMAT_ENUM = {d.name: pb.LFFormat.Value(d.wire) for d in dialects()}  # a dialect name → its LFFormat value
FOL_DIALECTS = formats(lambda d: d.full, None)  # the full first-order dialects
EQUIVALENCE_FORMATS = {**FORMATS, **FOL_DIALECTS}  # CheckEquivalence: AmP's formats and full FOL
ENTAILMENT_FORMATS = {**EQUIVALENCE_FORMATS, pb.LF_FORMAT_UNSPECIFIED: FOLIO}  # CheckEntailment
VAR_NAMINGS = {pb.VAR_NAMING_UNSPECIFIED: "amp", pb.VAR_NAMING_AMP: "amp", pb.VAR_NAMING_V: "v"}
FREE_VARIABLES = {pb.FREE_VARIABLES_UNSPECIFIED: None, pb.FREE_VARIABLES_UNIVERSAL: "universal",
                  pb.FREE_VARIABLES_CONSTANT: "constant", pb.FREE_VARIABLES_ERROR: "error"}
SYMBOLS = {pb.SYMBOLS_UNSPECIFIED: None, pb.SYMBOLS_SHARED: "shared", pb.SYMBOLS_SEPARATE: "separate"}
VERDICTS = {"EQUIVALENT": pb.VERDICT_EQUIVALENT, "NOT_EQUIVALENT": pb.VERDICT_NOT_EQUIVALENT,
            "UNKNOWN": pb.VERDICT_UNKNOWN}
CONSISTENCY = {"consistent": pb.CONSISTENCY_CONSISTENT, "inconsistent": pb.CONSISTENCY_INCONSISTENT,
               "undetermined": pb.CONSISTENCY_UNKNOWN}


def _seconds(ms: int) -> float:
    """A request's `time_limit_ms` as seconds, the unit of everything above the wire."""
    return ms / 1000.0


# --------------------------------------------------------------------------- equivalence, canonical forms, RADD

def equivalence_query(req: pb.CheckEquivalenceRequest, field: str = "") -> EquivalenceQuery:
    fmt = enum(EQUIVALENCE_FORMATS, req.format, f"{field}format", "LFFormat")
    free = enum(FREE_VARIABLES, req.free_variables, f"{field}free_variables", "FreeVariables")
    symbols = enum(SYMBOLS, req.symbols, f"{field}symbols", "Symbols")
    return EquivalenceQuery(req.a, req.b, fmt, _seconds(req.time_limit_ms), free, symbols)


def equivalence_response(req: pb.CheckEquivalenceRequest, answer: EquivalenceAnswer) -> pb.CheckEquivalenceResponse:
    v = answer.verdict
    out = pb.CheckEquivalenceResponse(
        request_id=req.request_id, canonical_a=answer.canonical_a, canonical_b=answer.canonical_b,
        verdict=VERDICTS.get(str(v.verdict), pb.VERDICT_UNKNOWN),
    )
    if v.a_entails_b is not None:
        out.a_entails_b = bool(v.a_entails_b)
    if v.b_entails_a is not None:
        out.b_entails_a = bool(v.b_entails_a)
    if v.witness is not None:
        out.witness_json = json.dumps(v.witness, sort_keys=True, default=str)  # deprecated: kept for one release
        equivalence_witness(out.witness, v.witness)
    return out


def equivalence_witness(target: pb.EquivalenceWitness, w: dict) -> None:
    """Fill `target` from a Verdict's witness dict."""
    for key in ("method", "method_a_entails_b", "method_b_entails_a", "direction", "true_in_model",
                "false_in_model", "reason"):
        if isinstance(w.get(key), str):
            setattr(target, key, w[key])
    for key in ("proof_a_entails_b", "proof_b_entails_a"):
        if isinstance(w.get(key), list):
            getattr(target, key).steps.extend(proof_step(s) for s in w[key])
    if isinstance(w.get("model"), dict):
        equivalence_model(target.model, w["model"])
    if isinstance(w.get("checked"), bool):
        target.checked = w["checked"]
    target.answered_by.update({str(k): str(v) for k, v in (w.get("answered_by") or {}).items()})
    if w.get("reading"):
        target.reading_json = json.dumps(w["reading"], sort_keys=True, ensure_ascii=False)


def equivalence_model(target: pb.Model, model: dict) -> None:
    """Fill a Model from the witness's model dict, with both its extensions and its true atoms."""
    target.domain.extend(str(d) for d in model.get("domain", []))
    target.constants.update({str(k): str(v) for k, v in model.get("constants", {}).items()})
    target.true_atoms.extend(_true_atoms(model))
    target.functions.update({str(k): str(v) for k, v in model.get("functions", {}).items()})
    _fill_extensions(target.extensions, model)


_ATOM = re.compile(r"^(?P<pred>.+?)\((?P<args>[^(),]+(?:, [^(),]+)*)\)$")


def extensions(model: dict) -> dict[str, list[list[str]]]:
    """Each predicate's true tuples: the model's `extensions`, else read from its `true_atoms`
    ("saw(d3, d1)": the last parenthesis holds the elements)."""
    if isinstance(model.get("extensions"), dict):
        return {str(p): [[str(e) for e in t] for t in ts] for p, ts in model["extensions"].items()}
    out: dict[str, list[list[str]]] = {}
    for atom in model.get("true_atoms", []):
        m = _ATOM.match(atom)
        pred, args = (m.group("pred"), m.group("args").split(", ")) if m else (atom, [])
        out.setdefault(pred, []).append(args)
    return out


def _true_atoms(model: dict) -> list[str]:
    if model.get("true_atoms") is not None:
        return [str(a) for a in model["true_atoms"]]
    return [f"{p}({', '.join(t)})" if t else p for p, ts in extensions(model).items() for t in ts]


def _fill_extensions(target, model: dict) -> None:
    for pred, tuples in sorted(extensions(model).items()):
        ext = target.add(predicate=pred, arity=len(tuples[0]) if tuples else 0)
        for t in tuples:
            ext.tuples.add(elements=t)


def _amp_format(value: int, field: str) -> str:
    """AmP's format named by `value`; a full first-order dialect has no canonical form."""
    if value in FOL_DIALECTS:
        raise InvalidField(field, f"{FOL_DIALECTS[value]} is not supported here: Canonicalize takes AmP's formats "
                           "(fol, lisp); a full first-order dialect has no canonical form (CheckEquivalence reads it)",
                           reason="UNSUPPORTED_FORMAT")
    return enum(FORMATS, value, field, "LFFormat")


def canonical_query(req: pb.CanonicalizeRequest) -> CanonicalQuery:
    fmt = _amp_format(req.format, "format")
    to = fmt if req.output_format == pb.LF_FORMAT_UNSPECIFIED else _amp_format(req.output_format, "output_format")
    return CanonicalQuery(req.lf, fmt, to, enum(VAR_NAMINGS, req.var_naming, "var_naming", "VarNaming"))


def canonical_response(req: pb.CanonicalizeRequest, canonical: str) -> pb.CanonicalizeResponse:
    """The format written is the one asked: `output_format`, else `format` (unspecified: fol)."""
    to = FORMATS[req.output_format or req.format]  # both read already (canonical_query)
    return pb.CanonicalizeResponse(request_id=req.request_id, canonical=canonical, format=FORMAT_ENUM[to])


def radd_query(req: pb.VerifyRADDRequest) -> RaddQuery:
    source = req.WhichOneof("instance_source")
    value = "" if source is None else getattr(req, source)
    return RaddQuery(source, value, _seconds(req.time_limit_ms))


def radd_response(req: pb.VerifyRADDRequest, answer: RaddAnswer) -> pb.VerifyRADDResponse:
    """ambit.logic.radd's verdict as the message: one interpretation per option, in option order."""
    result, chosen = answer.result, answer.result.answer_option
    out = pb.VerifyRADDResponse(
        request_id=req.request_id, answer="" if chosen is None else str(chosen),
        answer_option=chosen or 0, derivation=list(result.derivation), status=result.status,
        details_json=json.dumps(result.to_dict(), sort_keys=True, default=str),
    )
    for option in answer.instance.options:
        v = result.interpretations.get(option.reading)
        if v is None:
            out.interpretations.add(label=str(option.number), reading=option.reading, relation=option.relation,
                                    verdict=pb.CONSISTENCY_UNKNOWN)
            continue
        out.interpretations.add(
            label=str(option.number), verdict=CONSISTENCY.get(v.verdict, pb.CONSISTENCY_UNKNOWN),
            relation=v.relation, reading=v.reading,
            explanation="; ".join(v.findings) or (v.derivation[-1] if v.derivation else ""),
            premises=list(v.premises), derivation=list(v.derivation),
        )
    return out


# --------------------------------------------------------------------------- explaining

def explain_query(req: pb.ExplainReadingsRequest) -> ExplainQuery:
    fmt = enum(FORMATS, req.format, "format", "LFFormat")
    return ExplainQuery(req.utterance, tuple(req.lfs), fmt, tuple(req.weights), _seconds(req.time_limit_ms))


def explain_response(req: pb.ExplainReadingsRequest, e: Explanation) -> pb.ExplainReadingsResponse:
    out = explanation_message(e)
    out.request_id = req.request_id
    return out


def explanation_message(e: Explanation) -> pb.ExplainReadingsResponse:
    """`logic.explain`'s Explanation as the message (no request_id)."""
    out = pb.ExplainReadingsResponse(note=e.note or "", quantifiers=e.quantifiers)
    for r in e.readings:
        msg = out.readings.add(lf=r.lf, paraphrase=r.paraphrase)
        if r.weight is not None:
            msg.weight = r.weight
    for s in e.situations:
        out.situations.add(
            holds=s.holds, fails=s.fails, domain=s.domain, constants=s.constants, facts=s.facts,
            description=s.description, size=s.size, searched_from=s.searched_from, bound=s.bound,
        )
    q = e.question
    if q is not None:
        out.question.CopyFrom(pb.ClarificationQuestion(text=q.text, readings=q.readings, yes_no=q.yes_no or "",
                                                       answers=q.answers))
        if q.situation is not None:
            out.question.situation = q.situation
    return out


# --------------------------------------------------------------------------- entailment

ENTAILMENT_VERDICTS = {
    "TRUE": pb.ENTAILMENT_VERDICT_TRUE, "FALSE": pb.ENTAILMENT_VERDICT_FALSE,
    "UNCERTAIN": pb.ENTAILMENT_VERDICT_UNCERTAIN, "INCONSISTENT": pb.ENTAILMENT_VERDICT_INCONSISTENT,
    "UNKNOWN": pb.ENTAILMENT_VERDICT_UNKNOWN,
}


def entailment_query(req: pb.CheckEntailmentRequest, field: str = "") -> EntailmentQuery:
    fmt = enum(ENTAILMENT_FORMATS, req.format, f"{field}format", "LFFormat")
    free = enum(FREE_VARIABLES, req.free_variables, f"{field}free_variables", "FreeVariables")
    symbols = enum(SYMBOLS, req.symbols, f"{field}symbols", "Symbols")
    return EntailmentQuery(tuple(req.premises), req.conclusion, fmt, _seconds(req.time_limit_ms), free, symbols)


def proof_step(step: dict) -> pb.ProofStep:
    """One step of logic.Decision's proof; `from` is a premise index or the clause's origin."""
    origin = step.get("from", "")
    out = pb.ProofStep(step=step["step"], depth=step.get("depth", 0), clause=step.get("clause", 0),
                       literal=step.get("literal", ""), literals=step.get("literals", []),
                       uses=step.get("uses", []))
    if isinstance(origin, int):
        out.source, out.premise_index = "premise", origin
    else:
        out.source = origin
    return out


def finite_model(target: pb.FiniteModel, model: dict) -> None:
    """Fill `target` from logic.Decision's model dict, the tuples read from its true atoms."""
    target.domain.extend(model["domain"])
    target.constants.update(model["constants"])
    target.true_atoms.extend(model["true_atoms"])
    target.functions.update(model.get("functions", {}))
    _fill_extensions(target.extensions, model)


def entailment_response(req: pb.CheckEntailmentRequest, d: Any) -> pb.CheckEntailmentResponse:
    """The response for a `logic.Decision`."""
    out = pb.CheckEntailmentResponse(
        request_id=req.request_id, verdict=ENTAILMENT_VERDICTS[d.verdict], premises_used=d.premises_used,
        proof=[proof_step(s) for s in d.proof or []], unknown_budget=d.budget or "", reason=d.reason or "",
    )
    if getattr(d, "reading", None):
        out.reading_json = json.dumps(d.reading, sort_keys=True, ensure_ascii=False)
    out.answered_by.update(getattr(d, "answered_by", None) or {})
    out.tstp.update(getattr(d, "tstp", None) or {})
    if d.entailed is not None:
        out.entailed = d.entailed
    if d.refuted is not None:
        out.refuted = d.refuted
    if d.countermodel is not None:
        finite_model(out.countermodel, d.countermodel)
    if d.model is not None:
        finite_model(out.model, d.model)
    return out
