"""Fairness, on a real server on localhost: one client connection cannot hold more than
--max-calls-per-peer calls at once (beyond it RESOURCE_EXHAUSTED with a `google.rpc.RetryInfo`
hint), while another connection is served; and a trivial check from a client that used little
Prolog passes the hard calls queued by a client that used much (the second lane and the fair
queue). (Before: every call was admitted and Prolog served them first come, first served.)"""

from __future__ import annotations

import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server import serve
from tests.server.abuse import pigeonhole

PREMISES, CONCLUSION = pigeonhole(10)  # past any budget (the Herbrand/SAT stage settles 7 holes in 0.5 s)
HARD = pb.CheckEntailmentRequest(premises=PREMISES, conclusion=CONCLUSION, format=pb.LF_FORMAT_FOLIO,
                                 time_limit_ms=4000)
TRIVIAL = pb.CheckEntailmentRequest(premises=["P(a)"], conclusion="P(a)", format=pb.LF_FORMAT_FOLIO)
GUARD_S = 10.0  # first come, first served, the trivial check would wait behind ~6 x 4 s


@pytest.fixture(scope="module")
def server():
    srv = serve(model="none", port=0, max_calls_per_peer=6)
    yield srv
    srv.stop(0)


def test_a_connection_past_its_limit_gets_resource_exhausted_with_a_retry_hint(server):
    with grpc.insecure_channel(server.address) as greedy, grpc.insecure_channel(
            server.address, options=[("ambit.test.connection", 2)]) as other:
        stub = ambit_pb2_grpc.AmbitServiceStub(greedy)
        long_hard = pb.CheckEntailmentRequest(premises=PREMISES, conclusion=CONCLUSION, format=pb.LF_FORMAT_FOLIO,
                                              time_limit_ms=10_000)
        calls = [stub.CheckEntailment.future(long_hard, timeout=30) for _ in range(8)]
        # the two past the limit are refused as they arrive, the six others run for 10 s: wait for
        # two to end (a loaded machine may take a while to deliver all eight), at most 8 s
        deadline = time.monotonic() + 8.0
        while sum(c.done() for c in calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        refused = [c.exception() for c in calls if c.done() and c.exception() is not None]
        assert ambit_pb2_grpc.AmbitServiceStub(other).CheckEntailment(TRIVIAL, timeout=GUARD_S).verdict
        for c in calls:
            c.cancel()
    assert len(refused) == 2 and all(e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED for e in refused)
    retry = error_details_pb2.RetryInfo()
    assert any(d.Unpack(retry) for d in rpc_status.from_call(refused[0]).details)
    assert retry.retry_delay.ToMilliseconds() > 0 and "retry after" in refused[0].details()


ONSET_GUARD_S = 2.5  # 40 first quanta of 0.02 s, with room; 40 slices of 0.1 s (before) are 4 s


def test_a_trivial_check_passes_the_first_calls_of_many_new_connections(server):
    """A storm's onset: 40 new connections, each with one hard call and no Prolog time used yet
    (so the fair queue cannot tell them from a bystander), then a trivial check from another.
    It waits behind one first quantum of each (`prolog_lanes.FIRST_QUANTUM_S`), not behind a
    whole slice of each. (Before: 40 slices of 0.1 s, 4 s, past the guard.)"""
    channels = [grpc.insecure_channel(server.address, options=[("ambit.test.connection", 100 + i)])
                for i in range(40)]
    try:
        calls = [ambit_pb2_grpc.AmbitServiceStub(ch).CheckEntailment.future(HARD, timeout=30) for ch in channels]
        time.sleep(0.2)
        with grpc.insecure_channel(server.address, options=[("ambit.test.connection", 99)]) as other:
            assert ambit_pb2_grpc.AmbitServiceStub(other).CheckEntailment(TRIVIAL, timeout=ONSET_GUARD_S).verdict
        for c in calls:
            c.cancel()
    finally:
        for ch in channels:
            ch.close()
