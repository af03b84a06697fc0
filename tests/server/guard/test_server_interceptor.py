"""The RPC interceptor on a real gRPC server on localhost, in front of a servicer whose
handlers raise what the test chooses: every exception becomes its documented status (with
rich details for bad input), every call is counted and timed, handlers see the request's
deadline, and other services pass through uncounted."""

from __future__ import annotations

from concurrent import futures

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from ambit import logic
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.app import SERVICE_NAME
from ambit.server.guard.interceptor import RpcInterceptor
from ambit.server.loop import LoopThread
from ambit.server.service import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, ServiceError,
)
from ambit.server.stats import Stats


class RaisingServicer(ambit_pb2_grpc.AmbitServiceServicer):
    """Canonicalize raises `self.error` (if set) or answers with the deadline it was given;
    CheckEquivalenceBatch streams `self.items` results, then raises `self.error` (if set)."""

    def __init__(self) -> None:
        self.error: BaseException | None = None
        self.items = 0

    def Canonicalize(self, request, context):
        if self.error is not None:
            raise self.error
        left = context.deadline.remaining()
        return pb.CanonicalizeResponse(request_id=request.request_id, canonical="none" if left is None else f"{left:.3f}")

    def CheckEquivalenceBatch(self, request, context):
        for i in range(self.items):
            yield pb.CheckEquivalenceBatchResult(index=i)
        if self.error is not None:
            raise self.error


@pytest.fixture(scope="module")
def setup():
    stats = Stats()
    servicer = RaisingServicer()
    loop, pool = LoopThread(), futures.ThreadPoolExecutor(4)

    async def make() -> grpc.aio.Server:
        server = grpc.aio.server(interceptors=[RpcInterceptor(stats, SERVICE_NAME, pool)])
        ambit_pb2_grpc.add_AmbitServiceServicer_to_server(servicer, server)
        health_pb2_grpc.add_HealthServicer_to_server(health.aio.HealthServicer(), server)
        return server

    server = loop.call(make)
    port = server.add_insecure_port("127.0.0.1:0")
    loop.call(server.start)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        yield servicer, stats, ambit_pb2_grpc.AmbitServiceStub(ch), health_pb2_grpc.HealthStub(ch)
    loop.call(lambda: server.stop(0))
    loop.close()
    pool.shutdown()


def _malformed() -> MalformedLF:
    with pytest.raises(logic.LFParseError) as exc:
        logic.parse("exists x . man(x) AND", "fol")
    return MalformedLF("lf", exc.value)


@pytest.mark.parametrize(
    "error,code,message",
    [
        (InvalidField("items[2].prompt", "must not be empty", "EMPTY"), grpc.StatusCode.INVALID_ARGUMENT,
         "items[2].prompt: must not be empty"),
        (Overloaded("model queue full (2 pending jobs)"), grpc.StatusCode.RESOURCE_EXHAUSTED,
         "model queue full (2 pending jobs)"),
        (DeadlineExceeded("deadline exceeded"), grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded"),
        (Cancelled("request cancelled"), grpc.StatusCode.CANCELLED, "request cancelled"),
        (ModelUnavailable("no model loaded"), grpc.StatusCode.FAILED_PRECONDITION, "no model loaded"),
        (ServiceError("an error of no known kind"), grpc.StatusCode.INTERNAL, "internal error; see the server log"),
        (RuntimeError("secret detail"), grpc.StatusCode.INTERNAL, "internal error; see the server log"),
    ],
)
def test_exceptions_become_their_status_codes(setup, error, code, message):
    servicer, stats, stub, _ = setup
    servicer.error = error
    before = stats.snapshot().get("Canonicalize")
    with pytest.raises(grpc.RpcError) as exc:
        stub.Canonicalize(pb.CanonicalizeRequest(request_id="x"))
    servicer.error = None
    assert exc.value.code() == code and exc.value.details() == message
    after = stats.snapshot()["Canonicalize"]
    assert after.requests == (before.requests if before else 0) + 1
    assert after.errors == (before.errors if before else 0) + 1


def test_invalid_field_carries_a_field_violation(setup):
    servicer, _, stub, _ = setup
    servicer.error = InvalidField("decoding.top_p", "2.0 is outside (0, 1]", "OUT_OF_RANGE")
    with pytest.raises(grpc.RpcError) as exc:
        stub.Canonicalize(pb.CanonicalizeRequest())
    servicer.error = None
    (detail,) = rpc_status.from_call(exc.value).details
    bad = error_details_pb2.BadRequest()
    assert detail.Unpack(bad)
    (violation,) = bad.field_violations
    assert (violation.field, violation.reason, violation.description) == (
        "decoding.top_p", "OUT_OF_RANGE", "2.0 is outside (0, 1]"
    )


def test_malformed_lf_carries_the_parse_position(setup):
    servicer, _, stub, _ = setup
    servicer.error = _malformed()
    with pytest.raises(grpc.RpcError) as exc:
        stub.Canonicalize(pb.CanonicalizeRequest())
    servicer.error = None
    details = rpc_status.from_call(exc.value).details
    info = error_details_pb2.ErrorInfo()
    assert [d.Unpack(info) for d in details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)] == [True]
    err = _malformed().error
    assert info.reason == "LF_PARSE_ERROR" and info.metadata["field"] == "lf"
    assert int(info.metadata["position"]) == err.pos and info.metadata["format"] == err.fmt


