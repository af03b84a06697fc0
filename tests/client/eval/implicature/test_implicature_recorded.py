"""Implicature from recorded answers (`--responses FILE`): log-likelihoods that are a model run's
own give its table; replies are read as the paper's code reads them; `n` counts examples;
items without a line count as wrong and are counted; malformed lines are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.implicature import recorded as REC
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import SHARED_DATA as DATA

needs_data = pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
ARGS = ["implicature", "--k", "0,1", "--limit", "3"]


@pytest.fixture()
def fake():
    srv = FakeServer(FakeAmbitServicer())
    yield srv
    srv.stop(0)


def _records(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


@needs_data
def test_recorded_log_likelihoods_give_the_model_runs_table(tmp_path, fake):
    assert eval_main([*ARGS, "--templates", "1,2", "--out", str(tmp_path / "m"), "--server", fake.address]) == 0
    model = json.loads((tmp_path / "m" / "summary.json").read_text())
    lines = []
    for r in _records(tmp_path / "m"):
        other = "no" if r["label"] == "yes" else "yes"
        lines.append({"example_id": r["example_id"], "template": int(r["template"]), "k": int(r["k"]),
                      f"logprob_{r['label']}": r["logprob_coherent"], f"logprob_{other}": r["logprob_incoherent"]})
    f = tmp_path / "resp.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert eval_main([*ARGS, "--templates", "1,2", "--out", str(tmp_path / "r"), "--responses", str(f)]) == 0
    rec = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert all(v.pop("missing") == 0 for v in rec["by_k"].values())  # a recorded run counts its missing answers
    assert rec["by_k"] == model["by_k"] and rec["per_class"] == model["per_class"]
    assert rec["by_type"] == model["by_type"]
    assert rec["outputs"] == "recorded" and rec["model"] == "recorded: resp.jsonl" and rec["protocol"] == "score"
    assert rec["items_without_responses"] == 0 and all(v["n"] == 3 for v in rec["by_k"].values())
    assert (tmp_path / "r" / "accuracy_vs_k.png").stat().st_size > 0
    assert rec["coverage"]["scored"] == rec["coverage"]["items"] == len(lines) and rec["coverage"]["missing"] == 0
    # a missing line counts as wrong, and is counted apart; the partial file is accepted on purpose
    f.write_text("".join(json.dumps(x) + "\n" for x in lines[1:]))
    assert eval_main([*ARGS, "--templates", "1,2", "--out", str(tmp_path / "s"), "--responses", str(f),
                      "--allow-partial"]) == 0
    s = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert s["items_without_responses"] == 1 and s["coverage"]["missing"] == 1
    assert sum(v["missing"] for v in s["by_k"].values()) == 1


@needs_data
def test_recorded_replies_are_read_as_the_paper_reads_them(tmp_path):
    from ambit.client.eval.implicature.suite import items

    its = items(DATA / "implicature", [0], [1], 0, 4, "alignment_prompt_templates.csv")
    replies = ["Final answer: " + its[0]["label"], "Hmm, hard to say, maybe.", f"The answer is {it_label(its[2])}", "yes and no"]
    f = tmp_path / "r.jsonl"
    f.write_text("".join(json.dumps({"id": it["id"], "reply": rp}) + "\n" for it, rp in zip(its, replies)))
    assert eval_main(["implicature", "--k", "0", "--templates", "1", "--limit", "4", "--out", str(tmp_path / "o"),
                      "--responses", str(f)]) == 0
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    recs = _records(tmp_path / "o")
    assert s["protocol"] == "generate" and s["by_k"]["0"]["n"] == 4
    assert [r["valid"] for r in recs] == [True, False, True, True]
    assert recs[0]["correct"] and not recs[1]["correct"] and recs[3]["predicted"] == "both"
    assert s["by_k"]["0"]["unparseable"] == 1


def it_label(item: dict) -> str:
    return "no" if item["label"] == "yes" else "yes"


@pytest.mark.parametrize("lines, message", [
    ([{"reply": "yes"}], r"r.jsonl:1: name the item by 'id'"),
    ([{"id": "a", "logprob_yes": -1}], r"r.jsonl:1: give 'reply', or both 'logprob_yes' and 'logprob_no'"),
    ([{"id": "a", "logprob_yes": 0.5, "logprob_no": -1}], r"field 'logprob_yes' is 0.5"),
    ([{"id": "a", "reply": 3}], r"field 'reply' must be a string"),
    ([{"id": "a", "reply": "yes"}, {"id": "b", "logprob_yes": -1, "logprob_no": -2}], r"one kind of answer"),
    ([{"id": "a", "reply": "yes"}, {"id": "a", "reply": "no"}], r"r.jsonl:2: item 'a' again"),
])
def test_malformed_lines_name_line_and_field(tmp_path, lines, message):
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(ValueError, match=message):
        REC.read(tmp_path / "r.jsonl")
