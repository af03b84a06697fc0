"""A small in-process fake of the ambit service for tests: every RPC, deterministic and model-free.
Scores hash (prompt, candidate); decoding returns the LFs given (``parses``); two LFs are EQUIVALENT
exactly when their canonical forms are equal (so tests can tell that path from Prolog's); RADD,
explanation and entailment are the real servicer's, without a model."""

from __future__ import annotations

import collections
import concurrent.futures as cf
import hashlib
import math
import threading
import time
import uuid

import grpc

from ambit.logic.syntax.dialect import AMP_NAMES, FOL, dialects
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc


def _unit(*parts: str) -> float:
    """A deterministic number in (0, 1) from strings."""
    h = hashlib.sha256("\x00".join(parts).encode()).digest()
    return (int.from_bytes(h[:8], "big") + 1) / (2 ** 64 + 2)


DEFAULT_LF = "exists x . man(x)"  # what decoding returns for a prompt it was given no LFs for
DEFAULT_NEW_TOKENS = 256  # Generate's budget when the request sets none (as the server's)


def _status(code: grpc.StatusCode, message: str):
    """A batch item's `google.rpc.Status`."""
    from google.rpc import status_pb2
    return status_pb2.Status(code=code.value[0], message=message)


def _equivalence(request) -> pb.CheckEquivalenceResponse:
    """EQUIVALENT exactly when the canonical forms (read as FOL) are equal; raises on a bad LF."""
    from ambit import logic
    ca, cb = logic.canonical_form(request.a, FOL), logic.canonical_form(request.b, FOL)
    same = ca == cb
    return pb.CheckEquivalenceResponse(
        request_id=request.request_id,
        verdict=pb.VERDICT_EQUIVALENT if same else pb.VERDICT_NOT_EQUIVALENT,
        a_entails_b=same, b_entails_a=same, canonical_a=ca, canonical_b=cb,
        witness_json="" if same else '{"failed": "a_entails_b"}')


def _reads(text: str, wire_format: int) -> str:
    """`text` when it reads as a formula of the format (an `LFFormat` value), else ""."""
    from ambit import logic
    names = {pb.LFFormat.Value(d.wire): d.name for d in dialects() if d.wire}
    try:
        logic.parse(text, names.get(wire_format, FOL))
    except Exception:
        return ""
    return text


class _Call:
    """What the real servicer's handlers read of a call: its deadline."""

    def __init__(self, context) -> None:
        from ambit.server.service import Deadline
        self.deadline = Deadline.after(context.time_remaining(), is_active=context.is_active)


def _rich_status(err: Exception):
    """The real server's status for a handler's exception (code, message, field violations)."""
    from grpc_status import rpc_status
    from ambit.server.status import to_status
    return rpc_status.to_status(to_status(err))


