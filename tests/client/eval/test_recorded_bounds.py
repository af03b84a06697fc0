"""Recorded translations are read within bounds (issue 45, attacks 6 and 8): a formula over
--max-chars is a failed sample that says so and is never echoed; a 20 MB line, a line nested too
deep, one with a 5,000-digit integer or with more than MAX_SAMPLES samples is set aside with its
number and the rest read; a FIFO or /dev/zero is one line, not a hang; bad UTF-8 names the line."""

from __future__ import annotations

import json
import os

import pytest

from ambit.client.eval.folio import recorded as REC


def _line(example_id: str, conclusion: str = "Man(John)", n: int = 1) -> str:
    sample = {"premises": ["Man(John)"], "conclusion": conclusion}
    return json.dumps({"example_id": example_id, "samples": [sample] * n})


def test_a_formula_over_max_chars_is_a_failed_sample_not_echoed(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text(_line("1", "P(" + "a" * 5000 + ")") + "\n" + _line("2") + "\n")
    rec = REC.read(f, max_chars=4096)
    bad = rec.examples["1"].samples[0]
    assert bad["premises"] is None and "5,003 characters, over --max-chars 4,096" in bad["error"]
    assert "aaaa" not in json.dumps(rec.examples["1"].samples)
    assert rec.examples["2"].samples[0]["conclusion"] == "Man(John)"
    assert REC.read(f, max_chars=6000).examples["1"].samples[0]["conclusion"].startswith("P(a")


def test_unbounded_lines_are_set_aside_by_number_and_the_rest_read(tmp_path, capsys):
    f = tmp_path / "t.jsonl"
    lines = [_line("1"),
             _line("2", "P(" + "b" * (20 * 2**20) + ")"),  # a 20 MB line: over the line cap
             '{"example_id": "3", "samples": ' + "[" * 3000 + "]" * 3000 + "}",
             '{"example_id": "4", "n": ' + "7" * 5000 + ', "samples": []}',
             _line("5", n=REC.MAX_SAMPLES + 1),
             _line("6")]
    f.write_text("\n".join(lines) + "\n")
    rec = REC.read(f)
    assert sorted(rec.examples) == ["1", "6"]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "4 line(s) set aside" in err[0]
    for n, why in [(2, "longer than"), (3, "JSON nested deeper"), (4, "an integer of 5,000 digits"), (5, f"{REC.MAX_SAMPLES + 1} samples, over {REC.MAX_SAMPLES}")]:
        assert f"line {n}: {why}" in err[0]
    assert "bbbb" not in err[0]


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder"])
def test_a_file_that_is_not_regular_is_one_line(tmp_path, kind):
    path = tmp_path / "t.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(ValueError) as err:
        REC.read(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    assert "no such file" not in str(err.value)


def test_bad_utf8_and_bad_json_name_the_file_and_line(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_bytes(_line("1").encode() + b"\n" + b'{"example_id": "\xff"}\n')
    with pytest.raises(ValueError, match=rf"{f}:2: not UTF-8"):
        REC.read(f)
    g = tmp_path / "l.json"
    g.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(ValueError, match=rf"{g}: line 1: JSON nested deeper"):
        REC.read(g)
