"""Typed client for the ambit gRPC service: plain dataclasses in, plain dataclasses out. Server
errors raise :class:`AmbitError` with the gRPC status code name, the server's message and any
``google.rpc.BadRequest`` field violations."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import grpc

from ambit.client import results as wire
from ambit.client.channel import health_request, health_status, make_channel, split_servers
from ambit.client.credentials import ClientSecurity, token_from
from ambit.client.diagnose import hint
from ambit.client.errors import AmbitError, _item_error, _wrap
from ambit.client.results import (  # noqa: F401  (re-exported: `client.api` is where users find them)
    _CONSISTENCY, CandidateScore, Equivalence, ExplainedDistribution, Interpretation, LFCandidate, MeaningClass, ModelInfo,
    ParseDistribution, RaddVerdict, Scores, Stats, _candidate, _equivalence, _json_or_none, _score,
)
from ambit.client.entailment import Entailment, entailment, request as entailment_request
from ambit.client.explanation import Explanation, explanation
from ambit.client.generation import Reply, Turn
from ambit.client import generation as _gen
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc
from ambit.logic.syntax.dialect import FOL, FOLIO


class Client:
    """A connection to one server, or several (``"h1:p1,h2:p2"`` or a list) in round robin;
    ``timeout`` in seconds (None: none). ``token`` defaults to ``$AMBIT_TOKEN`` and is refused
    without TLS to a non-loopback host unless ``insecure``."""

    def __init__(self, address: str | Sequence[str], timeout: float | None = 600.0,
                 wait_for_ready: bool = False, *, tls_ca: str | None = None, tls_cert: str | None = None,
                 tls_key: str | None = None, token: str | None = None, insecure: bool = False,
                 security: ClientSecurity | None = None):
        self.servers = split_servers(address)
        self.timeout = timeout
        self.wait_for_ready = wait_for_ready
        self._security = security = security or ClientSecurity(tls_ca, tls_cert, tls_key,
                                                               token or token_from(None), insecure)
        self._channel = make_channel(self.servers, security)
        self._stub = pb_grpc.AmbitServiceStub(self._channel)
        self._ids = itertools.count()
        self._prefix = uuid.uuid4().hex[:8]

    def _rid(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    def _call(self, method: str, request, timeout: float | None):
        try:
            return getattr(self._stub, method)(
                request, timeout=self.timeout if timeout is None else timeout,
                wait_for_ready=self.wait_for_ready)
        except grpc.RpcError as err:
            raise self._error(err) from None

    def _error(self, err: grpc.RpcError) -> AmbitError:
        """The call's AmbitError; one that never reached a server says what to do first."""
        e = _wrap(err)
        step = hint(e.code, e.message, self.servers, self._security)
        return e if step is None else AmbitError(e.code, f"{step} ({e.message})", e.violations)

    def close(self) -> None:
        """Close the channel (also on leaving a `with Client(...)` block)."""
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def parse_distribution(self, utterance: str, prompt: str | None = None, *, fmt: str = FOL,
                           k: int = 5, strategy: str = "beam", max_tokens: int = 0,
                           temperature: float = 0.0, seed: int | None = None,
                           setting: str | None = None, type: str = "", ratio: float = 0.0,
                           spec_seed: int = 0, closed_vocabulary: bool | None = None,
                           prolog_seconds: float = 0.0, timeout: float | None = None) -> ParseDistribution:
        """Decode k LFs for ``utterance`` from ``prompt`` ("{utterance}" filled in), the AmP prompt
        of ``setting``, else the server's default; ``prolog_seconds``: per check (0: server's)."""
        decoding = pb.DecodingParams(
            strategy=wire.strategy(strategy),
            beam_size=k if wire.strategy(strategy) != pb.DECODING_STRATEGY_SAMPLE else 0,
            num_samples=k if wire.strategy(strategy) == pb.DECODING_STRATEGY_SAMPLE else 0,
            temperature=temperature, max_tokens=max_tokens)
        if seed is not None:
            decoding.seed = seed
        if closed_vocabulary is not None:
            decoding.closed_vocabulary = closed_vocabulary
        req = pb.ParseDistributionRequest(request_id=self._rid(), utterance=utterance,
                                          format=wire.fmt(fmt), decoding=decoding,
                                          time_limit_ms=wire.ms(prolog_seconds))
        wire.prompt_source(req, prompt, setting, type, ratio, spec_seed)
        return _distribution(self._call("ParseDistribution", req, timeout))

    def _score_request(self, prompt: str, candidates: Sequence[str], end_marker: bool):
        return pb.ScoreCandidatesRequest(request_id=self._rid(), prompt=prompt,
                                         candidates=list(candidates), end_marker=end_marker)

    def score(self, prompt: str, candidates: Sequence[str], *, end_marker: bool = False,
              timeout: float | None = None) -> Scores:
        """Forced-decode scores of each candidate as a continuation of ``prompt``."""
        r = self._call("ScoreCandidates", self._score_request(prompt, candidates, end_marker), timeout)
        return Scores([_score(s) for s in r.scores], r.model_id)

    def score_batch(self, items: Iterable[tuple[str, Sequence[str]]], *, end_marker: bool = False,
                    timeout: float | None = None) -> list[Scores | AmbitError]:
        """Many (prompt, candidates) in one streaming call; AmbitError for each rejected."""
        reqs = [self._score_request(p, c, end_marker) for p, c in items]
        batch = pb.ScoreCandidatesBatchRequest(request_id=self._rid(), items=reqs)
        return self._stream("ScoreCandidatesBatch", batch, len(reqs), timeout,
                            lambda r: Scores([_score(s) for s in r.scores], r.model_id), _item_error)

    def _stream(self, method: str, batch, n: int, timeout: float | None,
                convert: Callable[[Any], Any], failed: Callable[[Any], AmbitError]) -> list:
        """A streaming batch call's results in input order: `convert` or `failed` of each item."""
        out: list = [None] * n
        try:
            for res in getattr(self._stub, method)(
                    batch, timeout=self.timeout if timeout is None else timeout,
                    wait_for_ready=self.wait_for_ready):
                out[res.index] = failed(res.status) if res.status.code else convert(res.response)
        except grpc.RpcError as err:
            raise self._error(err) from None
        if missing := [i for i, x in enumerate(out) if x is None]:
            raise AmbitError("INTERNAL", f"batch returned no result for items {missing}")
        return out

    def equivalent(self, a: str, b: str, *, fmt: str = FOL, time_limit_ms: int = 0,
                   timeout: float | None = None, free_variables: str | None = None,
                   symbols: str | None = None) -> Equivalence:
        """Logical equivalence of two LFs (Prolog), with entailment both ways. `symbols`: "shared"
        (one name space, as Prover9, E and TPTP) or "separate" (None: the format's)."""
        r = self._call("CheckEquivalence", pb.CheckEquivalenceRequest(
            request_id=self._rid(), a=a, b=b, format=wire.fmt(fmt), time_limit_ms=time_limit_ms,
            free_variables=wire.free(free_variables), symbols=wire.symbols(symbols)), timeout)
        return _equivalence(r)

    def equivalent_batch(self, pairs: Iterable[tuple[str, str]], *, fmt: str = FOL, time_limit_ms: int = 0,
                         timeout: float | None = None, free_variables: str | None = None,
                         symbols: str | None = None) -> list[Equivalence | AmbitError]:
        """Many (a, b) pairs in one streaming call; AmbitError for each one rejected."""
        reqs = [pb.CheckEquivalenceRequest(a=a, b=b, format=wire.fmt(fmt), time_limit_ms=time_limit_ms,
                                           free_variables=wire.free(free_variables), symbols=wire.symbols(symbols))
                for a, b in pairs]
        batch = pb.CheckEquivalenceBatchRequest(request_id=self._rid(), items=reqs)
        return self._stream("CheckEquivalenceBatch", batch, len(reqs), timeout, _equivalence, _item_error)

    def canonicalize(self, lf: str, *, fmt: str = FOL, to: str | None = None, vars: str = "amp",
                     timeout: float | None = None) -> str:
        """Canonical form of ``lf`` (AmP-compatible), in format ``to`` (default: same)."""
        r = self._call("Canonicalize", pb.CanonicalizeRequest(
            request_id=self._rid(), lf=lf, format=wire.fmt(fmt),
            output_format=wire.fmt(to) if to else pb.LF_FORMAT_UNSPECIFIED,
            var_naming=wire.var_naming(vars)), timeout)
        return r.canonical

    def verify_radd(self, text: str | None = None, *, instance_json: str | None = None,
                    time_limit_ms: int = 0, timeout: float | None = None) -> RaddVerdict:
        """Regularity reasoning on a RADD instance (raw benchmark text or structured JSON)."""
        req = pb.VerifyRADDRequest(request_id=self._rid(), time_limit_ms=time_limit_ms)
        if instance_json is not None:
            req.instance_json = instance_json
        else:
            req.text = text or ""
        r = self._call("VerifyRADD", req, timeout)
        return RaddVerdict(
            interpretations=[Interpretation(i.label, i.text, _CONSISTENCY.get(i.verdict, str(i.verdict)),
                                            i.relation, i.explanation) for i in r.interpretations],
            answer=r.answer, derivation=list(r.derivation), details=_json_or_none(r.details_json))

    def info(self, timeout: float | None = None) -> ModelInfo:
        """The server's model (id, kind, device, dtype, a remote endpoint's capabilities), formats and limits."""
        r = self._call("GetModelInfo", pb.GetModelInfoRequest(request_id=self._rid()), timeout)
        limits = {f.name: getattr(r.limits, f.name) for f in r.limits.DESCRIPTOR.fields}
        return ModelInfo(model_id=r.model_id, device=r.device, dtype=r.dtype, vocab_size=r.vocab_size,
                         formats=list(r.formats), model_loaded=r.model_loaded, max_batch=r.max_batch,
                         server_id=r.server_id, version=r.version, limits=limits,
                         kind=r.model_kind, remote=_remote(r))

    def stats(self, timeout: float | None = None) -> Stats:
        """Requests and errors per RPC method, model batches and jobs, and the server's uptime."""
        r = self._call("GetStats", pb.GetStatsRequest(request_id=self._rid()), timeout)
        return Stats(server_id=r.server_id,
                     requests={k: v.requests for k, v in r.methods.items()},
                     errors={k: v.errors for k, v in r.methods.items()},
                     model_batches=r.model_batches, model_jobs=r.model_jobs,
                     uptime_seconds=r.uptime_seconds)

    def health(self, service: str = "", timeout: float | None = 10.0) -> str:
        """Standard gRPC health check (``SERVING``, ...), spoken on the wire by hand."""
        check = self._channel.unary_unary("/grpc.health.v1.Health/Check",
                                          request_serializer=health_request,
                                          response_deserializer=health_status)
        try:
            return check(service, timeout=timeout)
        except grpc.RpcError as err:
            raise self._error(err) from None

    def explain_readings(self, utterance: str, lfs: Sequence[str], *, fmt: str = FOL,
                         weights: Sequence[float] | None = None, time_limit_ms: int = 0,
                         timeout: float | None = None) -> Explanation:
        """Paraphrases of ``lfs``, situations telling them apart, a question. No model involved."""
        r = self._call("ExplainReadings", pb.ExplainReadingsRequest(
            request_id=self._rid(), utterance=utterance, lfs=list(lfs), format=wire.fmt(fmt),
            weights=list(weights or ()), time_limit_ms=time_limit_ms), timeout)
        return explanation(r, utterance, fmt)

    def parse_explained(self, utterance: str, prompt: str | None = None, *, fmt: str = FOL, k: int = 5,
                        strategy: str = "beam", setting: str | None = None, type: str = "", ratio: float = 0.0,
                        prolog_seconds: float = 0.0, timeout: float | None = None) -> ExplainedDistribution:
        """``parse_distribution`` with each class's paraphrase and the two heaviest explained."""
        sample = wire.strategy(strategy) == pb.DECODING_STRATEGY_SAMPLE
        req = pb.ParseDistributionRequest(
            request_id=self._rid(), utterance=utterance, format=wire.fmt(fmt), explain=True,
            time_limit_ms=wire.ms(prolog_seconds),
            decoding=pb.DecodingParams(
                strategy=pb.DECODING_STRATEGY_SAMPLE if sample else pb.DECODING_STRATEGY_BEAM,
                beam_size=0 if sample else k, num_samples=k if sample else 0))
        wire.prompt_source(req, prompt, setting, type, ratio, 0)
        r = self._call("ParseDistribution", req, timeout)
        explained = explanation(r.explanation, utterance, fmt) if r.HasField("explanation") else None
        return ExplainedDistribution(_distribution(r), [c.paraphrase for c in r.classes], explained)

    def check_entailment(self, premises: Sequence[str], conclusion: str, *, fmt: str = FOLIO,
                         time_limit_ms: int = 0, timeout: float | None = None,
                         symbols: str | None = None) -> Entailment:
        """Do the premises entail the conclusion (full first-order logic)? With the evidence."""
        req = entailment_request(self._rid(), premises, conclusion, wire.fmt(fmt), time_limit_ms)
        req.symbols = wire.symbols(symbols)
        return entailment(self._call("CheckEntailment", req, timeout))

    def check_entailment_batch(self, stories: Iterable[tuple[Sequence[str], str]], *, fmt: str = FOLIO,
                               time_limit_ms: int = 0, timeout: float | None = None,
                               symbols: str | None = None) -> list[Entailment | AmbitError]:
        """Many (premises, conclusion) in one streaming call; AmbitError for each rejected."""
        reqs = [entailment_request("", ps, c, wire.fmt(fmt), time_limit_ms) for ps, c in stories]
        for r in reqs:
            r.symbols = wire.symbols(symbols)
        batch = pb.CheckEntailmentBatchRequest(request_id=self._rid(), items=reqs)
        return self._stream("CheckEntailmentBatch", batch, len(reqs), timeout, entailment, _item_error)

    def generate(self, messages: Sequence[Turn], *, max_new_tokens: int = 0, use_chat_template: bool | None = None,
                 temperature: float = 0.0, top_p: float = 1.0, seed: int | None = None,
                 fmt: str | None = None, timeout: float | None = None) -> Reply:
        """The model's reply to chat turns; with ``fmt``, one formula under its grammar."""
        req = _gen.request(self._rid(), messages, max_new_tokens, use_chat_template, temperature, top_p, seed,
                           None if fmt is None else wire.fmt(fmt))
        return _gen.reply(self._call("Generate", req, timeout))


def _distribution(r: pb.ParseDistributionResponse) -> ParseDistribution:
    return ParseDistribution(
        candidates=[_candidate(c) for c in r.candidates],
        classes=[MeaningClass(c.canonical, c.probability_mass, list(c.member_indices))
                 for c in r.classes],
        classes_exact=r.classes_exact, prompt=r.prompt, model_id=r.model_id,
        unparsed_mass=r.unparsed_mass)


def _remote(r: pb.GetModelInfoResponse) -> dict | None:
    """GetModelInfo's `remote` block as a plain dict (None for a model in the server's own engine)."""
    if not r.HasField("remote"):
        return None
    m = r.remote
    return {"base_url": m.base_url, "model": m.model, "capabilities": list(m.capabilities),
            "max_concurrency": m.max_concurrency, "requests": m.requests, "cache_hits": m.cache_hits,
            "retries": m.retries, "prompt_tokens": m.prompt_tokens, "completion_tokens": m.completion_tokens}
