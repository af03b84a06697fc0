"""The client against real ambit servers: round robin over two logic-only servers (fast),
and the embedded default-model server (slow)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from client import Client
from tests.paths import REPO

A = "exists x . forall y . man(y) AND saw(y, x)"
B = "forall y . exists x . man(y) AND saw(y, x)"


@pytest.fixture(scope="module")
def two_servers():
    server = pytest.importorskip("server")
    servers = [server.serve(model="none", port=0) for _ in range(2)]
    yield servers
    for s in servers:
        s.stop(0)


def test_two_servers_both_receive_work(two_servers):
    a, b = two_servers
    before = [Client(f"127.0.0.1:{s.port}").stats().requests.get("CheckEquivalence", 0) for s in two_servers]
    with Client(f"127.0.0.1:{a.port},localhost:{b.port}") as c:
        verdicts = {c.equivalent(A, B).verdict for _ in range(20)}
    assert verdicts == {"NOT_EQUIVALENT"}
    after = [Client(f"127.0.0.1:{s.port}").stats().requests.get("CheckEquivalence", 0) for s in two_servers]
    got = [x - y for x, y in zip(after, before)]
    assert sum(got) == 20 and min(got) >= 5, got


def test_cli_equiv_json_and_error_on_real_server(two_servers):
    addr = f"127.0.0.1:{two_servers[0].port}"
    r = subprocess.run([sys.executable, "-m", "client", "equiv", A, B, "--server", addr, "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["verdict"] == "NOT_EQUIVALENT" and out["b_entails_a"] is not None
    assert {"a_entails_b", "witness"} <= set(out)
    r = subprocess.run([sys.executable, "-m", "client", "canon", "exists x . man(x", "--server", addr],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "INVALID_ARGUMENT" in r.stderr


@pytest.mark.slow
def test_cli_parse_on_embedded_default_model():
    r = subprocess.run([sys.executable, "-m", "client", "parse", "every man saw a bird", "-k", "2",
                        "--prompt", "Human: {utterance}\nComputer:", "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert 1 <= len(out["candidates"]) <= 2 and out["model_id"]
