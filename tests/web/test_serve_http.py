"""`ambit serve --http PORT` as a user starts it: the gRPC server and the web pages in one process,
on one service core; a non-loopback bind refused without TLS and a token (even with --insecure),
served over TLS with a token when both are given."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from ambit.web.protocol import BACKLOG  # noqa: E402
from tests.paths import REPO  # noqa: E402

WEB = re.compile(r"ambit web listening on (\S+)")


def _serve(*args: str) -> tuple[subprocess.Popen, str]:
    """`ambit serve --no-model --port 0 ARGS`, once its web port is listening: (process, URL)."""
    proc = subprocess.Popen([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", *args],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    for line in proc.stdout:
        if m := WEB.search(line):
            return proc, m.group(1)
    proc.wait(30)
    raise AssertionError(f"no web port (exit {proc.returncode}): {proc.stderr.read()[-2000:]}")


def _stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(30)
    finally:
        proc.stdout.close()
        proc.stderr.close()


def _get(url: str, body: dict | None = None, headers: dict | None = None, context=None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={**({"Content-Type": "application/json"} if data else {}),
                                                           **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60, context=context) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@pytest.mark.slow  # a server process with Prolog: about 10 s on two loaded cores
def test_serve_http_answers_from_the_servers_own_core(tmp_path):
    run = tmp_path / "out" / "amp-zeroshot"
    run.mkdir(parents=True)
    (run / "results.jsonl").write_text(json.dumps({"id": "pp/1", "type": "pp", "surface": "s"}) + "\n")
    proc, url = _serve("--http", "0", "--runs", str(tmp_path / "out"))
    try:
        assert url.startswith("http://127.0.0.1:")
        status, page = _get(url)
        assert status == 200 and b"<noscript>" in page
        info = json.loads(_get(url + "api/info")[1])
        assert info["model_loaded"] is False and info["runs"] is True
        status, body = _get(url + "api/equivalence", {"a": "exists x . man(x)", "b": "exists y . man(y)"})
        assert status == 200 and json.loads(body)["verdict"] == "EQUIVALENT"
        status, body = _get(url + "api/parse", {"utterance": "every bird saw a boy"})
        assert status == 409  # --no-model: the sentence page needs a model
        runs = json.loads(_get(url + "api/runs")[1])["runs"]
        assert [r["folder"] for r in runs] == ["amp-zeroshot"] and runs[0]["in_progress"] is True
    finally:
        assert _stop(proc) == 0


@pytest.mark.parametrize("extra", [["--insecure"], []])
def test_a_non_loopback_web_bind_needs_tls_and_a_token(extra):
    proc = subprocess.run([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--host", "0.0.0.0",
                           "--http", "0", *extra], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert proc.returncode == 2, proc.stderr
    assert "refusing to serve" in proc.stderr and "ambit web listening" not in proc.stdout


def test_a_missing_runs_folder_is_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--http", "0",
                           "--runs", str(tmp_path / "missing")], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert proc.returncode == 2 and "--runs" in proc.stderr and "Traceback" not in proc.stderr
    alone = subprocess.run([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--runs", str(tmp_path)],
                           cwd=REPO, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert alone.returncode == 2 and "--runs needs --http PORT" in alone.stderr


@pytest.mark.slow
def test_tls_and_a_token_serve_an_exposed_address(tmp_path):
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    cert.cert_chain_pems[0].write_to_path(str(tmp_path / "cert.pem"))
    (tmp_path / "tokens").write_text("s3cret-token\n")
    proc, url = _serve("--host", "0.0.0.0", "--http", "0", "--tls-cert", str(tmp_path / "cert.pem"),
                       "--tls-key", str(tmp_path / "key.pem"), "--auth-token-file", str(tmp_path / "tokens"))
    try:
        assert url.startswith("https://0.0.0.0:")
        local = "https://127.0.0.1:" + url.rsplit(":", 1)[1]
        ctx = ssl.create_default_context()
        ca.configure_trust(ctx)
        assert _get(local + "api/info", context=ctx)[0] == 401
        status, body = _get(local + "api/info", headers={"Authorization": "Bearer s3cret-token"}, context=ctx)
        assert status == 200 and json.loads(body)["auth"] is True
        with pytest.raises((OSError, http.client.HTTPException)):  # no plaintext on the TLS port
            urllib.request.urlopen("http://127.0.0.1:" + url.rsplit(":", 1)[1] + "api/info", timeout=10)
    finally:
        assert _stop(proc) == 0


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _web_process(server_pid: int) -> int:
    """The pid of the web page's own process (`python -m ambit.web`) under the server."""
    for _ in range(200):
        for child in _children(server_pid):
            try:
                with open(f"/proc/{child}/cmdline", "rb") as fh:
                    if b"ambit.web" in fh.read():
                        return child
            except OSError:
                continue
        import time

        time.sleep(0.05)
    raise AssertionError("no web process under the server")


