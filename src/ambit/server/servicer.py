"""The AmbitService servicer: each handler converts the request message to the core's values
(`server.convert`), calls the service core, and converts the answer back. Deadlines, error
statuses, statistics and logging are the interceptor's (`server.guard.interceptor`), which also hands
each handler a context carrying the request's `deadline`. Which core method and conversions each
handler uses is the RPC's row in `ambit.proto.rpcs` (tests/proto/test_rpcs.py holds this class to it)."""

from __future__ import annotations

from typing import Iterator

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc

from ambit.server.convert import core as convert
from ambit.server.guard.interceptor import CallContext
from ambit.server.service import AmbitCore
from ambit.server.stats import Stats


class AmbitServicer(ambit_pb2_grpc.AmbitServiceServicer):
    """AmbitService over an `AmbitCore`; `stats` is what GetStats reports."""

    def __init__(self, core: AmbitCore, stats: Stats) -> None:
        self.core = core
        self.stats = stats

    def ScoreCandidates(self, request: pb.ScoreCandidatesRequest, context: CallContext) -> pb.ScoreCandidatesResponse:
        scores = self.core.score(convert.score_query(request), context.deadline)
        return convert.score_response(request, scores, self.core.model_id)

    def ScoreCandidatesBatch(
        self, request: pb.ScoreCandidatesBatchRequest, context: CallContext
    ) -> Iterator[pb.ScoreCandidatesBatchResult]:
        items = request.items
        queries = [convert.score_query(item) for item in items]
        for i, outcome in self.core.score_batch(queries, context.deadline):
            yield convert.score_batch_result(items, i, outcome, self.core.model_id)

    def CheckEquivalence(
        self, request: pb.CheckEquivalenceRequest, context: CallContext
    ) -> pb.CheckEquivalenceResponse:
        answer = self.core.check_equivalence(convert.equivalence_query(request), context.deadline)
        return convert.equivalence_response(request, answer)

    def CheckEquivalenceBatch(
        self, request: pb.CheckEquivalenceBatchRequest, context: CallContext
    ) -> Iterator[pb.CheckEquivalenceBatchResult]:
        items = request.items
        for i, outcome in self.core.check_equivalence_batch(convert.equivalence_items(items), context.deadline):
            yield convert.equivalence_batch_result(items, i, outcome)

    def Canonicalize(self, request: pb.CanonicalizeRequest, context: CallContext) -> pb.CanonicalizeResponse:
        query = convert.canonical_query(request)
        return convert.canonical_response(request, query, self.core.canonicalize(query))

    def ParseDistribution(
        self, request: pb.ParseDistributionRequest, context: CallContext
    ) -> pb.ParseDistributionResponse:
        dist = self.core.parse_distribution(convert.parse_query(request), context.deadline)
        return convert.distribution_response(request, dist)

    def VerifyRADD(self, request: pb.VerifyRADDRequest, context: CallContext) -> pb.VerifyRADDResponse:
        answer = self.core.verify_radd(convert.radd_query(request), context.deadline)
        return convert.radd_response(request, answer)

    def GetModelInfo(self, request: pb.GetModelInfoRequest, context: CallContext) -> pb.GetModelInfoResponse:
        return convert.model_info_response(request, self.core.info())

    def GetStats(self, request: pb.GetStatsRequest, context: CallContext) -> pb.GetStatsResponse:
        return convert.stats_response(request, self.core.server_id, self.stats, self.core.model_counters())

    def ExplainReadings(self, request: pb.ExplainReadingsRequest, context: CallContext) -> pb.ExplainReadingsResponse:
        answer = self.core.explain_readings(convert.explain_query(request), context.deadline)
        return convert.explain_response(request, answer)

    def Generate(self, request: pb.GenerateRequest, context: CallContext) -> pb.GenerateResponse:
        reply = self.core.generate(convert.generate_query(request), context.deadline)
        return convert.generate_response(request, reply, self.core.model_id)

    def CheckEntailment(self, request: pb.CheckEntailmentRequest, context: CallContext) -> pb.CheckEntailmentResponse:
        answer = self.core.check_entailment(convert.entailment_query(request), context.deadline)
        return convert.entailment_response(request, answer)

    def CheckEntailmentBatch(
        self, request: pb.CheckEntailmentBatchRequest, context: CallContext
    ) -> Iterator[pb.CheckEntailmentBatchResult]:
        items = request.items
        for i, outcome in self.core.check_entailment_batch(convert.entailment_items(items), context.deadline):
            yield convert.entailment_batch_result(items, i, outcome)
