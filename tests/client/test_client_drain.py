"""Client-side balancing behind one DNS name, as over a Kubernetes headless Service: three servers
on 127.0.0.1, 127.0.0.2 and 127.0.0.3 with one port, a DNS server that resolves one name to all
three, and `client eval --server dns://<dns>/<name>:<port>`. All three receive work, and a run
during which one server is drained (SIGTERM) completes with exactly the undisturbed results."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from ambit.client import Client
from tests.client.dns_server import A, DnsServer
from tests.paths import REPO

NAME = "ambit-headless.test"
HOSTS = ["127.0.0.1", "127.0.0.2", "127.0.0.3"]


def _results(folder) -> list[dict]:
    lines = (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _requests(host: str, port: int) -> int:
    """Work RPCs the server at host:port has answered (its own GetStats calls left out)."""
    with Client(f"{host}:{port}") as c:
        return sum(n for method, n in c.stats().requests.items() if method != "GetStats")


def test_dns_target_round_robins_over_every_address():
    """A `dns:` target with three A records spreads calls over the three servers (logic only)."""
    server = pytest.importorskip("ambit.server")
    first = server.serve(model="none", port=0, host=HOSTS[0])
    servers = [first] + [server.serve(model="none", port=first.port, host=h) for h in HOSTS[1:]]
    dns = DnsServer(NAME, HOSTS)
    try:
        with Client(f"dns://127.0.0.1:{dns.port}/{NAME}:{first.port}") as c:
            verdicts = {c.equivalent("exists x . a(x)", "exists y . a(y)").verdict for _ in range(30)}
        assert verdicts == {"EQUIVALENT"}
        assert dns.queries[(NAME, A)] >= 1  # the name was resolved by our DNS server, not elsewhere
        got = [_requests(h, first.port) for h in HOSTS]
        assert sum(got) >= 30 and min(got) >= 5, got
    finally:
        dns.close()
        for s in servers:
            s.stop(0)


@pytest.mark.slow
def test_eval_behind_one_name_survives_a_drained_server(tmp_path):
    """Three real-model servers behind one name: an undisturbed `client eval` reaches all three;
    a second run, during which one server gets SIGTERM (drain, then exit 0) while the name still
    lists it, writes exactly the same records: none lost, none duplicated."""
    from tests.helpers.server import ServerProcess, tiny_gpt2_folder

    model = str(tiny_gpt2_folder(tmp_path / "tiny"))
    servers = [ServerProcess("--model", model, "--host", HOSTS[0], "--grace", "10", ready_timeout=300)]
    port = servers[0].port
    dns = DnsServer(NAME, HOSTS)
    try:
        servers += [ServerProcess("--model", model, "--host", h, "--port", str(port), "--grace", "10",
                                  ready_timeout=300) for h in HOSTS[1:]]
        target = f"dns://127.0.0.1:{dns.port}/{NAME}:{port}"
        args = [sys.executable, "-m", "ambit", "eval", "amp-fewshot", "--server", target, "--types", "scope,pp",
                "--ratios", "0,0.5,1", "--limit", "2", "--no-equiv", "--timeout", "120"]
        calm = subprocess.run([*args, "--out", str(tmp_path / "calm")], cwd=REPO, capture_output=True,
                              text=True, timeout=900)
        assert calm.returncode == 0, calm.stderr
        per_server = [_requests(h, port) for h in HOSTS]
        assert min(per_server) > 0, f"not every server received work: {per_server}"

        run = subprocess.Popen([*args, "--workers", "6", "--out", str(tmp_path / "drain")], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        results = tmp_path / "drain" / "results.jsonl"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and run.poll() is None:
            if results.exists() and len(results.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before the drain could start"
        victim = servers[1]
        before = _requests(HOSTS[1], port)
        assert victim.terminate(timeout=60) == 0, victim.log()  # SIGTERM: drain, finish in-flight, exit 0
        assert "ambit server stopped" in victim.log()
        _, err = run.communicate(timeout=900)
        assert run.returncode == 0, err
    finally:
        dns.close()
        for s in servers:
            s.kill()
    calm_records, drained_records = _results(tmp_path / "calm"), _results(tmp_path / "drain")
    ids = [r["id"] for r in drained_records]
    assert len(ids) == len(set(ids)) == len(calm_records) > 2
    assert sorted(drained_records, key=lambda r: r["id"]) == sorted(calm_records, key=lambda r: r["id"])
    assert before > per_server[1], "the drained server took no part in the second run before its drain"