@pytest.mark.slow  # a server process, 2 x 500 connections: about 15 s on two loaded cores
def test_a_connection_flood_on_the_web_port_leaves_grpc_answering(tmp_path):
    """`ambit serve --http` serves the page from a process of its own, at a lower CPU priority.
    Two rounds of 500 connections that never finish their request: that process holds at most
    --http-max-connections (50) of them, each for at most --http-timeout (2 s); meanwhile every
    gRPC call answers, on the server's own descriptors; the page answers again afterwards; and a
    web process that is killed is started again."""
    import threading
    import time

    import grpc

    from ambit.proto.v1 import ambit_pb2 as pb
    from ambit.proto.v1 import ambit_pb2_grpc

    proc = subprocess.Popen([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--http", "0",
                             "--http-max-connections", "50", "--http-timeout", "2"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    grpc_address = url = None
    for line in proc.stdout:
        if m := re.search(r"ambit server listening on (\S+)", line):
            grpc_address = m.group(1)
        if m := WEB.search(line):
            url = m.group(1)
            break
    try:
        assert grpc_address and url
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        web_pid = _web_process(proc.pid)
        assert _get(url + "api/info")[0] == 200  # served: the web process has read its settings
        assert web_pid != proc.pid and os.getpriority(os.PRIO_PROCESS, web_pid) > os.getpriority(os.PRIO_PROCESS, proc.pid)
        codes: list = []
        stop = threading.Event()

        def bystander() -> None:
            with grpc.insecure_channel(grpc_address) as ch:
                stub = ambit_pb2_grpc.AmbitServiceStub(ch)
                while not stop.is_set():
                    try:
                        stub.CheckEquivalence(pb.CheckEquivalenceRequest(a="exists x . a(x)", b="exists y . a(y)"),
                                              timeout=30)
                        codes.append("OK")
                    except grpc.RpcError as e:
                        codes.append(e.code().name)
                    time.sleep(0.05)

        t = threading.Thread(target=bystander)
        t.start()
        most = 0
        try:
            for _ in range(2):
                socks = []
                for _ in range(500):
                    try:
                        s = socket.create_connection(("127.0.0.1", port), timeout=5)
                        s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1")
                        socks.append(s)
                    except OSError:
                        pass
                    if len(socks) % 100 == 0:
                        most = max(most, len(os.listdir(f"/proc/{web_pid}/fd")))
                most = max(most, len(os.listdir(f"/proc/{web_pid}/fd")))
                time.sleep(3)  # past --http-timeout: every held one is closed
                for s in socks:
                    s.close()
        finally:
            stop.set()
            t.join(60)
        assert codes and set(codes) == {"OK"}, sorted(set(codes))
        # the held connections, those accepted before being refused (a backlog at a time, the next
        # batch accepted while the last one closes), and the process's own descriptors (Prolog,
        # pipes, ...): far under the 500 a round holds open
        assert most <= 50 + 2 * BACKLOG + 40
        assert _get(url + "api/info")[0] == 200
        os.kill(web_pid, signal.SIGKILL)  # a web process that dies is started again
        for _ in range(200):
            try:
                if _get(url + "api/info")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert _web_process(proc.pid) != web_pid
    finally:
        assert _stop(proc) == 0
