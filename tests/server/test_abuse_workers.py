"""Prolog worker processes heal. On a real server on localhost with two `--prolog-workers`:
`kill -9` of one while a batch runs loses no item (its chunk runs again on another process),
the process is replaced, and health says NOT_SERVING only while no process can take work. A
chunk that kills its process every time ends in a clear error after one retry, and the pool
goes on. (Before: every later batch item answered INTERNAL BrokenProcessPool, health SERVING.)"""

from __future__ import annotations

import os
import signal
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ambit.logic.runtime import pool as prolog_pool
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server import serve
from tests.server.abuse import die, pigeonhole

MEDIUM = pigeonhole(4)  # a fraction of a second each
GUARD_S = 120.0


@pytest.fixture(scope="module")
def server():
    srv = serve(model="none", port=0, prolog_workers=2, max_calls_per_peer=0)
    yield srv
    srv.stop(0)


def _batch(stub, n: int) -> list[pb.CheckEntailmentBatchResult]:
    items = [pb.CheckEntailmentRequest(premises=MEDIUM[0], conclusion=MEDIUM[1], format=pb.LF_FORMAT_FOLIO)
             for _ in range(n)]
    return list(stub.CheckEntailmentBatch(pb.CheckEntailmentBatchRequest(items=items), timeout=GUARD_S))


def _pool() -> prolog_pool.PrologPool:
    (p,) = prolog_pool.pools()
    return p


def _wait_for(cond, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def test_a_killed_worker_loses_no_item_and_is_replaced(server):
    pool = _pool()
    assert _wait_for(lambda: len(pool.pids()) == 2)
    before = pool.restarts
    with grpc.insecure_channel(server.address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        out: list = []
        # long enough to be in flight when the kill comes (Prolog got faster: keep a margin)
        t = threading.Thread(target=lambda: out.extend(_batch(stub, 240)))
        t.start()
        time.sleep(1.5)
        assert t.is_alive(), "the batch ended before the kill: make it longer"
        os.kill(pool.pids()[0], signal.SIGKILL)
        t.join(GUARD_S)
        assert len(out) == 240 and [r.index for r in out] == list(range(240))
        assert all(r.status.code == 0 and r.response.verdict for r in out), [r.status for r in out if r.status.code]
        assert _wait_for(lambda: pool.restarts >= before + 1) and _wait_for(lambda: len(pool.pids()) == 2)
        again = _batch(stub, 8)
        assert all(r.status.code == 0 for r in again)


def test_health_not_serving_only_while_no_worker_can_work(server, monkeypatch):
    pool = _pool()
    assert _wait_for(lambda: len(pool.pids()) == 2)
    seen: list[int] = []
    with grpc.insecure_channel(server.address) as ch:
        health = health_pb2_grpc.HealthStub(ch)
        assert health.Check(health_pb2.HealthCheckRequest()).status == health_pb2.HealthCheckResponse.SERVING
        os.kill(pool.pids()[0], signal.SIGKILL)  # one left: still SERVING
        time.sleep(0.6)
        assert health.Check(health_pb2.HealthCheckRequest()).status == health_pb2.HealthCheckResponse.SERVING
        assert _wait_for(lambda: len(pool.pids()) == 2)
        start = pool._start

        def slow_start(slot: int):  # replacements take 2 s: health polls (every 0.25 s) must see the gap
            time.sleep(2.0)
            return start(slot)

        monkeypatch.setattr(pool, "_start", slow_start)
        for pid in pool.pids():
            os.kill(pid, signal.SIGKILL)

        def back() -> bool:
            seen.append(health.Check(health_pb2.HealthCheckRequest(), timeout=5).status)
            return seen[-1] == health_pb2.HealthCheckResponse.SERVING and \
                health_pb2.HealthCheckResponse.NOT_SERVING in seen

        assert _wait_for(back, 60.0), seen
    assert _wait_for(lambda: len(pool.pids()) == 2)


def test_a_chunk_that_kills_every_worker_fails_clearly_after_one_retry(server):
    pool = _pool()
    restarts = pool.restarts
    fut = pool.submit(die, [1, 2, 3])
    with pytest.raises(prolog_pool.WorkerDied, match="retried once"):
        fut.result(GUARD_S)
    assert pool.restarts == restarts + 2
    assert _wait_for(lambda: len(pool.pids()) == 2)
    with grpc.insecure_channel(server.address) as ch:
        assert all(r.status.code == 0 for r in _batch(ambit_pb2_grpc.AmbitServiceStub(ch), 8))
