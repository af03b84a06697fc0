"""The largest story a server takes (its default limits: 1,024 premises of about 4 KB each) under
a 3 s time limit on a server run with `--prover portfolio` (issue 57), through both edges: a gRPC
deadline, and the web API's `timeout_s` (`ambit serve --http`, the web page in its own process on
its own core). The call ends with its limit (DEADLINE_EXCEEDED, or an answer that came first), and
the server answers the next call: the members' preparation of the story (E's text, Z3's formulas,
Prolog's terms sent in parts) stopped with the call instead of running on. How soon is measured by
benchmarks/time_limit_bench.py, not asserted here."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import grpc
import pytest

from ambit import server
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from tests.paths import REPO

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is needed (.ci/setup.sh installs it)")]


def _premise(i: int) -> str:
    """A premise of about 4 KB: a disjunction of 150 atoms over names of its own."""
    return " | ".join(f"p{i}_{j}(c{i}_{j}, d{j})" for j in range(150))


def test_a_large_story_ends_with_its_deadline_and_the_server_serves_on():
    premises = [_premise(i) for i in range(1024)]
    assert 3_000 < sum(map(len, premises)) / len(premises) < 4_096  # about 4 KB, under the server's 4,096 a formula
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


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_large_story_ends_with_the_web_apis_time_limit_and_the_server_serves_on():
    pytest.importorskip("uvicorn")
    proc = subprocess.Popen([sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--http", "0",
                             "--prover", "portfolio"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    try:
        url = next(line.split("listening on ")[1].split()[0] for line in proc.stdout
                   if "ambit web listening on" in line).rstrip("/")
        status, body = _post(f"{url}/api/entailment", {"premises": [_premise(i) for i in range(1024)],
                                                       "conclusion": "q(a) | ~q(a)", "format": "tptp",
                                                       "timeout_s": 3})
        if status == 200:
            assert body["verdict"] in ("UNKNOWN", "TRUE")
            if body["verdict"] == "UNKNOWN":
                assert body["reason"] == "time_limit"
        else:
            assert body["error"]["code"] == "DEADLINE_EXCEEDED", body
        status, small = _post(f"{url}/api/entailment", {"premises": ["p(a)"], "conclusion": "p(a)", "format": "tptp",
                                                        "timeout_s": 60})
        assert status == 200 and small["verdict"] == "TRUE"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
        proc.stdout.close()
        proc.stderr.close()
