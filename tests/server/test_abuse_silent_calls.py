"""Calls that send headers and never a message must not take the server: on a real server on
localhost with a token file, 1,000 such calls from five connections are open while health and an
authenticated trivial RPC still answer; a call without a token is refused from its metadata,
before (and without) its message; undecodable bytes without a token are UNAUTHENTICATED, with
one INVALID_ARGUMENT. (A sync `grpc.server` holds a pool thread per silent call: there the
probes wait until the silent calls go.)"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server import serve
from ambit.server.guard.security import ServerSecurity
from tests.server.abuse import SilentCalls

TOKEN = "s3cret-token-for-abuse-tests"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
HANG_GUARD_S = 30.0  # a probe that waits this long is blocked, not slow
CANONICALIZE = "/ambit.v1.AmbitService/Canonicalize"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("tokens")) / "tokens"
    path.write_text(TOKEN + "\n", encoding="utf-8")
    srv = serve(model="none", port=0, workers=8, security=ServerSecurity(auth_token_file=str(path)))
    yield srv
    srv.stop(0)


def _probe(address: str) -> tuple[float, float]:
    """Seconds a health check and an authenticated Canonicalize take (each under the hang guard)."""
    with grpc.insecure_channel(address) as ch:
        t0 = time.monotonic()
        status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=HANG_GUARD_S)
        t1 = time.monotonic()
        reply = ambit_pb2_grpc.AmbitServiceStub(ch).Canonicalize(
            pb.CanonicalizeRequest(lf="exists x . man(x)", format=pb.LF_FORMAT_FOL), metadata=AUTH, timeout=HANG_GUARD_S)
        t2 = time.monotonic()
    assert status.status == health_pb2.HealthCheckResponse.SERVING and reply.canonical
    return t1 - t0, t2 - t1


def test_thousand_silent_calls_leave_health_and_rpcs_answering(server):
    with SilentCalls(server.address, 1000, connections=5, metadata=AUTH):
        health_s, rpc_s = _probe(server.address)
    print(f"with 1000 silent calls open: health {health_s * 1000:.0f} ms, Canonicalize {rpc_s * 1000:.0f} ms")
    _probe(server.address)  # and after they went


def test_silent_call_without_token_is_refused_before_its_message(server):
    never = threading.Event()

    def no_message():
        never.wait(HANG_GUARD_S + 5)
        yield pb.CanonicalizeRequest()

    with grpc.insecure_channel(server.address) as ch:
        call = ch.stream_unary(CANONICALIZE, request_serializer=pb.CanonicalizeRequest.SerializeToString,
                               response_deserializer=pb.CanonicalizeResponse.FromString)
        t0 = time.monotonic()
        with pytest.raises(grpc.RpcError) as exc:
            call(no_message(), timeout=HANG_GUARD_S)
    never.set()
    assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert time.monotonic() - t0 < HANG_GUARD_S / 2  # refused, not timed out


@pytest.mark.parametrize("body", [b"\xff\xfe garbage \x00\x01" * 8, b"\x0a" + b"\xff" * 4096])
def test_garbage_without_token_is_unauthenticated(server, body):
    with grpc.insecure_channel(server.address) as ch:
        with pytest.raises(grpc.RpcError) as exc:
            ch.unary_unary(CANONICALIZE)(body, timeout=HANG_GUARD_S)
    assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_garbage_with_token_is_invalid_argument(server):
    with grpc.insecure_channel(server.address) as ch:
        with pytest.raises(grpc.RpcError) as exc:
            ch.unary_unary(CANONICALIZE)(b"\xff\xfe garbage", metadata=AUTH, timeout=HANG_GUARD_S)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "does not decode" in exc.value.details()
