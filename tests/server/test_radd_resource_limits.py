"""A Prolog resource limit hit during RADD verification (inference budget, stack memory) reaches
the client as RESOURCE_EXHAUSTED with the reason (`server/service/radd.py`, `server/status.py`),
not INTERNAL; and the server answers the next RADD request. The limits are made tiny on purpose
on the server's own Prolog worker, through a real gRPC server on localhost."""

from __future__ import annotations

import copy
import json
from typing import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import ambit.logic.runtime.worker as prolog_worker
from ambit.logic.runtime.worker import STACK_LIMIT_BYTES, PrologUnavailable, worker

try:
    worker()
except PrologUnavailable as e:  # pragma: no cover - depends on the machine
    pytest.skip(f"SWI-Prolog unavailable: {e}", allow_module_level=True)

from ambit.proto.v1 import ambit_pb2 as pb  # noqa: E402
from ambit.proto.v1 import ambit_pb2_grpc  # noqa: E402
from ambit.server import serve  # noqa: E402
from tests.helpers.radd import RADD_INSTANCE  # noqa: E402

# Below what SWI-Prolog needs to read a 100-premise instance's JSON (measured: the 3-premise
# RADD_INSTANCE still fits, so the limit fails the big instance in Prolog, not in pyswip).
TINY_STACK_BYTES = 100_000


@pytest.fixture(scope="module")
def stub() -> Iterator[ambit_pb2_grpc.AmbitServiceStub]:
    srv = serve(model="none", port=0)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            yield ambit_pb2_grpc.AmbitServiceStub(ch)
    finally:
        srv.stop(0)


def _request(instance: dict) -> pb.VerifyRADDRequest:
    return pb.VerifyRADDRequest(instance_json=json.dumps(instance), time_limit_ms=5000)


def _big_instance(n: int) -> dict:
    """RADD_INSTANCE with `n` more entity-relation premises, all outside the sentence's dates."""
    inst = copy.deepcopy(RADD_INSTANCE)
    inst["spans"] += [{"premise": 10 + i, "relation": f"Relation number {i}", "start": "March 1901",
                       "end": "January 1902"} for i in range(n)]
    return inst


def _exhausted(stub: ambit_pb2_grpc.AmbitServiceStub, request: pb.VerifyRADDRequest) -> tuple[str, str]:
    """The status message and the ErrorInfo reason of a call that must end RESOURCE_EXHAUSTED."""
    with pytest.raises(grpc.RpcError) as err:
        stub.VerifyRADD(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, (err.value.code(), err.value.details())
    info = error_details_pb2.ErrorInfo()
    status = rpc_status.from_call(err.value)
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    assert info.domain == "ambit.v1" and info.reason == f"PROLOG_{info.metadata['reason'].upper()}"
    return err.value.details(), info.metadata["reason"]


def _answered(stub: ambit_pb2_grpc.AmbitServiceStub) -> None:
    r = stub.VerifyRADD(_request(RADD_INSTANCE), timeout=30)
    assert r.answer_option == 2 and r.status == "one"


def test_inference_budget_exhausted_is_resource_exhausted(stub, monkeypatch):
    _answered(stub)
    monkeypatch.setattr(prolog_worker, "inference_budget", lambda seconds: 1_000)
    message, reason = _exhausted(stub, _request(RADD_INSTANCE))
    assert reason == "inference_limit" and "inference_limit" in message and "RADD" in message
    monkeypatch.undo()
    _answered(stub)


def test_stack_memory_exhausted_is_resource_exhausted(stub):
    big = _big_instance(100)
    assert stub.VerifyRADD(_request(big), timeout=30).answer_option == 2  # fits the normal stack
    worker().run(lambda prolog: list(prolog.query(f"set_prolog_flag(stack_limit, {TINY_STACK_BYTES})")))
    try:
        message, reason = _exhausted(stub, _request(big))
    finally:
        worker().run(lambda prolog: list(prolog.query(f"set_prolog_flag(stack_limit, {STACK_LIMIT_BYTES})")))
    assert reason == "memory" and "memory" in message
    _answered(stub)
