"""AmP from recorded predictions (`--predictions FILE`): a file that holds a model run's own
outputs gives the model run's metrics; items named by id or by utterance, type and ratio; LF
log-probabilities absent -> P(LF0)/FIM reported absent with the reason; malformed lines named."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from ambit.client.eval.amp import recorded as REC
from ambit.client.eval.amp import suite as amp
from ambit.client.eval.cli import main as eval_main
from ambit.client.testing import FakeAmbitServicer, FakeServer


@pytest.fixture()
def fake():
    srv = FakeServer(FakeAmbitServicer())
    yield srv
    srv.stop(0)


def _records(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


def _as_file(records: list[dict], path: Path, by_id: bool = True, scores: bool = True) -> Path:
    """The model run's own outputs in the predictions contract."""
    lines = []
    for r in records:
        line: dict = {"id": r["id"]} if by_id else {"utterance": r["surface"], "type": r["type"],
                                                    **({"ratio": r["ratio"]} if "ratio" in r else {})}
        line["predictions"] = [{"lf": p["text"], "score": p["logprob"]} for p in r["predictions"]]
        if scores:
            for g in ("lf0", "lf1"):
                line[f"{g}_logprobs"] = [math.log(t["prob"]) for t in r[f"tokens_{g}"]]
                line[f"{g}_tokens"] = [t["text"] for t in r[f"tokens_{g}"]]
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n")
    return path


METRICS_EXACT = ("n", "acc_lf0", "acc_lf1", "acc_lf0_equiv", "acc_lf1_equiv", "zm", "fdm", "acc_lf0_by_ratio")
METRICS_CLOSE = ("p_lf0_mean", "fim")  # exp(log(p)) is p to the last bit or two


def _same_metrics(model: dict, rec: dict) -> None:
    assert model["by_type"].keys() == rec["by_type"].keys()
    for t, m in model["by_type"].items():
        r = rec["by_type"][t]
        for k in METRICS_EXACT:
            if k in m:
                assert r[k] == m[k], (t, k)
        for k in METRICS_CLOSE:
            if k in m:
                assert r[k] == pytest.approx(m[k], rel=1e-9, abs=1e-12), (t, k)


