"""`client eval` and the gRPC server over a model served elsewhere (a stand-in endpoint):
GetModelInfo's capabilities, a protocol refused in one line before any request, the endpoint
killed mid-run (retried, nothing lost or duplicated), the client killed mid-run and resumed, the
endpoint down until the eval is killed and rerun, and a rerun answered from the cache (run.json
"remote": "requests": 0), for implicature and AmP few-shot alike."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ambit.client.api import Client
from ambit.client.eval.cli import main as eval_main
from ambit.server import serve
from ambit.server.remote.spec import RemoteOptions
from tests.paths import REPO, SHARED_DATA

from tests.helpers.standin import StandIn
from tests.helpers.results import finished_records

IMPLICATURE = ["implicature", "--protocol", "score", "--k", "0", "--templates", "1", "--limit", "8", "--workers", "1"]
# 4 utterances at 2 ratios: 8 items of 3 requests each (the greedy LF, 1 sample, the gold LFs' scores)
AMP_FEWSHOT = ["amp-fewshot", "--types", "pp", "--ratios", "0,1", "--limit", "4", "--beam", "2", "--workers", "1"]
# suite → (its arguments, items, requests per item)
RUNS = {"implicature": (IMPLICATURE, 8, 1), "amp-fewshot": (AMP_FEWSHOT, 8, 3)}
need_implicature = pytest.mark.skipif(not (SHARED_DATA / "implicature").exists(),
                                      reason=f"no implicature data under {SHARED_DATA} (set $AMBIT_DATA)")


def need_data(suite: str):
    """The suite's reference data under the data root, or a skip saying where it was looked for."""
    sub = "amp" if suite.startswith("amp") else suite
    return pytest.param(suite, marks=pytest.mark.skipif(
        not (SHARED_DATA / sub).exists(), reason=f"no {sub} data under {SHARED_DATA} (set $AMBIT_DATA)"))


BOTH = [need_data("implicature"), need_data("amp-fewshot")]


def records(out: Path) -> list[dict]:
    return finished_records(out)  # the eval may be writing its last line


def eval_args(s: StandIn, out: Path, cache: Path, *extra: str, suite: str = "implicature") -> list[str]:
    return [*RUNS[suite][0], "--out", str(out), "--model", f"openai:{s.model}@{s.url}", "--remote-cache", str(cache),
            "--data", str(SHARED_DATA), *extra]


def test_grpc_server_fronts_the_endpoint(tmp_path):
    s = StandIn().start()
    srv = serve(model=f"openai:standin@{s.url}", port=0, remote=RemoteOptions(cache_dir=tmp_path, max_concurrency=4))
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            info = c.info()
            assert info.model_id == f"openai:standin@{s.url}" and info.max_batch == 4
            assert info.remote["capabilities"] == ["chat", "completions", "prompt_logprobs", "grammar",
                                                   "beam_search", "n_samples"]
            before = info.remote["requests"]
            scores = c.score("Human: is it raining? Computer:", [" yes", " no"]).scores
            assert [x.tokens for x in scores] == [[" yes"], [" no"]]
            assert c.generate([("user", "hello")], max_new_tokens=4).text in ("yes", "no")
            dist = c.parse_distribution("every man saw a dog", prompt="Computer: ", k=3)
            # the greedy path, then 2 samples (one repeats it): toy outputs, none parses, each counted as such
            assert [c.text for c in dist.candidates] == ["yes", "yes 1"]
            assert all(c.parse_status != "OK" for c in dist.candidates)
            c.score("Human: is it raining? Computer:", [" yes", " no"])  # from the cache
            after = c.info().remote
            assert after["requests"] - before == 4 and after["cache_hits"] == 1
    finally:
        srv.stop(0)
        s.kill()