class FakeAmbitServicer(pb_grpc.AmbitServiceServicer):
    def __init__(self, parses: dict[str, list[str]] | None = None, delay: float = 0.0,
                 model_id: str = "fake-model", fail=None):
        """``fail(method, request)`` may return ``(grpc.StatusCode, message)`` to make a
        ScoreCandidates or ParseDistribution call fail; ``delay``: seconds slept per request."""
        self.parses = parses or {}
        self.fail = fail
        self.delay = delay
        self.model_id = model_id
        self.server_id = uuid.uuid4().hex[:12]
        self.counts: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        self._t0 = time.monotonic()
        self._logic = None  # the real servicer of the logic RPCs, made on first use

    def _count(self, name: str, request=None, context=None) -> None:
        """Count a request (and sleep ``delay``); with its context, fail it as ``fail`` says."""
        with self._lock:
            self.counts[name] += 1
        if self.delay:
            time.sleep(self.delay)
        err = self.fail(name, request) if self.fail is not None and context is not None else None
        if err is not None:
            context.abort(*err)

    def _scores(self, prompt: str, candidates) -> list:
        out = []
        for cand in candidates:
            toks = cand.split(" ") if cand.strip() else [cand]
            probs = [_unit(prompt, cand, str(i)) for i in range(len(toks))]
            lps = [math.log(p) for p in probs]
            out.append(pb.CandidateScore(text=cand, tokens=toks, token_probs=probs, min_prob=min(probs),
                                         sum_logprob=sum(lps), mean_logprob=sum(lps) / len(lps)))
        total = sum(s.min_prob for s in out) or 1.0
        for s in out:
            s.min_prob_renorm = s.min_prob / total
        return out

    def ScoreCandidates(self, request, context):
        self._count("ScoreCandidates", request, context)
        if not request.candidates:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "candidates must not be empty")
        return pb.ScoreCandidatesResponse(request_id=request.request_id, model_id=self.model_id,
                                          scores=self._scores(request.prompt, request.candidates))

    def ScoreCandidatesBatch(self, request, context):
        self._count("ScoreCandidatesBatch")
        for i, item in enumerate(request.items):
            if not item.candidates:
                yield pb.ScoreCandidatesBatchResult(index=i, status=_status(
                    grpc.StatusCode.INVALID_ARGUMENT, "candidates must not be empty"))
                continue
            yield pb.ScoreCandidatesBatchResult(index=i, response=pb.ScoreCandidatesResponse(
                request_id=item.request_id, model_id=self.model_id,
                scores=self._scores(item.prompt, item.candidates)))

    def ParseDistribution(self, request, context):
        self._count("ParseDistribution", request, context)
        from ambit import logic
        prompt = request.prompt.replace("{utterance}", request.utterance)
        texts = self.parses.get(request.prompt) or self.parses.get(prompt) or [DEFAULT_LF]
        k = request.decoding.beam_size or 5
        cands = []
        for i, text in enumerate(texts[:k]):
            try:
                canon, status = logic.canonical_form(text, FOL), pb.PARSE_STATUS_OK
            except Exception:
                canon, status = "", pb.PARSE_STATUS_INVALID
            toks = text.split(" ")
            probs = [_unit(prompt, text, str(j)) for j in range(len(toks))]
            cands.append(pb.LFCandidate(text=text, logprob=sum(map(math.log, probs)), min_prob=min(probs),
                                        token_probs=probs, tokens=toks, parse_status=status,
                                        canonical=canon, probability=1.0 / len(texts[:k]),
                                        meaning_class=i if status == pb.PARSE_STATUS_OK else -1))
        return pb.ParseDistributionResponse(request_id=request.request_id, candidates=cands,
                                            prompt=prompt, model_id=self.model_id, classes_exact=True)

    def CheckEquivalence(self, request, context):
        self._count("CheckEquivalence")
        try:
            return _equivalence(request)
        except Exception as err:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"cannot parse: {err}")

    def CheckEquivalenceBatch(self, request, context):
        """Each item as CheckEquivalence answers it; one that does not read: INVALID_ARGUMENT."""
        self._count("CheckEquivalenceBatch")
        for i, item in enumerate(request.items):
            try:
                response = _equivalence(item)
            except Exception as err:
                yield pb.CheckEquivalenceBatchResult(index=i, status=_status(
                    grpc.StatusCode.INVALID_ARGUMENT, f"items[{i}]: cannot parse: {err}"))
                continue
            yield pb.CheckEquivalenceBatchResult(index=i, response=response)

    def Canonicalize(self, request, context):
        self._count("Canonicalize")
        from ambit import logic
        try:
            return pb.CanonicalizeResponse(request_id=request.request_id,
                                           canonical=logic.canonical_form(request.lf, FOL), format=pb.LF_FORMAT_FOL)
        except Exception as err:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"lf: {err}")

    def GetModelInfo(self, request, context):
        self._count("GetModelInfo")
        return pb.GetModelInfoResponse(request_id=request.request_id, model_id=self.model_id, device="cpu",
                                       dtype="float32", formats=list(AMP_NAMES), model_loaded=True,
                                       server_id=self.server_id, version="fake")

    def GetStats(self, request, context):
        with self._lock:
            methods = {k: pb.MethodStats(requests=v) for k, v in self.counts.items()}
        return pb.GetStatsResponse(request_id=request.request_id, server_id=self.server_id,
                                   methods=methods, uptime_seconds=time.monotonic() - self._t0)

    def Generate(self, request, context):
        """The last turn echoed, cut to `max_new_tokens` words; with a `format`, the first LF given
        for it (else ``DEFAULT_LF``) and its formula when it reads."""
        self._count("Generate")
        if not request.messages:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "messages must not be empty")
        last = request.messages[-1].content
        template = not request.HasField("use_chat_template") or request.use_chat_template
        prompt = "\n".join(f"{m.role}: {m.content}" for m in request.messages)
        text = (self.parses.get(last) or [DEFAULT_LF])[0] if request.HasField("format") else last
        formula = _reads(text, request.format) if request.HasField("format") else ""
        words, budget = text.split(" "), request.max_new_tokens or DEFAULT_NEW_TOKENS
        return pb.GenerateResponse(
            request_id=request.request_id, text=" ".join(words[:budget]), prompt=prompt,
            prompt_tokens=len(prompt.split()), new_tokens=min(len(words), budget),
            finish_reason="length" if len(words) > budget else "stop", model_id=self.model_id,
            chat_template=template, formula=formula if len(words) <= budget else "")

    # -- the logic RPCs that the fake answers as the real server does (no model involved)
    def VerifyRADD(self, request, context):
        return self._real("VerifyRADD", request, context)

    def ExplainReadings(self, request, context):
        return self._real("ExplainReadings", request, context)

    def CheckEntailment(self, request, context):
        return self._real("CheckEntailment", request, context)

    def CheckEntailmentBatch(self, request, context):
        yield from self._real_stream("CheckEntailmentBatch", request, context)

    def _servicer(self):
        """The real servicer over a service core without a model, made on first use."""
        from ambit.server.service import AmbitCore
        from ambit.server.servicer import AmbitServicer

        with self._lock:
            if self._logic is None:
                self._logic = AmbitServicer(AmbitCore())
            return self._logic

    def _real(self, method: str, request, context):
        """`method` counted and answered by the real servicer (errors: the real statuses)."""
        self._count(method)
        try:
            return getattr(self._servicer(), method)(request, _Call(context))
        except Exception as err:
            context.abort_with_status(_rich_status(err))

    def _real_stream(self, method: str, request, context):
        self._count(method)
        try:
            yield from getattr(self._servicer(), method)(request, _Call(context))
        except Exception as err:
            context.abort_with_status(_rich_status(err))


class FakeServer:
    """A started fake server: ``.port``, ``.servicer``, ``.stop(grace)``."""

    def __init__(self, servicer: FakeAmbitServicer | None = None, workers: int = 8):
        from grpc_health.v1 import health, health_pb2, health_pb2_grpc
        self.servicer = servicer or FakeAmbitServicer()
        self._server = grpc.server(cf.ThreadPoolExecutor(max_workers=workers))
        pb_grpc.add_AmbitServiceServicer_to_server(self.servicer, self._server)
        hs = health.HealthServicer()
        hs.set("", health_pb2.HealthCheckResponse.SERVING)
        health_pb2_grpc.add_HealthServicer_to_server(hs, self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self._server.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, grace: float | None = None) -> None:
        self._server.stop(grace).wait()
