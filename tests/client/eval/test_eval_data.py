"""`client eval` and its data root: under the default root ($AMBIT_DATA, else ../shared/data),
suites whose reference data is absent are skipped with one line naming the file, its origin and
how to point ambit at it, and RADD runs from generated instances when the benchmark is absent (a
`--data` given that lacks them is an error: tests/client/test_first_use.py); the README's main
job finishes in a bare clone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from ambit.client.eval import cli
from ambit.client.eval.radd.runner import DEMO_FACTS, generated_rows
from tests.paths import REPO


@pytest.fixture()
def no_data(tmp_path, monkeypatch):
    """The default data root, pointed at a folder that does not exist."""
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "nowhere"))
    return tmp_path / "nowhere"


def test_missing_implicature_data_is_skipped_with_origin_and_exit_0(tmp_path, capsys, no_data):
    rc = cli.main(["implicature", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 0
    line = next(l for l in err.splitlines() if l.startswith("skipped implicature"))
    assert str(tmp_path / "nowhere" / "implicature" / "test_conversational_implicatures.csv") in line
    assert "github.com/LauraRuis/do-pigs-fly" in line and "--data DIR or $AMBIT_DATA" in line
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_radd_benchmark_source_missing_is_skipped(tmp_path, capsys, no_data):
    rc = cli.main(["radd", "--source", "benchmark", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 0 and "skipped radd-prolog" in err and "github.com/sfschouten/exploiting-ambiguity" in err


def test_radd_generated_source_runs_the_prolog_solver(tmp_path, no_data):
    out = tmp_path / "radd"
    assert cli.main(["radd", "--source", "generated", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    rows = generated_rows(DEMO_FACTS, seed=0)
    unique = {"\n".join(r.raw["messages"]) for r in rows}
    assert summary["source"] == "generated" and summary["n"] == len(unique)
    assert set(summary["by_pair"]) == {r.pair for r in rows}
    assert "--source generated" in (out / "summary.md").read_text()


def test_radd_auto_source_falls_back_to_generated(tmp_path, no_data):
    out = tmp_path / "radd"
    assert cli.main(["radd", "--limit", "3", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["source"] == "generated" and summary["n"] == 3


def test_radd_responses_solver_refuses_generated_instances(tmp_path, capsys):
    rc = cli.main(["radd", "--solver", "responses", "--source", "generated", "--out", str(tmp_path / "o")])
    assert rc == 2 and "needs the benchmark's recorded replies" in capsys.readouterr().err


AMP_TYPES = ("pp", "scope", "revscope", "bound", "conj")


def _main_job_command() -> list[str]:
    """The README's main job: the `ambit eval all ...` of its first command line, run with this
    interpreter (`python -m ambit` is the `ambit` command)."""
    first = (REPO / "README.md").read_text().split("```bash\n", 1)[1].splitlines()[0]
    job = re.search(r"\.venv/bin/ambit (eval all [^#]*)", first).group(1).split()
    return [sys.executable, "-m", "ambit", *job]


@pytest.mark.slow
@pytest.mark.timeout(3900)
def test_main_job_finishes_in_a_bare_clone(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    clone = tmp_path / "ambit"  # tmp_path holds no shared/: the default data root is absent
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    # the clone's own code, as its own set-up would install it (the data root is found beside it)
    env = {k: v for k, v in os.environ.items() if k != "AMBIT_DATA"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(clone / "src"), env.get("PYTHONPATH")]))
    r = subprocess.run(_main_job_command(), cwd=clone, env=env, capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stderr[-4000:]
    out = clone / "out" / "demo"
    index = json.loads((out / "summary.json").read_text())
    assert set(index["skipped"]) == {"implicature"}
    assert "test_conversational_implicatures.csv" in index["skipped"]["implicature"]["message"]
    assert "skipped" in (out / "summary.md").read_text()
    assert {"amp-zeroshot", "amp-fewshot", "radd", "radd-model"} <= set(index["suites"])
    for name in ("radd", "radd-model"):
        s = json.loads((out / name / "summary.json").read_text())
        assert s["source"] == "generated"
        assert {"n", "accuracy", "by_pair", "per_class", "confusion"} <= set(s)
    # every AmP type and metric on the default model (test_eval_e2e.py runs `all` with the reference
    # data on one type only, and leaves these to this run)
    z = json.loads((out / "amp-zeroshot" / "summary.json").read_text())
    assert z["suite"] == "amp-zeroshot" and set(z["by_type"]) == set(AMP_TYPES)
    for v in z["by_type"].values():
        assert {"n", "acc_lf0", "acc_lf1", "acc_lf0_equiv", "acc_lf1_equiv", "zm", "p_lf0_mean"} <= set(v)
        assert set(v["zm"]) == {"1", "2", "3", "4", "5"}
    f = json.loads((out / "amp-fewshot" / "summary.json").read_text())
    assert set(f["by_type"]) == set(AMP_TYPES)
    for v in f["by_type"].values():
        assert set(v["acc_lf0_by_ratio"]) == {"0.0", "0.5", "1.0"} and 0 <= v["fdm"] <= 2 and 0 <= v["fim"] <= 1
    for report in ("amp-zeroshot/fig2_accuracy.png", "amp-zeroshot/fig3_p_lf0.png", "amp-zeroshot/fig4_tokens.html",
                   "amp-fewshot/fig6_lf0_vs_ratio.png", "radd-model/accuracy_by_pair.png"):
        assert (out / report).stat().st_size > 0, report


def test_all_without_data_skips_implicature_and_runs_radd_generated(tmp_path, capsys, no_data):
    from ambit.client.testing import FakeAmbitServicer, FakeServer
    srv = FakeServer(FakeAmbitServicer())
    try:
        out = tmp_path / "all"
        assert cli.main(["all", "--out", str(out), "--server", srv.address,
                         "--limit", "1", "--types", "pp", "--ratios", "0,1"]) == 0
    finally:
        srv.stop(0)
    assert "skipped implicature" in capsys.readouterr().err
    index = json.loads((out / "summary.json").read_text())
    assert set(index["skipped"]) == {"implicature"} and "implicature" not in index["suites"]
    assert index["skipped"]["implicature"]["origin"].startswith("github.com/LauraRuis/do-pigs-fly")
    assert "**skipped**" in (out / "summary.md").read_text()
    assert not (out / "implicature").exists()
    for name in ("radd", "radd-model"):
        assert json.loads((out / name / "summary.json").read_text())["source"] == "generated"
        assert "generated instances" in index["suites"][name]["headline"]