def test_python_m_server_refuses_a_bad_key_at_startup(tmp_path):
    s = StandIn(key="right").start()
    key = tmp_path / "key"
    key.write_text("wrong-key-value\n")
    try:
        p = subprocess.run([sys.executable, "-m", "ambit", "serve", "--port", "0", "--model", f"openai:standin@{s.url}",
                            "--api-key-file", str(key)], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert p.returncode == 1
        assert "HTTP 401" in p.stderr and "--api-key-file" in p.stderr
        assert "wrong-key-value" not in p.stderr + p.stdout
        bad = subprocess.run([sys.executable, "-m", "ambit", "serve", "--port", "0", "--model", "openai:smollm2"],
                             cwd=REPO, capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and "expected openai:<MODEL>@<BASE_URL>" in bad.stderr
    finally:
        s.kill()


@pytest.mark.skipif(not (SHARED_DATA / "amp").exists(), reason=f"no AmP data under {SHARED_DATA}")
def test_eval_refuses_a_protocol_the_endpoint_cannot_serve_before_any_request(tmp_path, capsys):
    s = StandIn(caps=("chat", "completions")).start()  # a hosted API without prompt log-probabilities
    try:
        from ambit.server.remote.backend import RemoteBackend
        RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(cache_dir=None))
        probe = s.posts
        code = eval_main(["amp-fewshot", "--out", str(tmp_path / "o"), "--model", f"openai:standin@{s.url}",
                          "--remote-cache", "none", "--data", str(SHARED_DATA), "--types", "pp", "--limit", "1"])
        sent = s.posts - probe  # the embedded server's start-up probe only
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert code == 2
        assert err.startswith("error: amp-fewshot --beam 5 (ZM_5") and "needs n_samples" in err
        assert sent == probe  # no item was sent
        assert not (tmp_path / "o" / "results.jsonl").exists()
    finally:
        s.kill()


@pytest.mark.skipif(not all((SHARED_DATA / d).exists() for d in ("amp", "implicature", "radd")),
                    reason=f"no AmP, implicature or RADD data under {SHARED_DATA}")
def test_eval_all_skips_the_suites_an_endpoint_cannot_serve_and_runs_the_others(tmp_path, capsys):
    s = StandIn(caps=("chat", "completions")).start()
    try:
        code = eval_main(["all", "--out", str(tmp_path), "--model", f"openai:standin@{s.url}", "--remote-cache", "none",
                          "--data", str(SHARED_DATA), "--limit", "1", "--types", "pp", "--ratios", "0.5",
                          "--k", "0", "--templates", "1"])
        assert code == 0
        index = json.loads((tmp_path / "summary.json").read_text())
        assert {n for n, v in index["skipped"].items() if v["reason"] == "endpoint capability"} == {
            "amp-zeroshot", "amp-fewshot"}
        assert set(index["suites"]) == {"implicature", "radd", "radd-model"}  # generate through chat
        assert "skipped amp-fewshot: amp-fewshot --beam 5 (ZM_5" in capsys.readouterr().err
    finally:
        s.kill()


@pytest.mark.parametrize("suite", BOTH)
def test_endpoint_killed_mid_run_then_rerun_sends_nothing(tmp_path, suite):
    s = StandIn(delay_s=0.05).start()
    cache = tmp_path / "cache"
    _, n, per_item = RUNS[suite]

    def kill_after_some_items() -> None:
        while s.posts < 10:  # 6 probe requests, then items
            time.sleep(0.01)
        s.kill()
        time.sleep(1.0)
        s.restart()

    killer = threading.Thread(target=kill_after_some_items, daemon=True)
    killer.start()
    try:
        assert eval_main(eval_args(s, tmp_path / "a", cache, suite=suite)) == 0
        killer.join(10)
        recs = records(tmp_path / "a")
        assert len(recs) == len({r["id"] for r in recs}) == n
        remote = json.loads((tmp_path / "a" / "run.json").read_text())["remote"]
        assert remote["retries"] >= 1 and remote["requests"] == n * per_item + remote["retries"]
        assert remote["capabilities"] and "api_key" not in json.dumps(remote)
        # the same eval again into a fresh folder: every answer from the cache
        assert eval_main(eval_args(s, tmp_path / "b", cache, suite=suite)) == 0
        again = json.loads((tmp_path / "b" / "run.json").read_text())["remote"]
        assert (again["requests"], again["cache_hits"]) == (0, n * per_item)
        assert sorted(records(tmp_path / "b"), key=lambda r: r["id"]) == sorted(recs, key=lambda r: r["id"])
        # and into the finished folder: nothing to do, nothing sent, run.json still accepted
        assert eval_main(eval_args(s, tmp_path / "a", cache, suite=suite)) == 0
        assert json.loads((tmp_path / "a" / "run.json").read_text())["remote"]["requests"] == 0
    finally:
        s.kill()


@pytest.mark.parametrize("suite", BOTH)
def test_client_killed_mid_run_resumes_without_loss_or_duplicates(tmp_path, suite):
    _, n, per_item = RUNS[suite]
    s = StandIn(delay_s=0.4 / per_item).start()
    out, cache = tmp_path / "run", tmp_path / "cache"
    env = {**os.environ, "AMBIT_DATA": str(SHARED_DATA)}
    try:
        p = subprocess.Popen([sys.executable, "-m", "ambit", "eval", *eval_args(s, out, cache, suite=suite)],
                             cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            if (out / "results.jsonl").exists() and len(records(out)) >= 3:
                break
            time.sleep(0.05)
        assert p.poll() is None, "the eval finished before it could be killed"
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        done = {r["id"] for r in records(out)}
        assert 3 <= len(done) < n
        s.delay_s = 0.0
        assert eval_main(eval_args(s, out, cache, suite=suite)) == 0
        recs = records(out)
        assert len(recs) == len({r["id"] for r in recs}) == n and done <= {r["id"] for r in recs}
        remote = json.loads((out / "run.json").read_text())["remote"]
        assert remote["requests"] <= (n - len(done)) * per_item  # the finished items were not asked again
        assert remote["requests"] + remote["cache_hits"] == (n - len(done)) * per_item
    finally:
        s.kill()


@pytest.mark.parametrize("suite", BOTH)
def test_endpoint_down_mid_run_then_eval_killed_and_resumed(tmp_path, suite):
    """The endpoint dies mid-run and stays down (the eval sits in its retries); the eval is killed,
    the endpoint comes back, and the same command finishes the run: nothing lost or duplicated,
    the finished items not asked again."""
    _, n, per_item = RUNS[suite]
    s = StandIn(delay_s=0.1).start()
    out, cache = tmp_path / "run", tmp_path / "cache"
    env = {**os.environ, "AMBIT_DATA": str(SHARED_DATA)}
    try:
        p = subprocess.Popen([sys.executable, "-m", "ambit", "eval", *eval_args(s, out, cache, suite=suite)],
                             cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            if (out / "results.jsonl").exists() and len(records(out)) >= 2:
                break
            time.sleep(0.02)
        s.kill()
        time.sleep(2.0)  # the eval retries against a dead endpoint
        assert p.poll() is None, "the eval should still be retrying"
        done = {r["id"] for r in records(out)}
        assert 2 <= len(done) < n
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        assert {r["id"] for r in records(out)} == done  # nothing finished while the endpoint was down
        s.restart()
        assert eval_main(eval_args(s, out, cache, suite=suite)) == 0
        recs = records(out)
        assert len(recs) == len({r["id"] for r in recs}) == n and done <= {r["id"] for r in recs}
        remote = json.loads((out / "run.json").read_text())["remote"]
        assert remote["requests"] - remote["retries"] + remote["cache_hits"] == (n - len(done)) * per_item
    finally:
        s.kill()
