"""Conversions of the model RPCs, GetModelInfo and GetStats between messages and core values."""

from __future__ import annotations

from typing import Any

from ambit.proto.v1 import ambit_pb2 as pb

from ambit.server.convert.common import enum, formats
from ambit.server.convert.logic import explanation_message
from ambit.server.service import (
    DecodingOptions, Distribution, GenerateQuery, ModelReply, ParseQuery, PromptSpec, ScoreQuery, ServerInfo,
    ServerStats, Vocabulary,
)
from ambit.server.service import distribution

STRATEGIES = {pb.DECODING_STRATEGY_UNSPECIFIED: "beam", pb.DECODING_STRATEGY_BEAM: "beam",
              pb.DECODING_STRATEGY_SAMPLE: "sample"}
SETTINGS = {pb.PROMPT_SETTING_UNSPECIFIED: "zeroshot", pb.PROMPT_SETTING_ZEROSHOT: "zeroshot",
            pb.PROMPT_SETTING_FEWSHOT: "fewshot"}
DECODE_FORMATS = formats(lambda d: d.decodable)  # the dialects a reply is decoded into, UNSPECIFIED = fol
PARSE_STATUSES = {
    distribution.OK: pb.PARSE_STATUS_OK, distribution.INVALID: pb.PARSE_STATUS_INVALID,
    distribution.UNFINISHED: pb.PARSE_STATUS_UNFINISHED,
}


# --------------------------------------------------------------------------- scoring

def score_query(req: pb.ScoreCandidatesRequest, field: str = "") -> ScoreQuery:
    """The query (`field`, a batch item's prefix, unused: a ScoreQuery has no enum to refuse)."""
    return ScoreQuery(req.prompt, tuple(req.candidates), req.end_marker)


def score_response(req: pb.ScoreCandidatesRequest, reply: ModelReply) -> pb.ScoreCandidatesResponse:
    out = pb.ScoreCandidatesResponse(request_id=req.request_id, model_id=reply.model_id)
    for s in reply.value:
        msg = out.scores.add(
            text=s.text, tokens=[str(t) for t in s.tokens], token_ids=[int(t) for t in s.token_ids],
            token_probs=[float(p) for p in s.token_probs], min_prob=float(s.min_prob),
            min_prob_renorm=float(s.min_prob_renorm), sum_logprob=float(s.sum_logprob),
            mean_logprob=float(s.mean_logprob))
        if req.end_marker and s.end_logprob is not None:
            msg.end_logprob = float(s.end_logprob)
    return out


# --------------------------------------------------------------------------- parsing

def parse_query(req: pb.ParseDistributionRequest) -> ParseQuery:
    fmt = enum(DECODE_FORMATS, req.format, "format", "LFFormat")
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


# --------------------------------------------------------------------------- info

def model_info_response(req: pb.GetModelInfoRequest, info: ServerInfo) -> pb.GetModelInfoResponse:
    lim, m = info.limits, info.model
    return pb.GetModelInfoResponse(
        request_id=req.request_id, model_id=m.get("model_id", ""), device=m.get("device", ""),
        dtype=m.get("dtype", ""), vocab_size=m.get("vocab_size", 0), model_kind=m.get("kind", ""),
        formats=list(info.formats), model_loaded=info.model_loaded,
        limits=pb.Limits(
            max_prompt_chars=lim.max_prompt_chars, max_candidates=lim.max_candidates,
            max_candidate_chars=lim.max_candidate_chars, max_lf_chars=lim.max_lf_chars,
            max_batch_items=lim.max_batch_items, max_beam=lim.max_beam, max_tokens=lim.max_tokens,
            max_message_bytes=lim.max_message_bytes, max_queue=lim.max_queue,
        ),
        max_batch=info.max_batch, server_id=info.server_id, version=info.version,
        remote=_remote_model(m.get("remote")),
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


def stats_response(req: pb.GetStatsRequest, s: ServerStats) -> pb.GetStatsResponse:
    calls, model = s.calls, s.model
    out = pb.GetStatsResponse(request_id=req.request_id, server_id=s.server_id, uptime_seconds=calls.uptime())
    for name, c in calls.snapshot().items():
        out.methods[name].CopyFrom(pb.MethodStats(requests=c.requests, errors=c.errors, total_seconds=c.total_seconds))
    out.batch_items = calls.batch_items
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
        fmt=enum(DECODE_FORMATS, req.format, "format", "LFFormat") if req.HasField("format") else None,
    )


def generate_response(req: pb.GenerateRequest, reply: ModelReply) -> pb.GenerateResponse:
    """The reply's `Generation`, or `FormulaReply` (with `formula`) for a request with a format."""
    g, model_id = reply.value, reply.model_id
    return pb.GenerateResponse(
        request_id=req.request_id, text=g.text, prompt=g.prompt, prompt_tokens=g.prompt_tokens,
        new_tokens=g.new_tokens, finish_reason=g.finish_reason, model_id=model_id, chat_template=g.chat_template,
        formula=getattr(g, "formula", ""),
    )
