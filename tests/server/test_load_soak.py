"""The soak mode of `benchmarks/load_test.py` (`--soak SECONDS`), run short: a real server in a
child process, every RPC kind answered without an error, and a report with the per-window
figures and the summary the README quotes. `soak_roles` is checked on its own."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.paths import REPO

SPEC = importlib.util.spec_from_file_location("load_test", REPO / "benchmarks" / "load_test.py")
load_test = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(load_test)

RPCS = {m for m, _ in load_test.SOAK_MIX}


@pytest.mark.parametrize("clients", [1, 5, 7, 32, 100])
def test_soak_roles_give_every_client_one_rpc_and_every_rpc_a_client(clients):
    roles = load_test.soak_roles(clients)
    assert len(roles) == clients and set(roles) <= RPCS
    if clients >= len(RPCS):
        assert set(roles) == RPCS


def test_soak_roles_follow_the_mix_at_32_clients():
    counts = {m: load_test.soak_roles(32).count(m) for m in RPCS}
    assert counts == dict(load_test.SOAK_MIX)


@pytest.mark.slow
def test_short_soak_reports_windows_and_no_errors():
    out = subprocess.run(
        [sys.executable, "benchmarks/load_test.py", "--soak", "10", "--window", "5", "--json", "--items", "20"],
        cwd=REPO, capture_output=True, text=True, timeout=1800,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert report["mode"] == "soak" and report["clients"] == 32 and report["server_exit_code"] == 0
    assert report["errors"] == 0 and report["errors_by_status"] == {}
    assert report["roles"] == dict(load_test.SOAK_MIX)
    windows = report["windows"]
    assert [w["window"] for w in windows] == [0, 1] and [w["start_s"] for w in windows] == [0.0, 5.0]
    assert sum(w["requests"] for w in windows) == report["requests"] > 0
    for w in windows:
        assert w["errors"] == 0 and w["ok"] == w["requests"] and w["server_rss_mb"] > 0
        assert w["p50_ms"] <= w["p99_ms"]
    answered = set().union(*(w["per_rpc"] for w in windows))
    assert answered == RPCS  # every RPC kind ran, model RPCs included
    ratios = report["p99_ratio_by_rpc"]
    assert set(ratios) == RPCS
    # an RPC slower than a window may have no call ending in the first one: then no ratio
    expected = None if None in ratios.values() else max(ratios.values())
    assert report["p99_ratio"] == expected and (expected is None or expected > 0)
    assert report["p99_first_ms"] == windows[0]["p99_ms"] and report["p99_last_ms"] == windows[-1]["p99_ms"]
    assert report["server_rss_start_mb"] == windows[0]["server_rss_mb"]
    assert report["server_rss_end_mb"] > 0 and report["memory_ratio"] > 0
    assert set(report["targets_met"]) == {"errors", "p99_ratio", "memory_ratio"} and report["targets_met"]["errors"]
    assert len(report["load_average_start"]) == 3 and len(report["load_average_end"]) == 3