def test_handlers_see_the_request_deadline(setup):
    servicer, _, stub, _ = setup
    assert stub.Canonicalize(pb.CanonicalizeRequest()).canonical == "none"
    left = float(stub.Canonicalize(pb.CanonicalizeRequest(), timeout=30).canonical)
    assert 25 < left <= 31  # gRPC rounds the deadline it passes on


def test_streams_count_items_and_fail_after_the_items_sent(setup):
    servicer, stats, stub, _ = setup
    before_items = stats.batch_items
    servicer.items = 3
    assert [r.index for r in stub.CheckEquivalenceBatch(pb.CheckEquivalenceBatchRequest())] == [0, 1, 2]
    assert stats.batch_items == before_items + 3
    servicer.items, servicer.error = 2, Overloaded("full")
    got = []
    with pytest.raises(grpc.RpcError) as exc:
        for r in stub.CheckEquivalenceBatch(pb.CheckEquivalenceBatchRequest()):
            got.append(r.index)
    servicer.items, servicer.error = 0, None
    assert got == [0, 1] and exc.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    counter = stats.snapshot()["CheckEquivalenceBatch"]
    assert (counter.requests, counter.errors) == (2, 1) and counter.total_seconds > 0
    assert stats.batch_items == before_items + 5


def test_other_services_pass_through_uncounted(setup):
    _, stats, _, health_stub = setup
    reply = health_stub.Check(health_pb2.HealthCheckRequest())
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    assert all(name in {"Canonicalize", "CheckEquivalenceBatch"} for name in stats.snapshot())


def test_calls_wait_for_the_core_s_admission_and_are_refused_past_it():
    """With the core's call scope (`AmbitCore.open_call`: one slot, one place in the queue): a
    second call waits, a third is RESOURCE_EXHAUSTED with a RetryInfo at once, and a waiting call
    whose deadline passes ends DEADLINE_EXCEEDED without its handler ever running."""
    import threading
    import time

    from ambit.server.service import AmbitCore
    from ambit.server.service.deadline import Admission

    release, ran = threading.Event(), []

    class Blocking(ambit_pb2_grpc.AmbitServiceServicer):
        def Canonicalize(self, request, context):
            ran.append(request.request_id)
            release.wait(30)
            return pb.CanonicalizeResponse(request_id=request.request_id, canonical="done")

    core = AmbitCore(admission=Admission(slots=1, max_queue=1))
    loop, pool = LoopThread(), futures.ThreadPoolExecutor(4)

    async def make() -> grpc.aio.Server:
        server = grpc.aio.server(interceptors=[RpcInterceptor(Stats(), SERVICE_NAME, pool, core.open_call)])
        ambit_pb2_grpc.add_AmbitServiceServicer_to_server(Blocking(), server)
        return server

    server = loop.call(make)
    port = server.add_insecure_port("127.0.0.1:0")
    loop.call(server.start)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            first = stub.Canonicalize.future(pb.CanonicalizeRequest(request_id="first", lf="p"), timeout=30)
            for _ in range(500):
                if ran:
                    break
                time.sleep(0.01)
            late = stub.Canonicalize.future(pb.CanonicalizeRequest(request_id="late", lf="p"), timeout=0.5)
            for _ in range(500):
                if core.admission.waiting == 1:
                    break
                time.sleep(0.01)
            with pytest.raises(grpc.RpcError) as refused:
                stub.Canonicalize(pb.CanonicalizeRequest(request_id="third", lf="p"), timeout=30)
            assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            status = rpc_status.from_call(refused.value)
            retry = error_details_pb2.RetryInfo()
            assert any(d.Unpack(retry) for d in status.details) and retry.retry_delay.ToMilliseconds() > 0
            with pytest.raises(grpc.RpcError) as expired:
                late.result()
            assert expired.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
            release.set()
            assert first.result().canonical == "done"
        assert ran == ["first"]  # the late call never started, the third was never queued
        assert core.admission.running == 0 and core.admission.waiting == 0
    finally:
        release.set()
        loop.call(lambda: server.stop(0))
        loop.close()
        pool.shutdown()