def test_zeroshot_recorded_equals_the_model_run(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.zeroshot_items(["pp", "scope"], seed=0, limit=3, fmt="fol")
    swap = {"x": "y", "y": "x"}
    fake.servicer.parses = {it["prompt"]: [it["lf1"], re.sub(r"\b[xy]\b", lambda m: swap[m.group()], it["lf0"]),
                                           "not an LF ("] for it in items}
    args = ["amp-zeroshot", "--types", "pp,scope", "--limit", "3"]
    assert eval_main([*args, "--out", str(tmp_path / "m"), "--server", fake.address]) == 0
    model = json.loads((tmp_path / "m" / "summary.json").read_text())
    f = _as_file(_records(tmp_path / "m"), tmp_path / "p.jsonl")
    assert eval_main([*args, "--out", str(tmp_path / "r"), "--predictions", str(f)]) == 0
    rec = json.loads((tmp_path / "r" / "summary.json").read_text())
    _same_metrics(model, rec)
    assert rec["outputs"] == "recorded" and rec["model"] == "recorded: p.jsonl" and "absent" not in rec
    assert rec["items_without_predictions"] == 0 and rec["lines_without_items"] == []
    for fig in ("summary.md", "fig2_accuracy.png", "fig3_p_lf0.png", "fig4_tokens.html"):
        assert (tmp_path / "r" / fig).stat().st_size > 0
    assert "recorded predictions from" in (tmp_path / "r" / "summary.md").read_text()
    # named by utterance and type, without log-probabilities: the same accuracies, P(LF0) absent and why
    g = _as_file(_records(tmp_path / "m"), tmp_path / "q.jsonl", by_id=False, scores=False)
    assert eval_main([*args, "--out", str(tmp_path / "s"), "--predictions", str(g)]) == 0
    s = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert s["by_type"]["pp"]["zm"] == model["by_type"]["pp"]["zm"]
    assert s["absent"]["p_lf0"] == REC.NO_SCORES


def test_fewshot_recorded_equals_the_model_run(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.fewshot_items(["pp"], [0.0, 0.5, 1.0], seed=0, limit=2, fmt="fol")
    fake.servicer.parses = {it["prompt"]: [it["lf0"] if it["ratio"] >= 0.5 else it["lf1"]] for it in items}
    args = ["amp-fewshot", "--types", "pp", "--ratios", "0,0.5,1", "--limit", "2"]
    assert eval_main([*args, "--out", str(tmp_path / "m"), "--server", fake.address]) == 0
    model = json.loads((tmp_path / "m" / "summary.json").read_text())
    for by_id in (True, False):
        f = _as_file(_records(tmp_path / "m"), tmp_path / f"p{by_id}.jsonl", by_id=by_id)
        out = tmp_path / f"r{by_id}"
        assert eval_main([*args, "--out", str(out), "--predictions", str(f)]) == 0
        rec = json.loads((out / "summary.json").read_text())
        _same_metrics(model, rec)
        assert rec["by_type"]["pp"]["fdm"] == pytest.approx(1 / 3)
        assert (out / "fig6_lf0_vs_ratio.png").stat().st_size > 0
    g = _as_file(_records(tmp_path / "m"), tmp_path / "n.jsonl", scores=False)
    assert eval_main([*args, "--out", str(tmp_path / "n"), "--predictions", str(g)]) == 0
    n = json.loads((tmp_path / "n" / "summary.json").read_text())
    assert n["by_type"]["pp"]["fdm"] == pytest.approx(1 / 3) and n["by_type"]["pp"]["fim"] is None
    assert n["absent"] == {"fim": REC.NO_SCORES}  # FDM needs only the top-1 prediction


@pytest.mark.parametrize("line, message", [
    ({"predictions": []}, r"p.jsonl:1: name the item by 'id'"),
    ({"id": "a", "predictions": "x"}, r"p.jsonl:1: field 'predictions' must be a list"),
    ({"id": "a", "predictions": [3]}, r"p.jsonl:1: predictions\[0\] must be an LF string"),
    ({"id": "a", "predictions": [], "lf0_logprobs": [0.5]}, r"field 'lf0_logprobs' must be"),
    ({"id": "a", "predictions": [], "lf0_logprobs": [-1.0], "lf0_tokens": []}, r"'lf0_tokens' must be a list"),
])
def test_malformed_lines_name_line_and_field(tmp_path, line, message):
    (tmp_path / "p.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=message):
        REC.read(tmp_path / "p.jsonl")


def test_the_converter_reads_a_transformers_generation_loop(tmp_path, fake, monkeypatch):
    from ambit.client.eval.amp import convert

    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.zeroshot_items(["pp"], seed=0, limit=2, fmt="fol")
    # what the loop writes: the continuation after the prompt, running on into the next turn
    loop = [{"id": it["id"], "generations": [f" {it['lf0']}\nHuman: next", f" {it['lf0']}\n", "  ", f" {it['lf1']}"],
             "sequences_scores": [-0.1, -0.2, -0.3, -0.4]} for it in items]
    src = tmp_path / "gen.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in loop))
    assert convert.main([str(src), str(tmp_path / "p.jsonl")]) == 0
    first = json.loads((tmp_path / "p.jsonl").read_text().splitlines()[0])
    assert first["predictions"] == [{"lf": items[0]["lf0"], "score": -0.1}, {"lf": items[0]["lf1"], "score": -0.4}]
    assert eval_main(["amp-zeroshot", "--types", "pp", "--limit", "2", "--out", str(tmp_path / "r"),
                      "--predictions", str(tmp_path / "p.jsonl")]) == 0
    s = json.loads((tmp_path / "r" / "summary.json").read_text())["by_type"]["pp"]
    assert s["acc_lf0"] == 1.0 and s["zm"]["2"] == 1.0
    src.write_text(json.dumps({"id": "x", "generations": ["a"], "sequences_scores": [1, 2]}) + "\n")
    assert convert.main([str(src), str(tmp_path / "q.jsonl")]) == 2


def test_compare_sets_a_recorded_run_beside_the_model_run(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.zeroshot_items(["pp"], seed=0, limit=2, fmt="fol")
    fake.servicer.parses = {it["prompt"]: [it["lf1"], it["lf0"]] for it in items}
    args = ["amp-zeroshot", "--types", "pp", "--limit", "2"]
    assert eval_main([*args, "--out", str(tmp_path / "m"), "--server", fake.address]) == 0
    f = _as_file(_records(tmp_path / "m"), tmp_path / "p.jsonl")
    assert eval_main([*args, "--out", str(tmp_path / "r"), "--predictions", str(f)]) == 0
    assert eval_main(["compare", str(tmp_path / "m"), str(tmp_path / "r"), "--out", str(tmp_path / "c")]) == 0
    c = json.loads((tmp_path / "c" / "compare.json").read_text())
    labels = {r["label"] for r in c["runs"]}
    assert labels == {"fake-model [model run]", "recorded: p.jsonl"}
    assert c["amp-zeroshot"]["differences"]["outputs"] == {"fake-model [model run]": "model",
                                                           "recorded: p.jsonl": "recorded"}
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "fake-model [model run]" in md and "recorded: p.jsonl" in md
