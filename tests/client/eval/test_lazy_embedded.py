"""A rerun of `ambit eval` with every result present never starts the embedded server, so it
never loads the model: what its metadata needs (the model id, its family, whether it has a chat
template, whether it scores) comes from the model's config and tokenizer
(`client.connect.LazyEmbedded`). The default model's `eval all` rerun is checked in
test_eval_e2e.py; here a tiny random GPT-2 runs every suite of `eval all` in process, with
`server.serve` counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit.client.eval.cli import main as eval_main
from tests.paths import SHARED_DATA as DATA
from tests.paths import need_shared


@pytest.fixture
def serve_calls(monkeypatch) -> list[str | None]:
    """The model of every embedded server started from now on (`server.serve`, counted)."""
    from ambit.server import app

    calls: list[str | None] = []
    real = app.serve

    def counted(*args, **kwargs):
        calls.append(kwargs.get("model"))
        return real(*args, **kwargs)

    monkeypatch.setattr(app, "serve", counted)
    return calls


def _tiny(tmp_path_factory) -> Path:
    from tests.helpers.server import tiny_gpt2_folder
    return tiny_gpt2_folder(tmp_path_factory.mktemp("tiny-gpt2"))


def _summaries(out: Path) -> dict[str, dict]:
    """Every summary.json under `out` (the index's per-suite seconds differ between runs)."""
    return {str(p.relative_to(out)): json.loads(p.read_text()) for p in sorted(out.rglob("summary.json"))}


def test_a_rerun_with_nothing_left_to_do_never_starts_the_model(tmp_path_factory, tmp_path, serve_calls, capsys):
    need_shared("implicature")
    need_shared("amp")
    folder = _tiny(tmp_path_factory)
    out = tmp_path / "all"
    argv = ["all", "--out", str(out), "--model", str(folder), "--limit", "1", "--types", "pp",
            "--ratios", "0,1", "--k", "0", "--templates", "1", "--beam", "2", "--data", str(DATA)]
    assert eval_main(argv) == 0
    assert serve_calls == [str(folder)]  # the first run needs the model: started once, for every suite
    first = _summaries(out)
    assert {"amp-zeroshot/summary.json", "implicature/summary.json", "radd-model/summary.json"} <= set(first)
    capsys.readouterr()

    assert eval_main(argv) == 0
    assert serve_calls == [str(folder)], "the rerun started the embedded server (and loaded the model)"
    assert "starting embedded server" not in capsys.readouterr().err
    again = _summaries(out)
    assert {k: s for k, s in again.items() if "/" in k} == {k: s for k, s in first.items() if "/" in k}
    assert again["summary.json"]["model"] == str(folder)
    run = json.loads((out / "implicature" / "run.json").read_text())
    assert run["model"] == str(folder) and run["protocol"] == "score"


def test_the_rerun_starts_the_model_once_an_item_is_missing(tmp_path_factory, tmp_path, serve_calls):
    """With one record removed, the rerun starts the server for that item alone."""
    need_shared("implicature")
    folder = _tiny(tmp_path_factory)
    out = tmp_path / "imp"
    argv = ["implicature", "--out", str(out), "--model", str(folder), "--k", "0", "--templates", "1",
            "--limit", "2", "--data", str(DATA)]
    assert eval_main(argv) == 0
    results = out / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-1]))
    assert eval_main(argv) == 0
    assert serve_calls == [str(folder), str(folder)]
    assert len(results.read_text().splitlines()) == len(lines)


def test_a_model_that_will_not_load_stops_the_run_in_one_line_and_leaves_no_folder(
        tmp_path_factory, tmp_path, serve_calls, capsys):
    """A model whose config cannot be read fails before the run opens its folder; one whose
    weights will not load fails the lazy start on the first item: the run's error (exit 1, one
    line), not one logged failure per item, and the folder the run made (its run key and an
    empty results file) is removed, as when the server started before the run."""
    need_shared("implicature")
    broken = _tiny(tmp_path_factory)
    for weights in [*broken.glob("*.safetensors"), *broken.glob("*.bin")]:
        weights.unlink()
    for model, what, started in ((tmp_path / "no-such-model.gguf", "does not exist", 0),
                                 (broken, "server startup failed", 1)):
        out = tmp_path / f"out-{started}"
        assert eval_main(["implicature", "--out", str(out), "--model", str(model), "--k", "0",
                          "--templates", "1", "--limit", "2", "--data", str(DATA)]) == 1
        err = capsys.readouterr().err
        assert what in err and "] item " not in err and "Traceback" not in err, err  # no item logged as failed
        assert err.strip().splitlines()[-1].startswith("error: server startup failed: ")
        assert len(serve_calls) == started and not out.exists()
