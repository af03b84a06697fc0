"""A large story under a gRPC deadline on a server run with `--prover portfolio` (issue 57):
1,024 premises of about 4 KB each, a 3 s deadline. The call ends with the deadline (the client
sees DEADLINE_EXCEEDED, or an answer that came first), and the server answers the next call:
the members' preparation of the story (E's text, Z3's formulas, Prolog's terms sent in parts)
stopped with the call instead of running on. How soon the CPU is free again is measured by
benchmarks/time_limit_bench.py, not asserted here."""

from __future__ import annotations

import shutil

import grpc
import pytest

from ambit import server
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is needed (.ci/setup.sh installs it)")]


def _premise(i: int) -> str:
    """A premise of about 4 KB: a disjunction of 150 atoms over names of its own."""
    return " | ".join(f"p{i}_{j}(c{i}_{j}, d{j})" for j in range(150))


def test_a_large_story_ends_with_its_deadline_and_the_server_serves_on():
    premises = [_premise(i) for i in range(1024)]
    assert 3_500 < len(premises[0]) < 5_000
    running = server.serve(no_model=True, port=0, prover="portfolio")
    try:
        with grpc.insecure_channel(running.address) as ch:
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            try:
                r = stub.CheckEntailment(pb.CheckEntailmentRequest(
                    request_id="big", premises=premises, conclusion="q(a) | ~q(a)", format=pb.LF_FORMAT_TPTP),
                    timeout=3)
                assert r.verdict in (pb.ENTAILMENT_VERDICT_UNKNOWN, pb.ENTAILMENT_VERDICT_TRUE)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            small = stub.CheckEntailment(pb.CheckEntailmentRequest(
                request_id="small", premises=["p(a)"], conclusion="p(a)", format=pb.LF_FORMAT_TPTP), timeout=60)
            assert small.verdict == pb.ENTAILMENT_VERDICT_TRUE
    finally:
        running.stop(1)
