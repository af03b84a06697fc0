"""A recorded run says how much of it the file covers (issue 58): for each recorded input (AmP
`--predictions`, implicature `--responses`, FOLIO `--translations`, RADD `--solver responses`),
a file that matches nothing exits 2 naming the id shape expected and the one found, writing
nothing; a partial one writes its reports with the coverage in summary.md and summary.json,
says so in one line on stderr and exits 4 (0 with --allow-partial); a missing output is its own
category, never an unparseable one; accuracy over the items scored and over all items side by
side; `compare` shows the coverage. And every recorded file is read by the bounded reader: deep
JSON, a huge integer, a bad field, a lone surrogate, a deep id or an over-long n-best list is one
line naming the file and line, and leaves no --out behind (issue 56, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit.client.eval import metrics as M
from ambit.client.eval.amp import recorded as AREC
from ambit.client.eval.amp import suite as amp
from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.implicature import recorded as IREC
from tests.paths import SHARED_DATA as DATA

needs_implicature = pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
needs_radd = pytest.mark.skipif(not (DATA / "radd" / "benchmark").exists(), reason="no RADD benchmark")
ZS = ["amp-zeroshot", "--types", "pp,scope", "--limit", "2"]


@pytest.fixture()
def generated(tmp_path, monkeypatch):
    """AmP items generated in the checkout (no data root), as the run makes them."""
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    return amp.zeroshot_items(["pp", "scope"], seed=0, limit=2, fmt="fol")


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


# --------------------------------------------------------------------------- the coverage figures


def test_coverage_counts_and_id_shapes():
    cov = M.coverage(["pp/x-00001", "pp/x-00002", "scope/x-00001"], 2, ["17", "18", "pp-1"], "or by text")
    assert cov["items"] == 3 and cov["scored"] == 2 and cov["missing"] == 1 and cov["unmatched_lines"] == 3
    assert cov["expected_id_shapes"] == ["pp/x-N", "scope/x-N"] and cov["found_id_shapes"] == ["N", "pp-N"]
    recs = [{"recorded": True, "ok": True}, {"recorded": True, "ok": False}, {"recorded": False, "ok": False}]
    acc = M.coverage_accuracy(cov, recs, lambda r: r["ok"], "right")
    assert acc["accuracy_scored"] == 0.5 and acc["accuracy_all"] == pytest.approx(1 / 3)


# --------------------------------------------------------------------------- AmP --predictions


def test_amp_predictions_that_match_nothing_exit_2_and_write_nothing(tmp_path, generated, capsys):
    f = _write(tmp_path / "p.jsonl", [{"id": "item-17", "predictions": ["exists x . man(x)"]}])
    out = tmp_path / "o"
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "none of its lines matches an item of this run (4 items)" in err
    assert "'pp/amp-zeroshot-pp-N'" in err and "shaped like 'item-N'" in err and "(e.g. 'item-17')" in err
    assert not out.exists()  # no folder holding only run.lock
    out.mkdir()  # an --out that was there is left as it was found
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(out), "--allow-partial"]) == 2
    assert out.is_dir() and [p.name for p in out.iterdir()] == ["run.lock"]


def test_amp_partial_predictions_report_their_coverage(tmp_path, generated, capsys):
    right = generated[0]
    f = _write(tmp_path / "p.jsonl", [{"id": right["id"], "predictions": [right["lf1"]]},
                                      {"id": generated[1]["id"], "predictions": ["not an LF ("]},
                                      {"id": "stray-1", "predictions": []}])
    out = tmp_path / "o"
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(out)]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    line = next(x for x in err if "cover 2 of 4 items" in x)
    assert "2 without a recorded output" in line and "'stray-1'" in line
    assert "50.0% over the 2 scored, 25.0% over all 4" in line and "--allow-partial" in line
    s = _summary(out)
    cov = s["coverage"]
    assert (cov["items"], cov["scored"], cov["missing"], cov["unmatched_lines"]) == (4, 2, 2, 1)
    assert cov["unmatched_ids"] == ["stray-1"] and cov["accuracy_scored"] == 0.5 and cov["accuracy_all"] == 0.25
    by = s["by_type"]
    # missing is its own category: the one unparsable top-1 is the recorded bad LF, not the items without a line
    assert sum(v["unparsed_top1"] for v in by.values()) == 1 and sum(v["missing"] for v in by.values()) == 2
    md = (out / "summary.md").read_text()
    assert md.index("## Coverage of the recorded predictions") < md.index("## Accuracy (Fig. 2)")
    assert "| 4 | 2 | 2 | 1 | 50.0 | 25.0 |" in md and "**Partial coverage**" in md
    assert "has no line for (counted as wrong, never as unparsed): pp 0/2, scope 2/2" in md
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(tmp_path / "ok"), "--allow-partial"]) == 0
    assert "warning: amp-zeroshot: recorded predictions cover 2 of 4" in capsys.readouterr().err


def test_amp_full_coverage_prints_its_line_without_a_warning(tmp_path, generated, capsys):
    f = _write(tmp_path / "p.jsonl", [{"id": it["id"], "predictions": [it["lf0"]]} for it in generated])
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "amp-zeroshot: recorded predictions cover 4 of 4 items; accuracy" in err and "warning" not in err
    assert "100.0% over the 4 scored, 100.0% over all 4" in err


def test_amp_fewshot_partial_coverage(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    items = amp.fewshot_items(["pp"], [0.0, 1.0], 0, 1, "fol")
    f = _write(tmp_path / "p.jsonl", [{"utterance": items[0]["surface"], "type": "pp", "ratio": 0.0,
                                       "predictions": [items[0]["lf0"]]}])
    args = ["amp-fewshot", "--types", "pp", "--ratios", "0,1", "--limit", "1", "--predictions", str(f)]
    assert eval_main([*args, "--out", str(tmp_path / "o")]) == 4
    assert _summary(tmp_path / "o")["coverage"]["scored"] == 1


def test_a_recorded_run_without_scores_shows_no_mean_p_lf0(tmp_path, generated):
    """A file that scores the gold LFs on some lines only: P(LF0) is n/a for the run, in its
    table as in its protocol line (not a mean over the lines that happen to give scores)."""
    rows = [{"id": it["id"], "predictions": [it["lf0"]]} for it in generated]
    rows[0].update(lf0_logprobs=[-0.1], lf1_logprobs=[-2.0])
    f = _write(tmp_path / "p.jsonl", rows)
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(tmp_path / "o")]) == 0
    s = _summary(tmp_path / "o")
    assert "p_lf0" in s["absent"] and all(v["p_lf0_mean"] is None for v in s["by_type"].values())
    md = (tmp_path / "o" / "summary.md").read_text()
    assert "| pp | 2 | 100.0 | 0.0 | 100.0 | 0.0 | n/a |" in md


# --------------------------------------------------------------------------- implicature --responses


@needs_implicature
def test_implicature_responses_coverage_and_missing_apart_from_unparseable(tmp_path, capsys):
    from ambit.client.eval.implicature.suite import items

    its = items(DATA / "implicature", [0], [1], 0, 3, "alignment_prompt_templates.csv")
    args = ["implicature", "--k", "0", "--templates", "1", "--limit", "3"]
    nothing = _write(tmp_path / "n.jsonl", [{"id": "ex-1", "reply": "yes"}])
    assert eval_main([*args, "--responses", str(nothing), "--out", str(tmp_path / "n")]) == 2
    err = capsys.readouterr().err
    assert "'test-N/tN/kN'" in err and "shaped like 'ex-N'" in err and not (tmp_path / "n").exists()
    f = _write(tmp_path / "r.jsonl", [{"id": its[0]["id"], "reply": "Hmm, maybe."}])
    assert eval_main([*args, "--responses", str(f), "--out", str(tmp_path / "o"), "--allow-partial"]) == 0
    s = _summary(tmp_path / "o")
    assert s["by_k"]["0"]["unparseable"] == 1 and s["by_k"]["0"]["missing"] == 2
    assert (s["coverage"]["scored"], s["coverage"]["missing"]) == (1, 2)
    md = (tmp_path / "o" / "summary.md").read_text()
    assert "## Coverage of the recorded answers" in md and "| no recorded answer |" in md


@needs_implicature
def test_implicature_log_likelihoods_covering_a_sixth_say_so(tmp_path, capsys):
    """The case of the issue: a log-prob file that covers 3 of 18 answers."""
    from ambit.client.eval.implicature.suite import items

    its = items(DATA / "implicature", [0], [1, 2, 3, 4, 5, 6], 0, 3)
    assert len(its) == 18
    f = _write(tmp_path / "r.jsonl", [{"id": it["id"], f"logprob_{it['label']}": -0.1,
                                       f"logprob_{'no' if it['label'] == 'yes' else 'yes'}": -2.0} for it in its[:3]])
    assert eval_main(["implicature", "--k", "0", "--limit", "3", "--responses", str(f),
                      "--out", str(tmp_path / "o")]) == 4
    assert "cover 3 of 18 items (15 without a recorded output" in capsys.readouterr().err
    cov = _summary(tmp_path / "o")["coverage"]
    assert cov["accuracy_scored"] == 1.0 and cov["accuracy_all"] == pytest.approx(3 / 18)


# --------------------------------------------------------------------------- RADD --solver responses


@needs_radd
def test_radd_rows_without_a_recorded_reply_are_missing_not_neither(tmp_path, capsys):
    src = sorted((DATA / "radd" / "benchmark" / "chatgpt").glob("*_results_direct.jsonl"))[0]
    rows = [json.loads(x) for x in src.read_text().splitlines()[:4]]
    for r in rows[:2]:
        r.pop("results", None), r.pop("responses", None)
    root = tmp_path / "b" / "chatgpt"
    root.mkdir(parents=True)
    _write(root / src.name, rows)
    args = ["radd", "--solver", "responses", "--source", "benchmark", "--data", str(tmp_path / "b")]
    assert eval_main([*args, "--out", str(tmp_path / "o")]) == 4
    assert "recorded replies cover 2 of 4 items (2 without a recorded output" in capsys.readouterr().err
    s = _summary(tmp_path / "o")
    assert s["n"] == 2 and s["neither"] == 0 and s["coverage"]["missing"] == 2
    assert "## Coverage of the recorded replies" in (tmp_path / "o" / "summary.md").read_text()
    _write(root / src.name, rows[:2])
    assert eval_main([*args, "--out", str(tmp_path / "n")]) == 2
    assert "none of the 2 benchmark rows read" in capsys.readouterr().err and not (tmp_path / "n").exists()


# --------------------------------------------------------------------------- compare


def test_compare_shows_each_recorded_runs_coverage(tmp_path, generated, capsys):
    f = _write(tmp_path / "p.jsonl", [{"id": generated[0]["id"], "predictions": [generated[0]["lf0"]]}])
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(tmp_path / "r"), "--allow-partial"]) == 0
    assert eval_main(["compare", str(tmp_path / "r"), "--out", str(tmp_path / "c"), "--label", "r=sys"]) == 0
    assert "warning: sys: recorded predictions cover 1 of 4 items" in capsys.readouterr().err
    c = json.loads((tmp_path / "c" / "compare.json").read_text())
    assert c["amp-zeroshot"]["coverage"]["sys"]["scored"] == 1
    assert "| sys | 4 | 1 | 3 | 0 | 100.0 | 25.0 |" in (tmp_path / "c" / "compare.md").read_text()


# --------------------------------------------------------------------------- the bounded reader


BAD_LINES = [
    ("deep", '{"id": "a", "predictions": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON nested deeper than"),
    ("integer", '{"id": "a", "n": ' + "7" * 5000 + ', "predictions": []}', "an integer of 5,000 digits"),
    ("surrogate", '{"id": "a\\ud800", "predictions": []}', "a lone surrogate"),
    ("deep id", '{"id": ' + "[" * 5000 + "]" * 5000 + ', "predictions": []}', "JSON nested deeper than"),
]


@pytest.mark.parametrize("case, line, why", BAD_LINES, ids=[c[0] for c in BAD_LINES])
@pytest.mark.parametrize("reader", ["amp", "implicature"])
def test_recorded_files_name_file_and_line(tmp_path, case, line, why, reader):
    if reader == "implicature":
        line = line.replace('"predictions": ', '"logprob_yes": -1, "logprob_no": -2, "x": ')
    f = _write(tmp_path / "r.jsonl", ['{"id": "first", "predictions": [], "logprob_yes": -1, "logprob_no": -1}', line])
    with pytest.raises(ValueError) as err:
        (AREC if reader == "amp" else IREC).read(f)
    assert str(err.value).startswith(f"{f}") and "line 2" in str(err.value).replace(":2:", "line 2")
    assert why in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("row, message", [
    ({"type": "pp", "utterance": "u", "ratio": "abc", "predictions": []}, r"p.jsonl:1: field 'ratio' must be a number"),
    ({"id": {"a": 1}, "predictions": []}, r"p.jsonl:1: field 'id' must be a string"),
    ({"id": "a", "predictions": ["x"] * (AREC.MAX_PREDICTIONS + 1)},
     rf"p.jsonl:1: field 'predictions' holds {AREC.MAX_PREDICTIONS + 1} predictions; at most"),
    ({"id": "a", "predictions": [], "lf0_logprobs": [-1.0], "lf0_tokens": [3]}, r"field 'lf0_tokens' must be a list of"),
])
def test_amp_fields_are_checked_with_file_and_line(tmp_path, row, message):
    with pytest.raises(ValueError, match=message):
        AREC.read(_write(tmp_path / "p.jsonl", [row]))


def test_a_long_n_best_list_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """100,000 predictions: refused by their count, none of them read as an LF."""
    f = _write(tmp_path / "p.jsonl", [{"id": "a", "predictions": ["exists x . man(x)"] * 100_000}])
    seen = []
    monkeypatch.setattr(AREC, "_prediction", lambda p, where: seen.append(p))
    with pytest.raises(ValueError, match="100,000 predictions"):
        AREC.read(f)
    assert seen == []


@pytest.mark.parametrize("line", [BAD_LINES[0][1], BAD_LINES[3][1],
                                  '{"type": "pp", "utterance": "u", "ratio": "abc", "predictions": []}'])
def test_a_bad_predictions_file_leaves_no_out_folder(tmp_path, generated, capsys, line):
    f = _write(tmp_path / "p.jsonl", [line])
    assert eval_main([*ZS, "--predictions", str(f), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {f}") and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_implicature_fields_are_checked_with_file_and_line(tmp_path):
    for row, message in [({"example_id": "a", "template": "1x", "k": 0, "reply": "y"}, "field 'template' must be"),
                         ({"id": True, "reply": "y"}, "field 'id' must be a string"),
                         ({"id": "a", "logprob_yes": "abc", "logprob_no": -1}, "field 'logprob_yes' is \"abc\"")]:
        with pytest.raises(ValueError, match=f"r.jsonl:1: .*{message}"):
            IREC.read(_write(tmp_path / "r.jsonl", [row]))
