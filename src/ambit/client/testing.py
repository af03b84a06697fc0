"""A small in-process fake of the ambit service for tests of clients and runners.

Deterministic and model-free: scores come from a hash of (prompt, candidate), decoding
returns the LFs it was given (``FakeAmbitServicer(parses={prompt: [lf, ...]})``), and
equivalence/canonical forms use ``logic`` directly. It counts requests per method like
the real server's GetStats, and can sleep per request (``delay``) so runs can be killed
mid-way.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import hashlib
import math
import threading
import time
import uuid

import grpc

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc


def _unit(*parts: str) -> float:
    """A deterministic number in (0, 1) from strings."""
    h = hashlib.sha256("\x00".join(parts).encode()).digest()
    return (int.from_bytes(h[:8], "big") + 1) / (2 ** 64 + 2)


class FakeAmbitServicer(pb_grpc.AmbitServiceServicer):
    def __init__(self, parses: dict[str, list[str]] | None = None, delay: float = 0.0,
                 model_id: str = "fake-model", fail=None):
        """``fail(method, request)`` may return ``(grpc.StatusCode, message)`` to make that call
        fail (tests of clients' error handling), or None to answer normally."""
        self.parses = parses or {}
        self.fail = fail
        self.delay = delay
        self.model_id = model_id
        self.server_id = uuid.uuid4().hex[:12]
        self.counts: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        self._t0 = time.monotonic()

    def _count(self, name: str) -> None:
        with self._lock:
            self.counts[name] += 1
        if self.delay:
            time.sleep(self.delay)

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

    def _maybe_fail(self, method: str, request, context) -> None:
        if self.fail is not None and (err := self.fail(method, request)) is not None:
            context.abort(*err)

    def ScoreCandidates(self, request, context):
        self._count("ScoreCandidates")
        self._maybe_fail("ScoreCandidates", request, context)
        if not request.candidates:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "candidates must not be empty")
        return pb.ScoreCandidatesResponse(request_id=request.request_id, model_id=self.model_id,
                                          scores=self._scores(request.prompt, request.candidates))

    def ScoreCandidatesBatch(self, request, context):
        self._count("ScoreCandidatesBatch")
        for i, item in enumerate(request.items):
            if not item.candidates:
                from google.rpc import status_pb2
                yield pb.ScoreCandidatesBatchResult(index=i, status=status_pb2.Status(
                    code=grpc.StatusCode.INVALID_ARGUMENT.value[0], message="candidates must not be empty"))
                continue
            yield pb.ScoreCandidatesBatchResult(index=i, response=pb.ScoreCandidatesResponse(
                request_id=item.request_id, model_id=self.model_id,
                scores=self._scores(item.prompt, item.candidates)))

    def ParseDistribution(self, request, context):
        self._count("ParseDistribution")
        self._maybe_fail("ParseDistribution", request, context)
        from ambit import logic
        prompt = request.prompt.replace("{utterance}", request.utterance)
        texts = self.parses.get(request.prompt) or self.parses.get(prompt) or ["exists x . man(x)"]
        k = request.decoding.beam_size or 5
        cands = []
        for i, text in enumerate(texts[:k]):
            try:
                canon, status = logic.canonical_form(text, "fol"), pb.PARSE_STATUS_OK
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
        from ambit import logic
        try:
            ca, cb = logic.canonical_form(request.a, "fol"), logic.canonical_form(request.b, "fol")
        except Exception as err:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"cannot parse: {err}")
        same = ca == cb
        r = pb.CheckEquivalenceResponse(
            request_id=request.request_id,
            verdict=pb.VERDICT_EQUIVALENT if same else pb.VERDICT_NOT_EQUIVALENT,
            a_entails_b=same, b_entails_a=same, canonical_a=ca, canonical_b=cb,
            witness_json="" if same else '{"failed": "a_entails_b"}')
        return r

    def Canonicalize(self, request, context):
        self._count("Canonicalize")
        from ambit import logic
        try:
            return pb.CanonicalizeResponse(request_id=request.request_id,
                                           canonical=logic.canonical_form(request.lf, "fol"), format=pb.LF_FORMAT_FOL)
        except Exception as err:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"lf: {err}")

    def GetModelInfo(self, request, context):
        self._count("GetModelInfo")
        return pb.GetModelInfoResponse(request_id=request.request_id, model_id=self.model_id, device="cpu",
                                       dtype="float32", formats=["fol", "lisp"], model_loaded=True,
                                       server_id=self.server_id, version="fake")

    def GetStats(self, request, context):
        with self._lock:
            methods = {k: pb.MethodStats(requests=v) for k, v in self.counts.items()}
        return pb.GetStatsResponse(request_id=request.request_id, server_id=self.server_id,
                                   methods=methods, uptime_seconds=time.monotonic() - self._t0)


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
