"""Protobuf messages to the service core's values and back. Enum values the proto does not
define are the only errors raised here (INVALID_ARGUMENT, reason UNKNOWN_ENUM); every other
check belongs to the core."""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from proto.ambit.v1 import ambit_pb2 as pb

from logic.explain import Explanation

from .service import (
    CanonicalQuery, DecodingOptions, Distribution, EntailmentQuery, EquivalenceAnswer, EquivalenceQuery, ExplainQuery,
    GenerateQuery, InvalidField,
    ModelCounters, ParseQuery, PromptSpec, RaddAnswer, RaddQuery, ScoreQuery, ServerInfo, ServiceError,
    Vocabulary,
)
from .service import distribution
from .stats import Stats
from .status import item_status, ok_status

FORMATS = {pb.LF_FORMAT_UNSPECIFIED: "fol", pb.LF_FORMAT_FOL: "fol", pb.LF_FORMAT_LISP: "lisp"}
FORMAT_ENUM = {"fol": pb.LF_FORMAT_FOL, "lisp": pb.LF_FORMAT_LISP}
FOL_DIALECTS = {pb.LF_FORMAT_FOLIO: "folio", pb.LF_FORMAT_NLTK: "nltk", pb.LF_FORMAT_TPTP: "tptp"}
EQUIVALENCE_FORMATS = {**FORMATS, **FOL_DIALECTS}  # CheckEquivalence: AmP's formats and full FOL
ENTAILMENT_FORMATS = {**EQUIVALENCE_FORMATS, pb.LF_FORMAT_UNSPECIFIED: "folio"}  # CheckEntailment
VAR_NAMINGS = {pb.VAR_NAMING_UNSPECIFIED: "amp", pb.VAR_NAMING_AMP: "amp", pb.VAR_NAMING_V: "v"}
STRATEGIES = {
    pb.DECODING_STRATEGY_UNSPECIFIED: "beam", pb.DECODING_STRATEGY_BEAM: "beam", pb.DECODING_STRATEGY_SAMPLE: "sample",
}
SETTINGS = {
    pb.PROMPT_SETTING_UNSPECIFIED: "zeroshot", pb.PROMPT_SETTING_ZEROSHOT: "zeroshot",
    pb.PROMPT_SETTING_FEWSHOT: "fewshot",
}
VERDICTS = {
    "EQUIVALENT": pb.VERDICT_EQUIVALENT, "NOT_EQUIVALENT": pb.VERDICT_NOT_EQUIVALENT, "UNKNOWN": pb.VERDICT_UNKNOWN,
}
PARSE_STATUSES = {
    distribution.OK: pb.PARSE_STATUS_OK, distribution.INVALID: pb.PARSE_STATUS_INVALID,
    distribution.UNFINISHED: pb.PARSE_STATUS_UNFINISHED,
}
CONSISTENCY = {
    "consistent": pb.CONSISTENCY_CONSISTENT, "inconsistent": pb.CONSISTENCY_INCONSISTENT,
    "undetermined": pb.CONSISTENCY_UNKNOWN,
}


def enum(table: dict, value: int, field: str, enum_name: str) -> Any:
    """The domain value of a proto enum value; InvalidField for a value the table lacks."""
    try:
        return table[value]
    except KeyError:
        raise InvalidField(field, f"unknown {enum_name} value {value}", reason="UNKNOWN_ENUM") from None


# --------------------------------------------------------------------------- scoring


def score_query(req: pb.ScoreCandidatesRequest) -> ScoreQuery:
    return ScoreQuery(req.prompt, tuple(req.candidates), req.end_marker)


def score_response(req: pb.ScoreCandidatesRequest, scores: list[Any], model_id: str) -> pb.ScoreCandidatesResponse:
    out = pb.ScoreCandidatesResponse(request_id=req.request_id, model_id=model_id)
    for s in scores:
        msg = out.scores.add(
            text=s.text,
            tokens=[str(t) for t in s.tokens],
            token_ids=[int(t) for t in s.token_ids],
            token_probs=[float(p) for p in s.token_probs],
            min_prob=float(s.min_prob),
            min_prob_renorm=float(s.min_prob_renorm),
            sum_logprob=float(s.sum_logprob),
            mean_logprob=float(s.mean_logprob),
        )
        if req.end_marker and s.end_logprob is not None:
            msg.end_logprob = float(s.end_logprob)
    return out


