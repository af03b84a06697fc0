"""The AmbitService servicer: validate the request, call the model worker or the logic layer,
map the result into the response message, and every failure into a documented status code.

Handlers raise `RpcFault`; the `_rpc` wrapper turns faults into rich statuses, unexpected
exceptions into INTERNAL (with a log line; the server keeps serving), counts every request
and logs one line for it. Batch RPCs give each item its own `google.rpc.Status`.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
import uuid
from concurrent.futures import CancelledError, Future, TimeoutError as FutureTimeout, wait, FIRST_COMPLETED
from typing import Any, Callable, Iterator

import grpc
from grpc_status import rpc_status

import logic
from logic import LFParseError
from logic.prolog_worker import PrologError
from proto.ambit.v1 import ambit_pb2 as pb
from proto.ambit.v1 import ambit_pb2_grpc

from .batcher import ModelWorker, QueueFull
from .errors import RpcFault, bad_lf, internal, invalid, ok_status
from .limits import Limits
from .model import DecodeParams, DecodeStopped
from .stats import Stats

log = logging.getLogger("ambit.server")

VERSION = "0.1.0"
DEFAULT_PROLOG_SECONDS = 5.0
MAX_PROLOG_SECONDS = 60.0
DEADLINE_MARGIN_S = 0.02  # left to write the response after the work is done

_FORMATS = {pb.LF_FORMAT_UNSPECIFIED: "fol", pb.LF_FORMAT_FOL: "fol", pb.LF_FORMAT_LISP: "lisp"}
_FORMAT_ENUM = {"fol": pb.LF_FORMAT_FOL, "lisp": pb.LF_FORMAT_LISP}
_VARS = {pb.VAR_NAMING_UNSPECIFIED: "amp", pb.VAR_NAMING_AMP: "amp", pb.VAR_NAMING_V: "v"}
_STRATEGIES = {
    pb.DECODING_STRATEGY_UNSPECIFIED: "beam", pb.DECODING_STRATEGY_BEAM: "beam", pb.DECODING_STRATEGY_SAMPLE: "sample",
}
_SETTINGS = {
    pb.PROMPT_SETTING_UNSPECIFIED: "zeroshot",
    pb.PROMPT_SETTING_ZEROSHOT: "zeroshot",
    pb.PROMPT_SETTING_FEWSHOT: "fewshot",
}
_VERDICTS = {
    "EQUIVALENT": pb.VERDICT_EQUIVALENT, "NOT_EQUIVALENT": pb.VERDICT_NOT_EQUIVALENT, "UNKNOWN": pb.VERDICT_UNKNOWN,
}


# --------------------------------------------------------------------------- request plumbing


class Deadline:
    """The request's deadline as a monotonic time (None: no deadline)."""

    def __init__(self, context: grpc.ServicerContext) -> None:
        left = context.time_remaining()
        self.at = None if left is None or left > 1e8 else time.monotonic() + left
        self.context = context

    def remaining(self) -> float | None:
        return None if self.at is None else self.at - time.monotonic()

    def expired(self) -> bool:
        left = self.remaining()
        return (left is not None and left <= 0) or not self.context.is_active()

    def check(self) -> None:
        if self.expired():
            raise RpcFault(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded")

    def budget(self, requested_s: float, default_s: float) -> float:
        """Seconds for a piece of work: the requested (or default) budget, capped by the deadline."""
        budget = min(requested_s or default_s, MAX_PROLOG_SECONDS)
        left = self.remaining()
        if left is not None:
            budget = min(budget, left - DEADLINE_MARGIN_S)
        if budget <= 0:
            raise RpcFault(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded before the work could start")
        return budget


def _rpc(method: str, streaming: bool = False) -> Callable:
    """Wrap a handler: faults -> status, crashes -> INTERNAL, count + log every request."""

    def deco(fn: Callable) -> Callable:
        if streaming:

            @functools.wraps(fn)
            def stream(self: "AmbitServicer", request, context):
                t0, code, items = time.perf_counter(), grpc.StatusCode.OK, 0
                try:
                    for item in fn(self, request, context):
                        items += 1
                        yield item
                except RpcFault as f:
                    code = f.code
                    context.abort_with_status(rpc_status.to_status(f.to_status()))
                except Exception:
                    code = grpc.StatusCode.INTERNAL
                    log.exception("internal error in %s (request_id=%s)", method, request.request_id)
                    f = internal()
                    context.abort_with_status(rpc_status.to_status(f.to_status()))
                finally:
                    self.stats.record(method, code, time.perf_counter() - t0, request.request_id, items)

            return stream

        @functools.wraps(fn)
        def unary(self: "AmbitServicer", request, context):
            t0, code = time.perf_counter(), grpc.StatusCode.OK
            try:
                return fn(self, request, context)
            except RpcFault as f:
                code = f.code
                context.abort_with_status(rpc_status.to_status(f.to_status()))
            except Exception:
                code = grpc.StatusCode.INTERNAL
                log.exception("internal error in %s (request_id=%s)", method, request.request_id)
                context.abort_with_status(rpc_status.to_status(internal().to_status()))
            finally:
                self.stats.record(method, code, time.perf_counter() - t0, request.request_id)

        return unary

    return deco


def _enum(table: dict, value: int, field: str, enum_name: str):
    try:
        return table[value]
    except KeyError:
        raise invalid(field, f"unknown {enum_name} value {value}", reason="UNKNOWN_ENUM") from None


def _text(value: str, field: str, limit: int, allow_empty: bool = False) -> str:
    if not value and not allow_empty:
        raise invalid(field, "must not be empty", reason="EMPTY")
    if len(value) > limit:
        raise invalid(field, f"{len(value)} characters; the limit is {limit}", reason="TOO_LONG")
    return value


def _parse(text: str, fmt: str, field: str, limit: int) -> Any:
    _text(text, field, limit)
    try:
        return logic.parse(text, fmt)
    except LFParseError as e:
        raise bad_lf(field, e) from None


def _status_of(exc: BaseException) -> Any:
    """A google.rpc.Status for one failed batch item."""
    if isinstance(exc, RpcFault):
        return exc.to_status()
    log.error("internal error in a batch item", exc_info=exc)
    return internal().to_status()


# --------------------------------------------------------------------------- servicer


class AmbitServicer(ambit_pb2_grpc.AmbitServiceServicer):
    def __init__(
        self,
        worker: ModelWorker | None,
        limits: Limits = Limits(),
        stats: Stats | None = None,
        prolog_seconds: float = DEFAULT_PROLOG_SECONDS,
    ) -> None:
        self.worker = worker  # None until the model is loaded (or with --no-model)
        self.limits = limits
        self.stats = stats or Stats()
        self.prolog_seconds = prolog_seconds
        self.server_id = f"{uuid.uuid4().hex[:12]}"
        self.model_info: dict = {}

    # -- model access -------------------------------------------------------------------
    def _worker(self) -> ModelWorker:
        if self.worker is None:
            raise RpcFault(
                grpc.StatusCode.FAILED_PRECONDITION,
                "no model loaded on this server (started with --no-model, or still loading)",
            )
        return self.worker

    def _await(self, fut: Future, deadline: Deadline, context: grpc.ServicerContext) -> Any:
        """Wait for a model job; cancel it when the deadline passes or the client goes away."""
        context.add_callback(fut.cancel)
        try:
            return fut.result(timeout=deadline.remaining())
        except FutureTimeout:
            fut.cancel()
            raise RpcFault(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded while the model was busy") from None
        except CancelledError:
            raise RpcFault(grpc.StatusCode.CANCELLED, "request cancelled") from None

    def _submit_score(self, req: pb.ScoreCandidatesRequest, field: str) -> Future:
        lim = self.limits
        _text(req.prompt, f"{field}prompt", lim.max_prompt_chars)
        if not req.candidates:
            raise invalid(f"{field}candidates", "at least one candidate is needed", reason="EMPTY")
        if len(req.candidates) > lim.max_candidates:
            raise invalid(
                f"{field}candidates",
                f"{len(req.candidates)} candidates; the limit is {lim.max_candidates}",
                reason="TOO_MANY",
            )
        for i, c in enumerate(req.candidates):
            _text(c, f"{field}candidates[{i}]", lim.max_candidate_chars)
        try:
            return self._worker().submit_score(req.prompt, list(req.candidates), req.end_marker)
        except QueueFull as e:
            raise RpcFault(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e)) from None

    def _score_response(self, req: pb.ScoreCandidatesRequest, scores: list[Any]) -> pb.ScoreCandidatesResponse:
        out = pb.ScoreCandidatesResponse(request_id=req.request_id, model_id=self.model_info.get("model_id", ""))
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

    # -- ScoreCandidates -------------------------------------------------------------------
    @_rpc("ScoreCandidates")
    def ScoreCandidates(self, request, context):
        deadline = Deadline(context)
        fut = self._submit_score(request, "")
        return self._score_response(request, self._await(fut, deadline, context))

    @_rpc("ScoreCandidatesBatch", streaming=True)
    def ScoreCandidatesBatch(self, request, context) -> Iterator[pb.ScoreCandidatesBatchResult]:
        """Items are submitted in a sliding window (so they batch with each other and with other
        clients' requests, without flooding the queue) and streamed back as they finish."""
        self._check_batch_size(request.items)
        deadline = Deadline(context)
        window = max(2 * self._worker().max_batch, 1)
        in_flight: dict[Future, int] = {}
        pending = iter(enumerate(request.items))
        exhausted = False
        try:
            while True:
                while not exhausted and len(in_flight) < window:
                    nxt = next(pending, None)
                    if nxt is None:
                        exhausted = True
                        break
                    i, item = nxt
                    try:
                        in_flight[self._submit_score(item, f"items[{i}].")] = i
                    except RpcFault as f:
                        if f.code is grpc.StatusCode.RESOURCE_EXHAUSTED and in_flight:
                            pending = _push_back((i, item), pending)  # retry once some work finishes
                            break
                        yield pb.ScoreCandidatesBatchResult(index=i, status=f.to_status())
                if not in_flight:
                    if exhausted:
                        return
                    continue
                deadline.check()
                done, _ = wait(list(in_flight), timeout=deadline.remaining(), return_when=FIRST_COMPLETED)
                if not done:
                    deadline.check()
                for fut in done:
                    i = in_flight.pop(fut)
                    item = request.items[i]
                    try:
                        yield pb.ScoreCandidatesBatchResult(
                            index=i, status=ok_status(), response=self._score_response(item, fut.result())
                        )
                    except Exception as e:  # noqa: BLE001 - the item's own error
                        yield pb.ScoreCandidatesBatchResult(index=i, status=_status_of(e))
        finally:
            for fut in in_flight:
                fut.cancel()

    def _check_batch_size(self, items) -> None:
        if not items:
            raise invalid("items", "at least one item is needed", reason="EMPTY")
        if len(items) > self.limits.max_batch_items:
            raise invalid("items", f"{len(items)} items; the limit is {self.limits.max_batch_items}", reason="TOO_MANY")

    # -- CheckEquivalence -------------------------------------------------------------------
    def _equivalence_input(
        self, req: pb.CheckEquivalenceRequest, field: str
    ) -> tuple[str, logic.Formula, logic.Formula, pb.CheckEquivalenceResponse]:
        """Validated request: (format, A, B, response with canonical forms filled in)."""
        fmt = _enum(_FORMATS, req.format, f"{field}format", "LFFormat")
        a = _parse(req.a, fmt, f"{field}a", self.limits.max_lf_chars)
        b = _parse(req.b, fmt, f"{field}b", self.limits.max_lf_chars)
        out = pb.CheckEquivalenceResponse(
            request_id=req.request_id,
            canonical_a=logic.canonical(a, fmt),
            canonical_b=logic.canonical(b, fmt),
        )
        return fmt, a, b, out

    @staticmethod
    def _fill_verdict(out: pb.CheckEquivalenceResponse, verdict) -> pb.CheckEquivalenceResponse:
        out.verdict = _VERDICTS.get(str(verdict.verdict), pb.VERDICT_UNKNOWN)
        if verdict.a_entails_b is not None:
            out.a_entails_b = bool(verdict.a_entails_b)
        if verdict.b_entails_a is not None:
            out.b_entails_a = bool(verdict.b_entails_a)
        if verdict.witness is not None:
            out.witness_json = json.dumps(verdict.witness, sort_keys=True, default=str)
        return out

    def _equivalence(
        self, req: pb.CheckEquivalenceRequest, deadline: Deadline, field: str
    ) -> pb.CheckEquivalenceResponse:
        fmt, a, b, out = self._equivalence_input(req, field)
        budget = deadline.budget(req.time_limit_ms / 1000.0, self.prolog_seconds)
        verdict = logic.equivalent(a, b, fmt=fmt, time_limit=budget)
        deadline.check()
        return self._fill_verdict(out, verdict)

    @_rpc("CheckEquivalence")
    def CheckEquivalence(self, request, context):
        return self._equivalence(request, Deadline(context), "")

    EQUIV_CHUNK = 64  # items per Prolog round trip in CheckEquivalenceBatch

    @_rpc("CheckEquivalenceBatch", streaming=True)
    def CheckEquivalenceBatch(self, request, context) -> Iterator[pb.CheckEquivalenceBatchResult]:
        """Items go to Prolog in chunks (one round trip each, `logic.equivalent_batch`) and are
        streamed in order as each chunk is decided; an item that fails validation gets its own
        error status and the rest go on."""
        self._check_batch_size(request.items)
        deadline = Deadline(context)
        items = list(request.items)
        for start in range(0, len(items), self.EQUIV_CHUNK):
            deadline.check()
            results: dict[int, pb.CheckEquivalenceBatchResult] = {}
            valid: list[tuple[int, str, logic.Formula, logic.Formula, pb.CheckEquivalenceResponse, float]] = []
            for i in range(start, min(start + self.EQUIV_CHUNK, len(items))):
                try:
                    fmt, a, b, out = self._equivalence_input(items[i], f"items[{i}].")
                except RpcFault as f:
                    results[i] = pb.CheckEquivalenceBatchResult(index=i, status=f.to_status())
                else:
                    budget = deadline.budget(items[i].time_limit_ms / 1000.0, self.prolog_seconds)
                    valid.append((i, fmt, a, b, out, budget))
            for fmt in {v[1] for v in valid}:
                group = [v for v in valid if v[1] == fmt]
                budget = min(v[5] for v in group)
                try:
                    verdicts = logic.equivalent_batch([(v[2], v[3]) for v in group], fmt=fmt, time_limit=budget)
                except Exception as e:  # noqa: BLE001 - reported per item, the batch goes on
                    for v in group:
                        results[v[0]] = pb.CheckEquivalenceBatchResult(index=v[0], status=_status_of(e))
                    continue
                for v, verdict in zip(group, verdicts):
                    results[v[0]] = pb.CheckEquivalenceBatchResult(
                        index=v[0], status=ok_status(), response=self._fill_verdict(v[4], verdict)
                    )
            deadline.check()
            for i in sorted(results):
                yield results[i]

    # -- Canonicalize -------------------------------------------------------------------------
    @_rpc("Canonicalize")
    def Canonicalize(self, request, context):
        fmt = _enum(_FORMATS, request.format, "format", "LFFormat")
        out_fmt = fmt if request.output_format == pb.LF_FORMAT_UNSPECIFIED else _enum(
            _FORMATS, request.output_format, "output_format", "LFFormat"
        )
        naming = _enum(_VARS, request.var_naming, "var_naming", "VarNaming")
        f = _parse(request.lf, fmt, "lf", self.limits.max_lf_chars)
        return pb.CanonicalizeResponse(
            request_id=request.request_id,
            canonical=logic.canonical(f, fmt, to=out_fmt, vars=naming),
            format=_FORMAT_ENUM[out_fmt],
        )

    # -- ParseDistribution ----------------------------------------------------------------------
    @_rpc("ParseDistribution")
    def ParseDistribution(self, request, context):
        deadline = Deadline(context)
        fmt = _enum(_FORMATS, request.format, "format", "LFFormat")
        prompt = self._prompt(request, fmt)
        params, grammar = self._decoding(request.decoding, fmt)
        worker = self._worker()
        def should_stop() -> bool:  # the decoding budget: the request's deadline
            return deadline.expired()

        try:
            fut = worker.submit_call(lambda backend: backend.decode(prompt, fmt, params, grammar, should_stop))
        except QueueFull as e:
            raise RpcFault(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e)) from None
        try:
            hyps = self._await(fut, deadline, context)
        except DecodeStopped:
            deadline.check()
            raise RpcFault(grpc.StatusCode.CANCELLED, "decoding stopped: request cancelled") from None
        deadline.check()
        out = pb.ParseDistributionResponse(
            request_id=request.request_id, prompt=prompt, model_id=self.model_info.get("model_id", "")
        )
        _fill_candidates(out, hyps, fmt)
        self._meaning_classes(out, fmt, deadline)
        return out

    def _prompt(self, request: pb.ParseDistributionRequest, fmt: str) -> str:
        lim = self.limits
        utterance = _text(request.utterance, "utterance", lim.max_prompt_chars, allow_empty=True)
        source = request.WhichOneof("prompt_source")
        if source == "prompt":
            _text(request.prompt, "prompt", lim.max_prompt_chars)
            prompt = request.prompt.replace("{utterance}", utterance)
        elif source == "prompt_spec":
            _text(utterance, "utterance", lim.max_prompt_chars)
            prompt = _spec_prompt(request.prompt_spec, utterance, fmt)
        else:
            raise invalid("prompt", "set either prompt or prompt_spec", reason="EMPTY")
        return _text(prompt, "prompt", lim.max_prompt_chars)

    def _decoding(self, d: pb.DecodingParams, fmt: str) -> tuple[DecodeParams, str | None]:
        lim = self.limits
        strategy = _enum(_STRATEGIES, d.strategy, "decoding.strategy", "DecodingStrategy")
        k = (d.beam_size or 5) if strategy == "beam" else (d.num_samples or 10)
        k_field = "decoding.beam_size" if strategy == "beam" else "decoding.num_samples"
        if k > lim.max_beam:
            raise invalid(k_field, f"{k}; the limit is {lim.max_beam}", reason="TOO_LARGE")
        temperature = d.temperature or 1.0
        top_p = d.top_p or 1.0
        if not (0.0 < temperature <= 100.0) or math.isnan(temperature):
            raise invalid("decoding.temperature", f"{d.temperature} is outside (0, 100]", reason="OUT_OF_RANGE")
        if not (0.0 < top_p <= 1.0):
            raise invalid("decoding.top_p", f"{d.top_p} is outside (0, 1]", reason="OUT_OF_RANGE")
        max_tokens = d.max_tokens or 128
        if max_tokens > lim.max_tokens:
            raise invalid("decoding.max_tokens", f"{max_tokens}; the limit is {lim.max_tokens}", reason="TOO_LARGE")
        grammar = None
        if d.closed_vocabulary:
            v = d.vocabulary
            words = {"unary": list(v.unary), "binary": list(v.binary), "constants": list(v.constants)}
            if not any(words.values()):
                words = _amp_vocabulary()  # the AmP lexicon
            try:
                grammar = logic.closed_grammar(
                    fmt, words["unary"], words["binary"], words["constants"],
                    list(v.variables) or logic.vocab.DEFAULT_VARIABLES,
                )
            except ValueError as e:
                raise invalid("decoding.vocabulary", str(e), reason="BAD_VOCABULARY") from None
        seed = d.seed if d.HasField("seed") else 0
        return DecodeParams(strategy, k, float(temperature), float(top_p), int(max_tokens), int(seed)), grammar

    def _meaning_classes(self, out: pb.ParseDistributionResponse, fmt: str, deadline: Deadline) -> None:
        """Group parsed candidates: same canonical form first, then Prolog equivalence between
        the groups' most probable members. UNKNOWN keeps groups apart and clears classes_exact."""
        groups: dict[str, list[int]] = {}
        for i, c in enumerate(out.candidates):
            if c.parse_status == pb.PARSE_STATUS_OK:
                groups.setdefault(c.canonical, []).append(i)
        exact = True
        classes: list[list[int]] = []
        for members in groups.values():  # insertion order = best candidate first
            placed = False
            for cls in classes:
                rep_a, rep_b = out.candidates[cls[0]].text, out.candidates[members[0]].text
                budget = deadline.budget(0, self.prolog_seconds)
                verdict = str(logic.equivalent(rep_a, rep_b, fmt=fmt, time_limit=budget).verdict)
                if verdict == "EQUIVALENT":
                    cls.extend(members)
                    placed = True
                    break
                exact &= verdict == "NOT_EQUIVALENT"
            if not placed:
                classes.append(list(members))
        ranked = sorted(classes, key=lambda m: -sum(out.candidates[i].probability for i in m))
        for k, members in enumerate(ranked):
            members.sort()
            best = max(members, key=lambda i: out.candidates[i].probability)
            out.classes.add(
                canonical=out.candidates[best].canonical,
                probability_mass=sum(out.candidates[i].probability for i in members),
                member_indices=members,
            )
            for i in members:
                out.candidates[i].meaning_class = k
        out.classes_exact = exact
        out.unparsed_mass = sum(c.probability for c in out.candidates if c.meaning_class < 0)

    # -- VerifyRADD -----------------------------------------------------------------------------
    @_rpc("VerifyRADD")
    def VerifyRADD(self, request, context):
        deadline = Deadline(context)
        from generators.radd.instance import RaddInstance
        from generators.radd.loader import parse_prompt
        from logic import radd

        source = request.WhichOneof("instance_source")
        if source is None:
            raise invalid("text", "set either text or instance_json", reason="EMPTY")
        value = _text(getattr(request, source), source, self.limits.max_prompt_chars)
        try:
            instance = parse_prompt(value) if source == "text" else RaddInstance.from_dict(json.loads(value))
        except (ValueError, KeyError, TypeError) as e:  # RaddParseError and JSON errors are ValueErrors
            raise invalid(source, f"not a RADD instance: {e}", reason="BAD_INSTANCE") from None
        budget = deadline.budget(request.time_limit_ms / 1000.0, self.prolog_seconds)
        try:
            result = radd.verify(instance, time_limit=budget)
        except PrologError as e:
            if e.timed_out:
                msg = f"Prolog budget of {budget:.2f} s exhausted"
                raise RpcFault(grpc.StatusCode.DEADLINE_EXCEEDED, msg) from None
            raise
        deadline.check()
        return _radd_response(request.request_id, instance, result)

    # -- info -----------------------------------------------------------------------------------
    @_rpc("GetModelInfo")
    def GetModelInfo(self, request, context):
        lim = self.limits
        info = self.model_info
        return pb.GetModelInfoResponse(
            request_id=request.request_id,
            model_id=info.get("model_id", ""),
            device=info.get("device", ""),
            dtype=info.get("dtype", ""),
            vocab_size=info.get("vocab_size", 0),
            formats=list(logic.FORMATS),
            model_loaded=self.worker is not None,
            limits=pb.Limits(
                max_prompt_chars=lim.max_prompt_chars, max_candidates=lim.max_candidates,
                max_candidate_chars=lim.max_candidate_chars, max_lf_chars=lim.max_lf_chars,
                max_batch_items=lim.max_batch_items, max_beam=lim.max_beam, max_tokens=lim.max_tokens,
                max_message_bytes=lim.max_message_bytes, max_queue=lim.max_queue,
            ),
            max_batch=self.worker.max_batch if self.worker else 0,
            server_id=self.server_id,
            version=VERSION,
        )

    @_rpc("GetStats")
    def GetStats(self, request, context):
        out = pb.GetStatsResponse(
            request_id=request.request_id, server_id=self.server_id, uptime_seconds=self.stats.uptime()
        )
        for name, c in self.stats.snapshot().items():
            out.methods[name].CopyFrom(
                pb.MethodStats(requests=c.requests, errors=c.errors, total_seconds=c.total_seconds)
            )
        out.batch_items = self.stats.batch_items
        if self.worker is not None:
            w = self.worker
            out.model_batches, out.model_jobs, out.rejected = w.batches, w.jobs, w.rejected
            out.model_busy_seconds = w.busy_seconds
        return out


# --------------------------------------------------------------------------- helpers


def _push_back(item, rest: Iterator) -> Iterator:
    yield item
    yield from rest


def _spec_prompt(spec: pb.PromptSpec, utterance: str, fmt: str) -> str:
    """An AmP prompt (generators.amp) with the utterance as its test sentence: the spec's
    demonstrations for one item of `type`, then `Human: <utterance>` / `Computer:`."""
    from generators import amp

    setting = _enum(_SETTINGS, spec.setting, "prompt_spec.setting", "PromptSetting")
    if not spec.type:
        raise invalid("prompt_spec.type", "an ambiguity type is needed (e.g. scope, pp, conj)", reason="EMPTY")
    if not (0.0 <= spec.ratio <= 1.0):
        raise invalid("prompt_spec.ratio", f"{spec.ratio} is outside [0, 1]", reason="OUT_OF_RANGE")
    try:
        if setting == "zeroshot":
            recs = amp.zeroshot_prompts(type=spec.type, seed=spec.seed, limit=1, fmt=fmt)
        else:
            recs = amp.fewshot_prompts(
                type=spec.type, ratios=[spec.ratio], seed=spec.seed, limit=1, fmt=fmt, shots=spec.num_examples or None
            )
    except (ValueError, KeyError) as e:
        raise invalid("prompt_spec.type", f"{spec.type!r}: {e}", reason="BAD_PROMPT_SPEC") from None
    if not recs:
        raise invalid("prompt_spec.type", f"no prompts for type {spec.type!r}", reason="BAD_PROMPT_SPEC")
    rec = recs[0]
    tail = amp.prompt_text([], rec["surface"], instruction="")[2:]  # "Human: <surface>\nComputer:"
    if not rec["prompt"].endswith(tail):
        raise RuntimeError("generators.amp prompt layout changed: cannot put the utterance in")
    return rec["prompt"][: -len(tail)] + amp.prompt_text([], utterance, instruction="")[2:]


@functools.cache
def _amp_vocabulary() -> dict[str, list[str]]:
    from generators import amp

    return amp.vocabulary()


def _fill_candidates(out: pb.ParseDistributionResponse, hyps: list[Any], fmt: str) -> None:
    """Candidates with parse status, canonical form and probability normalised over the list."""
    logps = [float(h.logprob) for h in hyps]
    top = max(logps, default=0.0)
    weights = [math.exp(lp - top) if math.isfinite(lp) else 0.0 for lp in logps]
    total = sum(weights) or 1.0
    for h, w in zip(hyps, weights):
        c = out.candidates.add(
            text=h.text,
            logprob=float(h.logprob),
            min_prob=float(h.min_prob),
            token_probs=[float(p) for p in h.token_probs],
            tokens=[str(t) for t in h.tokens],
            probability=w / total,
            meaning_class=-1,
        )
        try:
            f = logic.parse(h.text.strip(), fmt)
        except LFParseError as e:
            c.parse_status = pb.PARSE_STATUS_INVALID if getattr(h, "finished", True) else pb.PARSE_STATUS_UNFINISHED
            c.parse_error.CopyFrom(
                pb.ParseError(
                    message=e.reason, kind=e.kind, position=e.pos, column=e.column, token=e.token,
                    expected=list(e.expected),
                )
            )
            continue
        if getattr(h, "finished", True):
            c.parse_status = pb.PARSE_STATUS_OK
            c.canonical = logic.canonical(f, fmt)
        else:
            c.parse_status = pb.PARSE_STATUS_UNFINISHED


_CONSISTENCY = {
    "consistent": pb.CONSISTENCY_CONSISTENT, "inconsistent": pb.CONSISTENCY_INCONSISTENT,
    "undetermined": pb.CONSISTENCY_UNKNOWN,
}


def _radd_response(request_id: str, instance: Any, result: Any) -> pb.VerifyRADDResponse:
    """logic.radd's RaddVerdict as the message: one interpretation per option, in option order."""
    out = pb.VerifyRADDResponse(
        request_id=request_id,
        answer="" if result.answer_option is None else str(result.answer_option),
        answer_option=result.answer_option or 0,
        derivation=list(result.derivation),
        status=result.status,
        details_json=json.dumps(result.to_dict(), sort_keys=True, default=str),
    )
    for option in instance.options:
        v = result.interpretations.get(option.reading)
        if v is None:
            out.interpretations.add(label=str(option.number), reading=option.reading, relation=option.relation,
                                    verdict=pb.CONSISTENCY_UNKNOWN)
            continue
        out.interpretations.add(
            label=str(option.number),
            verdict=_CONSISTENCY.get(v.verdict, pb.CONSISTENCY_UNKNOWN),
            relation=v.relation,
            explanation="; ".join(v.findings) or (v.derivation[-1] if v.derivation else ""),
            reading=v.reading,
            premises=list(v.premises),
            derivation=list(v.derivation),
        )
    return out
