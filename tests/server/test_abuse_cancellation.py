"""Work stops when its caller goes. On a real server on localhost (no model, one Prolog worker):
hard entailments whose deadlines pass, or whose clients cancel, free Prolog at once, so that a
trivial check sent next is answered; the server's log gives such calls their true status. (On a
server whose queued Prolog work outlives its callers, the trivial check waits behind every
abandoned budget.)"""

from __future__ import annotations

import logging
import threading
import time

import grpc
import pytest

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server import serve
from tests.server.abuse import pigeonhole

HARD = pigeonhole(10)  # past any budget: the Herbrand/SAT stage settles 7 holes in about 0.5 s, 8 in 3 s
HANG_GUARD_S = 10.0  # the trivial check's deadline: abandoned work would hold Prolog for ~40 s
ABANDONED = 12  # hard calls of ~3 s budget each


@pytest.fixture(scope="module")
def server():
    srv = serve(model="none", port=0, workers=32, max_calls_per_peer=0)
    yield srv
    srv.stop(0)


def _hard(stub, timeout: float) -> grpc.StatusCode:
    try:
        stub.CheckEntailment(pb.CheckEntailmentRequest(premises=HARD[0], conclusion=HARD[1],
                                                       format=pb.LF_FORMAT_FOLIO, time_limit_ms=30000), timeout=timeout)
    except grpc.RpcError as e:
        return e.code()
    return grpc.StatusCode.OK


def _trivial(stub, guard: float = HANG_GUARD_S, request_id: str = "") -> pb.CheckEntailmentResponse:
    return stub.CheckEntailment(pb.CheckEntailmentRequest(premises=["P(a)"], conclusion="P(a)", format=pb.LF_FORMAT_FOLIO,
                                                          request_id=request_id), timeout=guard)


def test_work_past_its_deadline_stops(server):
    with grpc.insecure_channel(server.address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        codes: list[grpc.StatusCode] = []
        threads = [threading.Thread(target=lambda: codes.append(_hard(stub, 3.0))) for _ in range(ABANDONED)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # the first may answer UNKNOWN (OK) as its Prolog budget, capped by the deadline, ends
        assert set(codes) <= {grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.OK}
        assert codes.count(grpc.StatusCode.DEADLINE_EXCEEDED) >= ABANDONED - 2
        t0 = time.monotonic()
        assert _trivial(stub).verdict
        print(f"trivial check after {ABANDONED} abandoned hard ones: {time.monotonic() - t0:.2f} s")


def test_work_of_a_cancelled_call_stops_and_is_logged_cancelled(server, caplog):
    with grpc.insecure_channel(server.address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        request = pb.CheckEntailmentRequest(premises=HARD[0], conclusion=HARD[1], format=pb.LF_FORMAT_FOLIO,
                                            time_limit_ms=30000, request_id="cancelled-hard")
        with caplog.at_level(logging.INFO, logger="ambit.server.rpc"):
            calls = [stub.CheckEntailment.future(request, timeout=60) for _ in range(ABANDONED)]
            time.sleep(1.0)
            for c in calls:
                c.cancel()
            assert _trivial(stub, request_id="after-cancel").verdict
            deadline = time.monotonic() + HANG_GUARD_S
            while time.monotonic() < deadline and not all(c.done() for c in calls):
                time.sleep(0.05)
            time.sleep(0.5)  # the server logs a call as it ends
        # by request id: a call of the test before (its trivial check, logged as it ends) can land here
        hard = [r.message for r in caplog.records if "request_id=cancelled-hard" in r.message]
        trivial = [r.message for r in caplog.records if "request_id=after-cancel" in r.message]
        # calls cancelled before their message arrived never reach a handler (nor the log)
        assert sum("code=CANCELLED" in m for m in hard) >= 1 and len(hard) <= ABANDONED, hard
        assert not any("code=OK" in m for m in hard), hard
        assert len(trivial) == 1 and "code=OK" in trivial[0], trivial


def _long_lfs(n: int = 16, width: int = 280) -> list[str]:
    """`n` distinct readings of about 4 KB each (the explain attack: many long LFs)."""
    quants = ["forall x . exists y . ", "exists y . forall x . "]
    return [quants[i % 2] + " AND ".join(f"p{(i + j) % 97}(x, y)" if j % 3 else f"q{j}(y)" for j in range(width))
            for i in range(n)]


def test_explain_readings_keeps_its_deadline_and_frees_prolog(server):
    with grpc.insecure_channel(server.address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        t0 = time.monotonic()
        with pytest.raises(grpc.RpcError) as exc:
            stub.ExplainReadings(pb.ExplainReadingsRequest(utterance="every man saw a dog", lfs=_long_lfs(),
                                                           time_limit_ms=30000), timeout=3.0)
        took = time.monotonic() - t0
        assert exc.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert _trivial(stub, guard=5.0).verdict  # work left running would hold Prolog ~10 s more
        print(f"ExplainReadings stopped after {took:.2f} s (deadline 3 s)")