def batch_result(result_type: Any, index: int, outcome: Any, respond: Callable[[Any], Any]) -> Any:
    """One streamed batch result: the item's error status, or OK with `respond(outcome)`."""
    if isinstance(outcome, BaseException):
        return result_type(index=index, status=item_status(outcome))
    return result_type(index=index, status=ok_status(), response=respond(outcome))


def score_batch_result(
    items: Sequence[pb.ScoreCandidatesRequest], index: int, outcome: Any, model_id: str
) -> pb.ScoreCandidatesBatchResult:
    return batch_result(pb.ScoreCandidatesBatchResult, index, outcome,
                        lambda o: score_response(items[index], o, model_id))


# --------------------------------------------------------------------------- logic


def equivalence_query(req: pb.CheckEquivalenceRequest, field: str = "") -> EquivalenceQuery:
    fmt = enum(EQUIVALENCE_FORMATS, req.format, f"{field}format", "LFFormat")
    return EquivalenceQuery(req.a, req.b, fmt, req.time_limit_ms / 1000.0)


def read_items(items: Sequence[Any], read: Callable[[Any, str], Any]) -> list[Any]:
    """Each batch item as `read(item, "items[i].")`, or the ServiceError that kept it from being read."""
    out: list[Any] = []
    for i, item in enumerate(items):
        try:
            out.append(read(item, f"items[{i}]."))
        except ServiceError as e:
            out.append(e)
    return out


def equivalence_items(items: Sequence[pb.CheckEquivalenceRequest]) -> list[EquivalenceQuery | ServiceError]:
    return read_items(items, equivalence_query)


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
        out.witness_json = json.dumps(v.witness, sort_keys=True, default=str)
    return out


def equivalence_batch_result(
    items: Sequence[pb.CheckEquivalenceRequest], index: int, outcome: Any
) -> pb.CheckEquivalenceBatchResult:
    return batch_result(pb.CheckEquivalenceBatchResult, index, outcome,
                        lambda o: equivalence_response(items[index], o))


def canonical_query(req: pb.CanonicalizeRequest) -> CanonicalQuery:
    fmt = enum(FORMATS, req.format, "format", "LFFormat")
    to = fmt if req.output_format == pb.LF_FORMAT_UNSPECIFIED else enum(
        FORMATS, req.output_format, "output_format", "LFFormat"
    )
    return CanonicalQuery(req.lf, fmt, to, enum(VAR_NAMINGS, req.var_naming, "var_naming", "VarNaming"))


def canonical_response(req: pb.CanonicalizeRequest, query: CanonicalQuery, canonical: str) -> pb.CanonicalizeResponse:
    return pb.CanonicalizeResponse(request_id=req.request_id, canonical=canonical, format=FORMAT_ENUM[query.to])


def radd_query(req: pb.VerifyRADDRequest) -> RaddQuery:
    source = req.WhichOneof("instance_source")
    value = "" if source is None else getattr(req, source)
    return RaddQuery(source, value, req.time_limit_ms / 1000.0)


def radd_response(req: pb.VerifyRADDRequest, answer: RaddAnswer) -> pb.VerifyRADDResponse:
    """logic.radd's verdict as the message: one interpretation per option, in option order."""
    result = answer.result
    out = pb.VerifyRADDResponse(
        request_id=req.request_id,
        answer="" if result.answer_option is None else str(result.answer_option),
        answer_option=result.answer_option or 0,
        derivation=list(result.derivation),
        status=result.status,
        details_json=json.dumps(result.to_dict(), sort_keys=True, default=str),
    )
    for option in answer.instance.options:
        v = result.interpretations.get(option.reading)
        if v is None:
            out.interpretations.add(label=str(option.number), reading=option.reading, relation=option.relation,
                                    verdict=pb.CONSISTENCY_UNKNOWN)
            continue
        out.interpretations.add(
            label=str(option.number),
            verdict=CONSISTENCY.get(v.verdict, pb.CONSISTENCY_UNKNOWN),
            relation=v.relation,
            explanation="; ".join(v.findings) or (v.derivation[-1] if v.derivation else ""),
            reading=v.reading,
            premises=list(v.premises),
            derivation=list(v.derivation),
        )
    return out


# --------------------------------------------------------------------------- parsing


