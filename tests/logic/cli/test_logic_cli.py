"""`ambit logic canon` and `ambit logic check` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys


def run(args, stdin=""):
    return subprocess.run([sys.executable, "-m", "ambit", "logic", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_canon_keeps_line_order_and_reports_bad_lines():
    lines = [
        "exists y . exists e . man(y) AND saw(e) AND agent(e, y)",
        "exists x . man(x) AND",
        "forall z . exists w . tall(w) AND man(z)",
    ]
    r = run(["canon"], "\n".join(lines) + "\n")
    assert r.returncode == 2
    out = r.stdout.split("\n")
    assert out[0] == "exists x . exists a . agent(a, x) AND man(x) AND saw(a)"
    assert out[1] == ""
    assert out[2] == "forall x . exists y . man(x) AND tall(y)"
    assert "line 2:" in r.stderr and "dangling operator 'AND'" in r.stderr and "character 19" in r.stderr


def test_canon_converts_formats_and_var_modes():
    r = run(["canon", "--from", "lisp", "--to", "fol", "--vars", "v"], "( exists q ( man q ) )\n")
    assert r.returncode == 0 and r.stdout == "exists v0 . man(v0)\n"


def test_check_counts_and_shows_failures(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(
        json.dumps({"lf": "exists x . man(x)"}) + "\n" + json.dumps({"lf": "exists x . man(y)"}) + "\n" + "{oops\n" + json.dumps({"x": 1}) + "\n"
    )
    r = run(["check", str(path), "--field", "lf", "--format", "fol"])
    assert r.returncode == 2
    assert "parsed: 1  failed: 3" in r.stdout
    assert f"{path}:2: field 'lf': variable 'y' is used but never quantified" in r.stdout
    assert f"{path}:3: not JSON" in r.stdout and f"{path}:4: no field 'lf'" in r.stdout


def test_unknown_command():
    r = run(["frobnicate"])
    assert r.returncode == 2 and "unknown command" in r.stderr
