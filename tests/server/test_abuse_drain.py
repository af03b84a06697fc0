"""Graceful drain and clear start-up errors, on `ambit serve` processes. SIGTERM: health
turns NOT_SERVING at once, new calls are UNAVAILABLE, an in-flight batch streams every item it
finishes within --grace, and the log gives each call its true status (a batch cut at the end of
the grace is not logged OK nor DEADLINE_EXCEEDED). A bad address, a port in use, or a key that
does not match its certificate: one line on stderr, exit 2."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from tests.paths import REPO
from tests.server.abuse import pigeonhole
from tests.helpers.server import ServerProcess

GUARD_S = 60.0
DRAIN_S = 120  # the grace a finishing batch gets: ~30x its idle time (a loaded machine ran 60 items past 30 s)


def _items(holes: int, n: int) -> pb.CheckEntailmentBatchRequest:
    premises, conclusion = pigeonhole(holes)
    return pb.CheckEntailmentBatchRequest(items=[
        pb.CheckEntailmentRequest(premises=premises, conclusion=conclusion, format=pb.LF_FORMAT_FOLIO,
                                  time_limit_ms=30000) for _ in range(n)])


def _stream(stub, request, out: list, errors: list, timeout: float = GUARD_S) -> None:
    try:
        for r in stub.CheckEntailmentBatch(request, timeout=timeout):
            out.append(r)
    except grpc.RpcError as e:
        errors.append(e.code())


def test_sigterm_drains_health_new_calls_and_lets_a_batch_finish():
    srv = ServerProcess("--no-model", "--grace", str(DRAIN_S), "--log-level", "INFO", ready_timeout=120)
    try:
        with srv.channel() as ch:
            stub, health = ambit_pb2_grpc.AmbitServiceStub(ch), health_pb2_grpc.HealthStub(ch)
            out, errors = [], []
            # ~0.1 s an item on an idle machine: still in flight when SIGTERM comes after 1 s
            t = threading.Thread(target=_stream, args=(stub, _items(4, 40), out, errors, DRAIN_S + GUARD_S))
            t.start()
            time.sleep(1.0)
            srv.proc.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=GUARD_S).status
            with pytest.raises(grpc.RpcError) as refused:
                stub.Canonicalize(pb.CanonicalizeRequest(lf="exists x . man(x)"), timeout=GUARD_S)
            t.join(DRAIN_S + GUARD_S)
        assert status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE and "shutting down" in refused.value.details()
        assert not errors and [r.index for r in out] == list(range(40))
        assert srv.proc.wait(GUARD_S) == 0
        assert re.search(r"method=CheckEntailmentBatch code=OK .* items=40", srv.log()), srv.log()
    finally:
        srv.kill()


def test_a_batch_cut_by_the_end_of_the_grace_is_logged_as_cut():
    srv = ServerProcess("--no-model", "--grace", "1", "--log-level", "INFO", ready_timeout=120)
    try:
        with srv.channel() as ch:
            out, errors = [], []
            t = threading.Thread(target=_stream, args=(ambit_pb2_grpc.AmbitServiceStub(ch), _items(10, 4), out, errors))
            t.start()
            time.sleep(1.0)
            srv.proc.send_signal(signal.SIGTERM)
            t.join(GUARD_S)
        assert srv.proc.wait(GUARD_S) == 0
        assert errors, "the batch outlived the grace"
        line = next(ln for ln in srv.log().splitlines() if "method=CheckEntailmentBatch" in ln)
        assert "code=CANCELLED" in line, line
    finally:
        srv.kill()


def _start(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "serve", "--no-model", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_unbracketed_ipv6_is_one_line_and_exit_2():
    r = _start("--host", "::1", "--port", "0")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "[::1]" in r.stderr, r.stderr


def test_port_in_use_is_one_line_and_exit_2():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = _start("--port", str(s.getsockname()[1]))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "in use" in r.stderr, r.stderr


def test_key_not_matching_its_certificate_is_one_line_and_exit_2(tmp_path):
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    one, other = ca.issue_cert("localhost"), ca.issue_cert("localhost")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    one.cert_chain_pems[0].write_to_path(str(cert))
    other.private_key_pem.write_to_path(str(key))
    r = _start("--port", "0", "--tls-cert", str(cert), "--tls-key", str(key))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "does not match" in r.stderr