def parse_query(req: pb.ParseDistributionRequest) -> ParseQuery:
    fmt = enum(FORMATS, req.format, "format", "LFFormat")
    source = req.WhichOneof("prompt_source")
    spec = None
    if source == "prompt_spec":
        s = req.prompt_spec
        setting = enum(SETTINGS, s.setting, "prompt_spec.setting", "PromptSetting")
        spec = PromptSpec(setting, s.type, s.ratio, s.seed, s.num_examples)
    prompt = req.prompt if source == "prompt" else None
    return ParseQuery(req.utterance, prompt, spec, fmt, decoding_options(req.decoding), req.explain,
                      req.time_limit_ms / 1000.0)


def decoding_options(d: pb.DecodingParams) -> DecodingOptions:
    vocabulary = None
    if d.closed_vocabulary:
        v = d.vocabulary
        vocabulary = Vocabulary(tuple(v.unary), tuple(v.binary), tuple(v.constants), tuple(v.variables))
    return DecodingOptions(
        strategy=enum(STRATEGIES, d.strategy, "decoding.strategy", "DecodingStrategy"),
        beam_size=d.beam_size, num_samples=d.num_samples, temperature=d.temperature, top_p=d.top_p,
        max_tokens=d.max_tokens, seed=d.seed if d.HasField("seed") else 0, vocabulary=vocabulary,
    )


def distribution_response(req: pb.ParseDistributionRequest, dist: Distribution) -> pb.ParseDistributionResponse:
    out = pb.ParseDistributionResponse(
        request_id=req.request_id, prompt=dist.prompt, model_id=dist.model_id,
        classes_exact=dist.classes_exact, unparsed_mass=dist.unparsed_mass,
    )
    for c in dist.candidates:
        msg = out.candidates.add(
            text=c.text, logprob=c.logprob, min_prob=c.min_prob, token_probs=c.token_probs, tokens=c.tokens,
            probability=c.probability, meaning_class=c.meaning_class, parse_status=PARSE_STATUSES[c.parse_status],
            canonical=c.canonical,
        )
        e = c.parse_error
        if e is not None:
            msg.parse_error.CopyFrom(pb.ParseError(
                message=e.reason, kind=e.kind, position=e.pos, column=e.column, token=e.token, expected=list(e.expected),
            ))
    for k in dist.classes:
        out.classes.add(canonical=k.canonical, probability_mass=k.probability_mass, member_indices=k.member_indices,
                        paraphrase=k.paraphrase)
    if dist.explanation is not None:
        out.explanation.CopyFrom(explanation_message(dist.explanation))
    return out


# --------------------------------------------------------------------------- explaining


def explain_query(req: pb.ExplainReadingsRequest) -> ExplainQuery:
    fmt = enum(FORMATS, req.format, "format", "LFFormat")
    return ExplainQuery(req.utterance, tuple(req.lfs), fmt, tuple(req.weights), req.time_limit_ms / 1000.0)


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


# --------------------------------------------------------------------------- info


def model_info_response(req: pb.GetModelInfoRequest, info: ServerInfo) -> pb.GetModelInfoResponse:
    lim = info.limits
    return pb.GetModelInfoResponse(
        request_id=req.request_id,
        model_id=info.model.get("model_id", ""),
        device=info.model.get("device", ""),
        dtype=info.model.get("dtype", ""),
        vocab_size=info.model.get("vocab_size", 0),
        model_kind=info.model.get("kind", ""),
        formats=list(info.formats),
        model_loaded=info.model_loaded,
        limits=pb.Limits(
            max_prompt_chars=lim.max_prompt_chars, max_candidates=lim.max_candidates,
            max_candidate_chars=lim.max_candidate_chars, max_lf_chars=lim.max_lf_chars,
            max_batch_items=lim.max_batch_items, max_beam=lim.max_beam, max_tokens=lim.max_tokens,
            max_message_bytes=lim.max_message_bytes, max_queue=lim.max_queue,
        ),
        max_batch=info.max_batch,
        server_id=info.server_id,
        version=info.version,
        remote=_remote_model(info.model.get("remote")),
    )


def _remote_model(report: Any) -> pb.RemoteModel | None:
    """The `remote` block of a model served elsewhere: `report` is its backend's live `report()`."""
    if report is None:
        return None
    r = report()
    return pb.RemoteModel(
        base_url=r["base_url"], model=r["model"], capabilities=r["capabilities"], requests=r["requests"],
        cache_hits=r["cache_hits"], retries=r["retries"], prompt_tokens=r["prompt_tokens"],
        completion_tokens=r["completion_tokens"], max_concurrency=r["max_concurrency"],
    )


