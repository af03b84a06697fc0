"""The typed client and `ambit` against an in-process fake server (fast)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ambit.client import AmbitError, Client
from ambit.client.channel import split_servers, target_for
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import REPO

PY = sys.executable


@pytest.fixture()
def fake():
    srv = FakeServer(FakeAmbitServicer(parses={"P: {utterance}": ["exists x . man(x)", "exists x . bird(x)"]}))
    yield srv
    srv.stop(0)


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "ambit", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)


def test_target_single_and_round_robin():
    assert split_servers(" a:1, b:2 ,") == ["a:1", "b:2"]
    target, opts = target_for(["localhost:5001"])
    assert target == "localhost:5001" and ("grpc.lb_policy_name", "round_robin") not in opts
    target, opts = target_for(["localhost:5001", "127.0.0.1:5002"])
    assert target == "ipv4:127.0.0.1:5001,127.0.0.1:5002"
    assert ("grpc.lb_policy_name", "round_robin") in opts
    assert target_for(["[::1]:1", "[::1]:2"])[0] == "ipv6:[::1]:1,[::1]:2"
    with pytest.raises(ValueError):
        target_for(["nohost", "x:1"])
    with pytest.raises(ValueError):
        split_servers("")


def test_typed_client_returns_dataclasses(fake):
    with Client(fake.address) as c:
        d = c.parse_distribution("a man", prompt="P: {utterance}", k=5)
        assert [x.text for x in d.candidates] == ["exists x . man(x)", "exists x . bird(x)"]
        assert d.candidates[0].parse_status == "OK" and d.prompt == "P: a man"
        s = c.score("p", ["a b", "c"])
        assert len(s.scores) == 2 and s.scores[0].tokens == ["a", "b"]
        assert abs(sum(x.min_prob_renorm for x in s.scores) - 1) < 1e-9
        e = c.equivalent("exists x . man(x)", "exists y . man(y)")
        assert e.verdict == "EQUIVALENT" and e.a_entails_b is True and e.witness is None
        e = c.equivalent("exists x . man(x)", "exists x . bird(x)")
        assert e.verdict == "NOT_EQUIVALENT" and e.witness == {"failed": "a_entails_b"}
        assert c.canonicalize("exists y . man(y)") == "exists x . man(x)"
        assert c.info().model_id == "fake-model"
        assert c.health() == "SERVING"
        batch = c.score_batch([("p", ["a"]), ("q", [])])
        assert batch[0].scores[0].text == "a"
        assert isinstance(batch[1], AmbitError) and batch[1].code == "INVALID_ARGUMENT"
        assert c.stats().requests["ScoreCandidates"] == 1
        with pytest.raises(AmbitError) as err:
            c.equivalent("exists x . (", "exists x . man(x)")
        assert err.value.code == "INVALID_ARGUMENT"


def test_cli_human_and_json(fake):
    r = cli("equiv", "exists x . man(x)", "exists x . bird(x)", "--server", fake.address, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["verdict"] == "NOT_EQUIVALENT"
    assert {"a_entails_b", "b_entails_a", "witness"} <= set(out)
    r = cli("equiv", "exists x . man(x)", "exists y . man(y)", "--server", fake.address)
    assert r.returncode == 0 and r.stdout.startswith("EQUIVALENT")
    r = cli("canon", "exists y . man(y)", "--server", fake.address)
    assert r.stdout.strip() == "exists x . man(x)"
    r = cli("parse", "a man", "--prompt", "P: {utterance}", "--server", fake.address)
    assert "exists x . bird(x)" in r.stdout
    assert "[OK]" not in r.stdout and "[parses]" in r.stdout  # a candidate that parses is not called right
    r = cli("equiv", "-exists x . man(x)", "exists x . man(x)", "--server", fake.address, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "INVALID_ARGUMENT"  # read as a formula
    assert {"code", "message", "field"} <= set(json.loads(r.stdout)["error"])
    r = cli("score", "p", "a b", "c", "--server", fake.address, "--json")
    assert len(json.loads(r.stdout)["scores"]) == 2
    r = cli("info", "--server", fake.address)
    assert "fake-model" in r.stdout
    r = cli("health", "--server", fake.address)
    assert r.stdout.strip() == "SERVING"


def test_cli_server_error_prints_code_and_exits_nonzero(fake):
    r = cli("equiv", "exists x . (", "exists x . man(x)", "--server", fake.address)
    assert r.returncode != 0
    assert "INVALID_ARGUMENT" in r.stderr and "cannot parse" in r.stderr


def test_cli_unreachable_server_fails_cleanly():
    r = cli("info", "--server", "127.0.0.1:1", "--timeout", "2")
    assert r.returncode != 0 and ("DEADLINE_EXCEEDED" in r.stderr or "UNAVAILABLE" in r.stderr)


def test_two_servers_round_robin_both_get_work():
    a, b = FakeServer(), FakeServer()
    try:
        with Client(f"{a.address},localhost:{b.port}") as c:
            for _ in range(20):
                c.score("p", ["x"])
        na = a.servicer.counts["ScoreCandidates"]
        nb = b.servicer.counts["ScoreCandidates"]
        assert na + nb == 20 and na >= 5 and nb >= 5, (na, nb)
    finally:
        a.stop(0)
        b.stop(0)
