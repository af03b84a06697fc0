"""The client against real ambit servers: round robin over two logic-only servers (fast),
and the embedded default-model server (slow)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ambit.client import Client
from tests.paths import REPO

A = "exists x . forall y . man(y) AND saw(y, x)"
B = "forall y . exists x . man(y) AND saw(y, x)"


@pytest.fixture(scope="module")
def two_servers():
    server = pytest.importorskip("ambit.server")
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
    r = subprocess.run([sys.executable, "-m", "ambit", "equiv", A, B, "--server", addr, "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["verdict"] == "NOT_EQUIVALENT" and out["b_entails_a"] is not None
    assert {"a_entails_b", "witness"} <= set(out)
    r = subprocess.run([sys.executable, "-m", "ambit", "canon", "exists x . man(x", "--server", addr],
                       cwd=REPO, capture_output=True, text=True, timeout=180)
    assert r.returncode == 1 and "INVALID_ARGUMENT" in r.stderr


@pytest.mark.slow
def test_cli_parse_on_embedded_default_model():
    r = subprocess.run([sys.executable, "-m", "ambit", "parse", "every man saw a bird", "-k", "2",
                        "--prompt", "Human: {utterance}\nComputer:", "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert 1 <= len(out["candidates"]) <= 2 and out["model_id"]


def _results(folder) -> list[dict]:
    lines = (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.slow
def test_eval_survives_a_killed_and_restarted_server(tmp_path):
    """Three servers; one is SIGKILLed mid-run and restarted on its port: the run finishes with
    exactly the results of an undisturbed run (no item lost, none duplicated)."""
    import time

    from tests.helpers.server import ServerProcess, tiny_gpt2_folder

    model = str(tiny_gpt2_folder(tmp_path / "tiny"))
    servers = [ServerProcess("--model", model, ready_timeout=300) for _ in range(3)]
    spec = ",".join(s.address for s in servers)
    args = [sys.executable, "-m", "ambit", "eval", "amp-fewshot", "--server", spec, "--types", "scope,pp",
            "--ratios", "0,0.5,1", "--limit", "2", "--no-equiv", "--timeout", "120"]
    try:
        calm = subprocess.run([*args, "--out", str(tmp_path / "calm")], cwd=REPO, capture_output=True,
                              text=True, timeout=2700)
        assert calm.returncode == 0, calm.stderr
        run = subprocess.Popen([*args, "--workers", "6", "--out", str(tmp_path / "storm")], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        results = tmp_path / "storm" / "results.jsonl"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and run.poll() is None:
            if results.exists() and len(results.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        victim = servers[1]
        victim.proc.kill()  # SIGKILL, calls in flight on it included
        victim.proc.wait(10)
        time.sleep(2.0)
        servers[1] = ServerProcess("--model", model, "--port", str(victim.port), ready_timeout=300)
        _, err = run.communicate(timeout=2700)
        assert run.returncode == 0, err
    finally:
        for s in servers:
            s.kill()
    calm_records, storm_records = _results(tmp_path / "calm"), _results(tmp_path / "storm")
    storm_ids = [r["id"] for r in storm_records]
    assert len(storm_ids) == len(set(storm_ids)) == len(calm_records) > 2
    assert sorted(storm_records, key=lambda r: r["id"]) == sorted(calm_records, key=lambda r: r["id"])