def stats_response(
    req: pb.GetStatsRequest, server_id: str, stats: Stats, model: ModelCounters | None
) -> pb.GetStatsResponse:
    out = pb.GetStatsResponse(request_id=req.request_id, server_id=server_id, uptime_seconds=stats.uptime())
    for name, c in stats.snapshot().items():
        out.methods[name].CopyFrom(pb.MethodStats(requests=c.requests, errors=c.errors, total_seconds=c.total_seconds))
    out.batch_items = stats.batch_items
    if model is not None:
        out.model_batches, out.model_jobs, out.rejected = model.batches, model.jobs, model.rejected
        out.model_busy_seconds = model.busy_seconds
    return out


# --------------------------------------------------------------------------- generation


def generate_query(req: pb.GenerateRequest) -> GenerateQuery:
    return GenerateQuery(
        messages=tuple((m.role, m.content) for m in req.messages), max_new_tokens=req.max_new_tokens,
        use_chat_template=req.use_chat_template if req.HasField("use_chat_template") else None,
        temperature=req.temperature, top_p=req.top_p or 1.0, seed=req.seed if req.HasField("seed") else 0,
    )


def generate_response(req: pb.GenerateRequest, g: Any, model_id: str) -> pb.GenerateResponse:
    """`g` is the engine's `Generation`."""
    return pb.GenerateResponse(
        request_id=req.request_id, text=g.text, prompt=g.prompt, prompt_tokens=g.prompt_tokens,
        new_tokens=g.new_tokens, finish_reason=g.finish_reason, model_id=model_id, chat_template=g.chat_template,
    )


# --------------------------------------------------------------------------- entailment

ENTAILMENT_VERDICTS = {
    "TRUE": pb.ENTAILMENT_VERDICT_TRUE, "FALSE": pb.ENTAILMENT_VERDICT_FALSE,
    "UNCERTAIN": pb.ENTAILMENT_VERDICT_UNCERTAIN, "INCONSISTENT": pb.ENTAILMENT_VERDICT_INCONSISTENT,
    "UNKNOWN": pb.ENTAILMENT_VERDICT_UNKNOWN,
}


def entailment_query(req: pb.CheckEntailmentRequest, field: str = "") -> EntailmentQuery:
    fmt = enum(ENTAILMENT_FORMATS, req.format, f"{field}format", "LFFormat")
    return EntailmentQuery(tuple(req.premises), req.conclusion, fmt, req.time_limit_ms / 1000.0)


def entailment_items(items: Sequence[pb.CheckEntailmentRequest]) -> list[EntailmentQuery | ServiceError]:
    return read_items(items, entailment_query)


def proof_step(step: dict) -> pb.ProofStep:
    """One step of logic.Decision's proof; `from` is a premise index or the clause's origin."""
    origin = step.get("from", "")
    out = pb.ProofStep(step=step["step"], depth=step.get("depth", 0), clause=step.get("clause", 0),
                       literal=step.get("literal", ""), literals=step.get("literals", []))
    if isinstance(origin, int):
        out.source, out.premise_index = "premise", origin
    else:
        out.source = origin
    return out


def finite_model(target: pb.FiniteModel, model: dict) -> None:
    """Fill `target` from logic.Decision's model dict (domain, constants, true_atoms, functions)."""
    target.domain.extend(model["domain"])
    target.constants.update(model["constants"])
    target.true_atoms.extend(model["true_atoms"])
    target.functions.update(model.get("functions", {}))


def entailment_response(req: pb.CheckEntailmentRequest, d: Any) -> pb.CheckEntailmentResponse:
    """The response for a `logic.Decision`."""
    out = pb.CheckEntailmentResponse(
        request_id=req.request_id, verdict=ENTAILMENT_VERDICTS[d.verdict], premises_used=d.premises_used,
        proof=[proof_step(s) for s in d.proof or []], unknown_budget=d.budget or "", reason=d.reason or "",
    )
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


def entailment_batch_result(
    items: Sequence[pb.CheckEntailmentRequest], index: int, outcome: Any
) -> pb.CheckEntailmentBatchResult:
    return batch_result(pb.CheckEntailmentBatchResult, index, outcome,
                        lambda o: entailment_response(items[index], o))
