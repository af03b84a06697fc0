"""Runners, results store and reports, driven against the in-process fake server (fast)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ambit.client.eval.amp import suite as amp
from ambit.client.eval.cli import main as eval_main
from ambit.client.api import AmbitError
from ambit.client.eval.runner import ItemsFailed, RunAborted, check_failures, run_items
from ambit.client.eval.store import ResultsStore, RunMismatch, read_records
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import REPO
from tests.paths import SHARED_DATA as DATA



# ---------------------------------------------------------------------------- store / runner

def test_store_appends_resumes_and_drops_torn_line(tmp_path):
    with ResultsStore(tmp_path, {"suite": "x"}) as s:
        s.append({"id": "b", "v": 2})
        s.append({"id": "a", "v": 1})
        s.append({"id": "a", "v": 99})  # duplicate id ignored
    with open(tmp_path / "results.jsonl", "a") as fh:
        fh.write('{"id": "c", "v"')  # a crash mid-write
    with ResultsStore(tmp_path, {"suite": "x"}) as s:
        assert [r["id"] for r in s.records()] == ["a", "b"] and "c" not in s
        s.append({"id": "c", "v": 3})
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert [json.loads(x)["id"] for x in lines] == ["b", "a", "c"]
    assert [r["v"] for r in read_records(tmp_path)] == [1, 2, 3]


def test_store_refuses_other_arguments(tmp_path):
    with ResultsStore(tmp_path, {"suite": "x", "limit": 2}) as s:
        s.append({"id": "a"})  # a run that recorded a result binds the folder to its arguments
    with pytest.raises(RunMismatch, match="limit: 2 -> 3"):
        ResultsStore(tmp_path, {"suite": "x", "limit": 3})


@pytest.mark.parametrize("workers", [1, 3])
def test_runner_skips_finished_items(tmp_path, workers):
    calls = []

    def process(item):
        calls.append(item["id"])
        return {"x": item["n"] * 2}

    items = [{"id": f"i{n}", "n": n} for n in range(6)]
    with ResultsStore(tmp_path, {"k": 1}) as s:
        s.append({"id": "i2", "x": 4})
        recs = run_items(s, items, process, desc="t", workers=workers)
    assert sorted(calls) == ["i0", "i1", "i3", "i4", "i5"]
    assert [r["x"] for r in recs] == [0, 2, 4, 6, 8, 10]
    with pytest.raises(ValueError):
        run_items(ResultsStore(tmp_path / "d", {}), [{"id": 1}, {"id": 1}], process, desc="t")


@pytest.mark.parametrize("workers", [1, 3])
def test_runner_retries_transient_errors_and_logs_lasting_ones(tmp_path, workers):
    attempts: dict[str, int] = {}

    def process(item):
        attempts[item["id"]] = attempts.get(item["id"], 0) + 1
        if item["id"] == "i1" and attempts["i1"] <= 2:
            raise AmbitError("UNAVAILABLE", "server restarting")  # transient: retried
        if item["id"] == "i3":
            raise AmbitError("INVALID_ARGUMENT", "prompt: too long (at character 9000)")  # lasting
        return {"x": item["n"]}

    items = [{"id": f"i{n}", "n": n} for n in range(6)]
    with ResultsStore(tmp_path, {"k": 1}) as s:
        recs = run_items(s, items, process, desc="t", workers=workers, backoff_s=0.01)
    assert [r["id"] for r in recs] == ["i0", "i1", "i2", "i4", "i5"]  # the others went on
    assert attempts["i1"] == 3 and attempts["i3"] == 1  # INVALID_ARGUMENT is not retried
    assert s.failed == 1
    errors = [json.loads(x) for x in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert [(e["id"], e["code"]) for e in errors] == [("i3", "INVALID_ARGUMENT")]
    assert "character 9000" in errors[0]["error"]["message"] and errors[0]["error"]["code"] == "INVALID_ARGUMENT"
    with pytest.raises(ItemsFailed, match=r"1 item\(s\) failed .*errors.jsonl.*rerun"):
        check_failures(s)
    # rerun once the cause is fixed: only the failed item is processed again
    attempts.clear()
    with ResultsStore(tmp_path, {"k": 1}) as s:
        recs = run_items(s, items, lambda it: {"x": attempts.setdefault(it["id"], it["n"])}, desc="t")
    assert list(attempts) == ["i3"] and len(recs) == 6 and s.failed == 0
    check_failures(s)


def test_runner_stops_when_items_keep_failing(tmp_path):
    calls = []

    def process(item):
        calls.append(item["id"])
        raise KeyError("lf0")  # a bug: every item fails

    with ResultsStore(tmp_path, {"k": 1}) as s, pytest.raises(RunAborted, match="4 items failed in a row"):
        run_items(s, [{"id": f"i{n}"} for n in range(20)], process, desc="t", max_consecutive_failures=4)
    assert len(calls) == 4
    assert len((tmp_path / "errors.jsonl").read_text().splitlines()) == 4


# ---------------------------------------------------------------------------- suites on a fake server

@pytest.fixture()
def fake():
    srv = FakeServer(FakeAmbitServicer())
    yield srv
    srv.stop(0)


def test_amp_zeroshot_on_fake_server(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))  # the default root, absent: generated items
    items = amp.zeroshot_items(["pp", "scope"], seed=0, limit=2, fmt="fol")
    # the "model" ranks LF1 first and LF0 second (renamed variables: equal only canonically)
    swap = {"x": "y", "y": "x"}
    renamed = {it["id"]: re.sub(r"\b[xy]\b", lambda m: swap[m.group()], it["lf0"]) for it in items}
    assert all(renamed[it["id"]] != it["lf0"] for it in items)
    fake.servicer.parses = {it["prompt"]: [it["lf1"], renamed[it["id"]]] for it in items}
    assert eval_main(["amp-zeroshot", "--out", str(tmp_path), "--server", fake.address,
                      "--types", "pp,scope", "--limit", "2"]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["suite"] == "amp-zeroshot" and s["model"] == "fake-model"
    for t in ("pp", "scope"):
        v = s["by_type"][t]
        assert v["n"] == 2 and v["acc_lf0"] == 0.0 and v["acc_lf1"] == 1.0
        assert v["acc_lf1_equiv"] == 1.0
        assert v["zm"] == {"1": 0.0, "2": 1.0, "3": 1.0, "4": 1.0, "5": 1.0}
        assert 0 <= v["p_lf0_mean"] <= 1
    for f in ("summary.md", "fig2_accuracy.png", "fig3_p_lf0.png", "fig4_tokens.html"):
        assert (tmp_path / f).stat().st_size > 0
    assert "ZM_k" in (tmp_path / "summary.md").read_text()
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 4


def test_amp_fewshot_fdm_on_fake_server(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.fewshot_items(["pp"], [0.0, 0.5, 1.0], seed=0, limit=1, fmt="fol")
    # top-1 = LF1 at r=0, LF0 at r=0.5 and r=1 -> FDM = (0 + 1 + 0) / 3
    fake.servicer.parses = {it["prompt"]: [it["lf0"] if it["ratio"] >= 0.5 else it["lf1"]] for it in items}
    assert eval_main(["amp-fewshot", "--out", str(tmp_path), "--server", fake.address, "--types", "pp",
                      "--ratios", "0,0.5,1", "--limit", "1"]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())["by_type"]["pp"]
    assert s["fdm"] == pytest.approx(1 / 3)
    assert s["acc_lf0_by_ratio"] == {"0.0": 0.0, "0.5": 1.0, "1.0": 1.0}
    assert 0 <= s["fim"] <= 1
    assert (tmp_path / "fig6_lf0_vs_ratio.png").stat().st_size > 0


@pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
def test_implicature_on_fake_server(tmp_path, fake):
    assert eval_main(["implicature", "--out", str(tmp_path), "--server", fake.address,
                      "--k", "0,1", "--templates", "1,2", "--limit", "3"]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert set(s["by_k"]) == {"0", "1"}
    for v in s["by_k"].values():
        assert set(v["by_template"]) == {"1", "2"} and v["n"] == 3 and v["answers"] == 6  # n counts examples
        assert 0 <= v["mean"] <= 1 and v["std"] >= 0
    assert (tmp_path / "accuracy_vs_k.png").exists()
    # rerun with other arguments into the same directory: a clear error
    assert eval_main(["implicature", "--out", str(tmp_path), "--server", fake.address,
                      "--k", "0", "--templates", "1,2", "--limit", "3"]) == 2


@pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
def test_eval_goes_on_past_a_failing_item_and_rerun_retries_it(tmp_path, capsys):
    import grpc
    seen: list[str] = []

    def fail(method, request):
        if request.prompt not in seen:
            seen.append(request.prompt)
        if broken and len(seen) > 1 and request.prompt == seen[1]:
            return grpc.StatusCode.INVALID_ARGUMENT, "prompt: rejected for the test"
        return None

    broken = True
    srv = FakeServer(FakeAmbitServicer(fail=fail))
    try:
        args = ["implicature", "--out", str(tmp_path), "--server", srv.address, "--k", "0",
                "--templates", "1", "--limit", "4", "--workers", "1", "--protocol", "score"]
        assert eval_main(args) == 3  # finished, reports written, one item failed
        err = capsys.readouterr().err
        assert "1 item(s) failed" in err and "INVALID_ARGUMENT" in err
        assert json.loads((tmp_path / "summary.json").read_text())["by_k"]["0"]["n"] == 3
        assert len((tmp_path / "errors.jsonl").read_text().splitlines()) == 1
        broken = False
        assert eval_main(args) == 0  # the rerun retries just that item
        assert json.loads((tmp_path / "summary.json").read_text())["by_k"]["0"]["n"] == 4
        assert len(read_records(tmp_path)) == 4
    finally:
        srv.stop(0)


@pytest.mark.skipif(not (DATA / "radd").exists(), reason="no RADD data")
def test_radd_model_solver_on_fake_server(tmp_path, fake):
    assert eval_main(["radd", "--solver", "model", "--out", str(tmp_path), "--server", fake.address,
                      "--limit", "2"]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["n"] == 10 and len(s["by_pair"]) == 5 and 0 <= s["accuracy"] <= 1
    assert set(s["per_class"]) == set(s["per_class_macro"]) == {"de_dicto", "de_re"}
    assert s["per_class_macro"]["de_re"]["pairs"] == 5
    md = (tmp_path / "summary.md").read_text()
    assert "mean over property pairs" in md and "pooled over all instances" in md
    assert sum(sum(row.values()) for row in s["confusion"].values()) == pytest.approx(100)  # percent
    assert (tmp_path / "accuracy_by_pair.png").exists()


# ---------------------------------------------------------------------------- resume after SIGKILL

def _eval_cmd(out: Path, address: str) -> list[str]:
    return [sys.executable, "-m", "ambit", "eval", "implicature", "--out", str(out), "--server", address,
            "--k", "0,1", "--templates", "1,2,3", "--limit", "4", "--protocol", "score"]


@pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
def test_resume_after_sigkill_matches_uninterrupted_run(tmp_path):
    srv = FakeServer(FakeAmbitServicer(delay=0.15))
    try:
        killed, clean = tmp_path / "killed", tmp_path / "clean"
        proc = subprocess.Popen(_eval_cmd(killed, srv.address), cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results = killed / "results.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if results.exists() and len(results.read_text().splitlines()) >= 5:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        partial = len(results.read_text().splitlines())
        assert 5 <= partial < 24, partial
        assert not (killed / "summary.json").exists()

        srv.servicer.delay = 0.0
        before = srv.servicer.counts["ScoreCandidates"]
        assert subprocess.run(_eval_cmd(killed, srv.address), cwd=REPO, capture_output=True).returncode == 0
        # only the unfinished items were scored again
        assert srv.servicer.counts["ScoreCandidates"] - before == 24 - partial
        assert subprocess.run(_eval_cmd(clean, srv.address), cwd=REPO, capture_output=True).returncode == 0

        lines = results.read_text().splitlines()
        ids = [json.loads(x)["id"] for x in lines]
        assert len(ids) == len(set(ids)) == 24
        assert read_records(killed) == read_records(clean)
        assert json.loads((killed / "summary.json").read_text()) == json.loads((clean / "summary.json").read_text())
    finally:
        srv.stop(0)


def test_eval_with_two_servers_spreads_work(tmp_path):
    a, b = FakeServer(), FakeServer()
    try:
        if not (DATA / "implicature").exists():
            pytest.skip("no implicature data")
        assert eval_main(["implicature", "--out", str(tmp_path), "--server", f"{a.address},{b.address}",
                          "--k", "0", "--templates", "1,2", "--limit", "5", "--protocol", "score"]) == 0
        na, nb = a.servicer.counts["ScoreCandidates"], b.servicer.counts["ScoreCandidates"]
        assert na + nb == 10 and na > 0 and nb > 0, (na, nb)
    finally:
        a.stop(0)
        b.stop(0)


def test_progress_plain_lines_when_not_a_tty():
    import io

    from ambit.client.eval.runner import Progress
    buf = io.StringIO()
    p = Progress(total=4, desc="x", done=1, stream=buf, every_s=0.0, tty=False)
    for _ in range(3):
        p.update()
    p.close()
    text = buf.getvalue()
    assert "resuming: 1/4" in text and "4/4 items" in text and "ETA" in text and "items/s" in text


def test_token_confidence_html(tmp_path):
    from ambit.client.eval.report import token_confidence_html
    token_confidence_html([{"id": "i1", "surface": "a <b>", "rows": [
        {"label": "LF0", "tokens": [{"text": "Ġexists", "prob": 0.9}, {"text": "Ġx", "prob": 0.1}]}]}],
        tmp_path / "t.html", "T")
    page = (tmp_path / "t.html").read_text()
    assert "a &lt;b&gt;" in page and "> exists<" in page and "p=0.100" in page


@pytest.mark.skipif(not (DATA / "radd").exists() or not (DATA / "implicature").exists(), reason="no data")
def test_eval_all_on_fake_server_writes_index(tmp_path, fake):
    assert eval_main(["all", "--out", str(tmp_path), "--server", fake.address, "--limit", "1",
                      "--types", "pp,conj", "--ratios", "0,1", "--k", "0", "--templates", "1"]) == 0
    index = json.loads((tmp_path / "summary.json").read_text())
    assert set(index["suites"]) == {"amp-zeroshot", "amp-fewshot", "implicature", "radd", "radd-model"}
    for name, entry in index["suites"].items():
        assert (tmp_path / entry["summary"]).exists(), name
    md = (tmp_path / "summary.md").read_text()
    assert "amp-fewshot/summary.md" in md and "FDM" in md
    r = json.loads((tmp_path / "radd-model" / "summary.json").read_text())
    assert r["n"] == 5 and {k for k, v in r["per_class"].items() if v["support"]} == {"de_dicto", "de_re"}
    assert set(r["per_class_macro"]) == {"de_dicto", "de_re"}
    assert "per_class_macro" in json.loads((tmp_path / "radd" / "summary.json").read_text())


def test_every_suite_is_registered_with_its_own_options():
    from ambit.client.eval.cli import build_parser
    from ambit.client.eval.suites import ALL, SUITES
    assert list(SUITES) == ["amp-zeroshot", "amp-fewshot", "radd", "implicature", "folio"]
    assert [name for name, _ in ALL] == ["amp-zeroshot", "amp-fewshot", "implicature", "radd", "radd-model"]
    parser = build_parser()
    radd = parser.parse_args(["radd", "--out", "o", "--data", "a.jsonl", "b", "--solver", "responses"])
    assert [str(p) for p in radd.data] == ["a.jsonl", "b"] and radd.solver == "responses"
    # in `all` the common --data (one data root) stays, and no --solver: its RADD entries fix one
    every = parser.parse_args(["all", "--out", "o", "--data", "root", "--k", "0,1", "--ratios", "0,1"])
    assert str(every.data) == "root" and every.ks == [0, 1] and every.ratios == [0.0, 1.0]
    assert not hasattr(every, "solver")
    with pytest.raises(SystemExit):
        parser.parse_args(["amp-zeroshot", "--out", "o", "--k", "1"])  # an implicature option
