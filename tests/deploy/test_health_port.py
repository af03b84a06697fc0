"""`ambit serve --health-port P`: gRPC health alone, plaintext, beside a TLS port with tokens
(what Kubernetes grpc probes and the image's HEALTHCHECK dial), and deploy/healthcheck.py on it."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.paths import REPO

HEALTH = re.compile(r"ambit health listening on (\S+):(\d+)")
CHECK = [sys.executable, str(REPO / "deploy" / "healthcheck.py")]


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    trustme = pytest.importorskip("trustme")
    from tests.helpers.server import ServerProcess

    folder = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    cert.private_key_pem.write_to_path(str(folder / "tls.key"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "tls.crt"))
    (folder / "tokens").write_text("s3cret-token\n", encoding="utf-8")
    srv = ServerProcess("--no-model", "--health-port", "0", "--tls-cert", str(folder / "tls.crt"),
                        "--tls-key", str(folder / "tls.key"), "--auth-token-file", str(folder / "tokens"))
    m = next(HEALTH.search(line) for line in srv.stdout_lines if HEALTH.search(line))
    yield srv, f"{m.group(1)}:{m.group(2)}"
    srv.kill()


def test_health_port_answers_plaintext_beside_tls(tls_server):
    srv, health_addr = tls_server
    with grpc.insecure_channel(health_addr) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        for service in ("", "ambit.v1.AmbitService"):
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
    with grpc.insecure_channel(srv.address) as ch:  # the main port speaks only TLS
        with pytest.raises(grpc.RpcError) as err:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE


def test_health_port_serves_nothing_else(tls_server):
    _, health_addr = tls_server
    with grpc.insecure_channel(health_addr) as ch:
        call = ch.unary_unary("/ambit.v1.AmbitService/GetStats")
        with pytest.raises(grpc.RpcError) as err:
            call(b"", timeout=5)
        assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_healthcheck_script_exit_codes(tls_server):
    _, health_addr = tls_server
    ok = subprocess.run([*CHECK, "--addr", health_addr], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.strip() == "SERVING", ok.stderr
    unknown = subprocess.run([*CHECK, "--addr", health_addr, "--service", "no.such.Service"],
                             capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 1 and "NOT_FOUND" in unknown.stderr
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = f"127.0.0.1:{s.getsockname()[1]}"
    down = subprocess.run([*CHECK, "--addr", closed, "--timeout", "1"], capture_output=True, text=True, timeout=60)
    assert down.returncode == 1 and "unhealthy" in down.stderr


def test_drain_turns_the_health_port_not_serving():
    """SIGTERM: a Watch on the health port sees NOT_SERVING (the drain) before the port closes with
    the server, which exits 0."""
    from tests.helpers.server import ServerProcess

    srv = ServerProcess("--no-model", "--health-port", "0", "--grace", "3")
    try:
        m = next(HEALTH.search(line) for line in srv.stdout_lines if HEALTH.search(line))
        with grpc.insecure_channel(f"{m.group(1)}:{m.group(2)}") as ch:
            watch = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(), timeout=60)
            seen = [next(watch).status]
            assert seen == [health_pb2.HealthCheckResponse.SERVING]
            srv.proc.send_signal(signal.SIGTERM)
            try:
                for reply in watch:
                    seen.append(reply.status)
            except grpc.RpcError:
                pass  # the stream ends when the health port closes
        assert health_pb2.HealthCheckResponse.NOT_SERVING in seen[1:], seen
        assert srv.proc.wait(30) == 0
        assert "ambit server stopped" in srv.log()
    finally:
        srv.kill()


def test_health_port_in_use_is_a_clear_error():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--health-port", str(port)],
                           cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and f"--health-port: cannot bind the health port 127.0.0.1:{port}" in r.stderr, r.stderr
