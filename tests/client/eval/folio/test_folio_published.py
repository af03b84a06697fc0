"""FOLIO's published files as published: the three shapes (v0.0 with ids, v0.0 validation without
ids, v2 with newline-separated premises), ids and stories where they are absent, the shape in
run.json, and the oracle's label accuracy equal to the audit's, also where a line's NL and FOL
premise counts differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit.client.eval import cli
from ambit.client.eval.folio import data as D
from ambit.generators.folio import stories


def _write(root: Path, split: str, rows: list[dict]) -> Path:
    (root / "folio").mkdir(parents=True, exist_ok=True)
    path = D.split_path(root, split)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _no_ids(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("story_id", "example_id", "label_noise")} for r in rows]


def _v2(rows: list[dict]) -> list[dict]:
    return [{**r, "premises": "\n".join(r["premises"]), "premises-FOL": "\n".join(r["premises-FOL"])} for r in rows]


def _merge_two_formulas(row: dict) -> dict:
    """The same story with its first two FOL premises written as one conjunction: as many
    formulas as before minus one, the meaning (and so the label) unchanged."""
    f = row["premises-FOL"]
    return {**row, "premises-FOL": [f"({f[0]}) ∧ ({f[1]})", *f[2:]]}


def test_the_three_shapes_read_to_the_same_stories(tmp_path):
    rows = stories(9, seed=3)
    v0 = D.read_split_shaped(_write(tmp_path, "a", rows))
    no_ids = D.read_split_shaped(_write(tmp_path, "b", _no_ids(rows)))
    v2 = D.read_split_shaped(_write(tmp_path, "c", _v2(rows)))
    assert (v0[1], no_ids[1], v2[1]) == ("v0.0", "v0.0-no-ids", "v2")
    assert D.split_shape(D.split_path(tmp_path, "c")) == "v2"
    for a, b in zip(v0[0], v2[0]):
        assert a == b
    for i, (a, b) in enumerate(zip(v0[0], no_ids[0])):
        assert (b.premises, b.premises_fol, b.conclusion, b.conclusion_fol, b.label) == \
               (a.premises, a.premises_fol, a.conclusion, a.conclusion_fol, a.label)
        assert b.id == str(i)  # the 0-based line number


def test_without_ids_stories_group_by_identical_premises_and_blank_lines_keep_line_numbers(tmp_path):
    rows = _no_ids(stories(12, seed=4))
    path = _write(tmp_path, "v", rows)
    path.write_text(path.read_text().replace("\n", "\n\n", 1))  # a blank second line
    got = D.read_split(path)
    assert [s.id for s in got] == ["0", *[str(i + 2) for i in range(len(rows) - 1)]]
    premises = list(dict.fromkeys(tuple(r["premises"]) for r in rows))
    assert [s.story_id for s in got] == [str(premises.index(tuple(r["premises"]))) for r in rows]
    assert len({s.story_id for s in got}) == len(premises) < len(rows)


def test_a_line_of_another_shape_is_an_error_naming_the_line(tmp_path):
    rows = stories(3, seed=1)
    path = _write(tmp_path, "m", [rows[0], *_v2(rows[1:])])
    with pytest.raises(ValueError, match=r"folio-m.jsonl:2: a v2 line in a v0.0 file"):
        D.read_split(path)
    path = _write(tmp_path, "m", [{**rows[0], "premises": 3}])
    with pytest.raises(ValueError, match=r":1: field 'premises' must be a list of strings or one newline"):
        D.read_split(path)


def test_oracle_equals_audit_on_a_file_without_ids_with_unequal_premise_counts(tmp_path):
    rows = stories(40, seed=6, noise=0.2)
    merged = {i for i in range(0, len(rows), 5) if len(rows[i]["premises-FOL"]) >= 2}
    rows = [_merge_two_formulas(r) if i in merged else r for i, r in enumerate(rows)]
    rows[3] = {**rows[3], "premises-FOL": [rows[3]["premises-FOL"][0] + ")", *rows[3]["premises-FOL"][1:]]}
    root = tmp_path / "data"
    _write(root, "dev", _no_ids(rows))
    out = {}
    for flag in ("--audit-gold", "--oracle-translations"):
        o = tmp_path / flag.strip("-")
        assert cli.main(["folio", "--split", "dev", "--data", str(root), "--out", str(o), flag]) == 0
        out[flag] = (json.loads((o / "summary.json").read_text()), json.loads((o / "run.json").read_text()), o)
    audit, oracle = out["--audit-gold"][0], out["--oracle-translations"][0]
    assert 0 < audit["label_accuracy"] < 1
    assert oracle["label_accuracy"] == audit["label_accuracy"] == audit["audit"]["label_accuracy"]
    assert oracle["labelled_samples"] == len(rows) and oracle["left_out"]["examples"] == 0
    # the merged lines' formulas are unpaired (counts differ, nothing to pair them by), and counted
    assert oracle["pairing"]["unpaired"] == sum(len(rows[i]["premises-FOL"]) for i in merged)
    assert oracle["pairing"]["order"] == sum(len(r["premises"]) for i, r in enumerate(rows) if i not in merged)
    assert out["--audit-gold"][1]["data_shape"] == out["--oracle-translations"][1]["data_shape"] == "v0.0-no-ids"
    assert oracle["data_shape"] == "v0.0-no-ids" and oracle["examples"] == len(rows)
    md = (out["--oracle-translations"][2] / "summary.md").read_text()
    assert f"{len(rows)} examples from {oracle['story_count']} stories" in md and "v0.0-no-ids" in md


def test_a_v2_file_runs_end_to_end(tmp_path):
    rows = stories(6, seed=8)
    root = tmp_path / "data"
    _write(root, "v2", _v2(rows))
    o = tmp_path / "o"
    assert cli.main(["folio", "--split", "v2", "--data", str(root), "--out", str(o), "--oracle-translations"]) == 0
    s = json.loads((o / "summary.json").read_text())
    assert s["data_shape"] == "v2" and s["label_accuracy"] == 1.0 and s["pairing"]["unpaired"] == 0
    assert {r["id"] for r in map(json.loads, (o / "results.jsonl").read_text().splitlines())} == \
           {str(r["example_id"]) for r in rows}


@pytest.mark.slow
def test_published_validation_file_oracle_equals_audit(tmp_path):
    """FOLIO's own v0.0 validation file (204 examples, no ids), when $AMBIT_FOLIO_DIR holds it
    (a checkout of github.com/Yale-LILY/FOLIO, or a folder with folio/folio-validation.jsonl)."""
    import os

    base = os.environ.get("AMBIT_FOLIO_DIR")
    if not base:
        pytest.skip("set AMBIT_FOLIO_DIR to a FOLIO checkout (data/v0.0/folio-validation.jsonl) to run this")
    src = next((p for p in (Path(base) / "data" / "v0.0" / "folio-validation.jsonl",
                            Path(base) / "folio" / "folio-validation.jsonl") if p.exists()), None)
    if src is None:
        pytest.skip(f"no folio-validation.jsonl under {base}")
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True)
    (root / "folio" / "folio-validation.jsonl").write_bytes(src.read_bytes())
    got = {}
    for flag in ("--audit-gold", "--oracle-translations"):
        o = tmp_path / flag.strip("-")
        assert cli.main(["folio", "--split", "validation", "--data", str(root), "--out", str(o), flag]) == 0
        got[flag] = json.loads((o / "summary.json").read_text())
    assert got["--audit-gold"]["examples"] == 204 and got["--audit-gold"]["story_count"] == 73
    assert got["--oracle-translations"]["label_accuracy"] == got["--audit-gold"]["label_accuracy"]
