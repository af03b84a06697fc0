"""`ambit logic check|canon` at its edges: an input with no rows, a string in the other
format, an LF over --max-chars (default: the server's limit)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from ambit.logic.__main__ import DEFAULT_MAX_CHARS, main
from ambit.server.guard.limits import Limits

FOL = "exists x . man(x)"
LISP = "( exists x ( man x ) )"


def _jsonl(tmp_path, *lfs: str):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps({"lf": lf}) + "\n" for lf in lfs))
    return str(path)


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_check_on_no_rows_says_so_and_exits_1(tmp_path, capsys, content):
    path = tmp_path / "empty.jsonl"
    path.write_text(content)
    assert main(["check", str(path)]) == 1
    assert "no rows to check" in capsys.readouterr().err


@pytest.mark.parametrize("text,given,right", [(FOL, "lisp", "fol"), (LISP, "fol", "lisp")])
def test_check_names_the_format_a_string_parses_in(tmp_path, capsys, text, given, right):
    assert main(["check", _jsonl(tmp_path, text), "--format", given]) == 2
    name = {"fol": "FOL", "lisp": "Lisp"}[right]
    assert f"this looks like {name}: pass --format {right}" in capsys.readouterr().out


def test_check_gives_no_format_hint_for_text_that_is_neither(tmp_path, capsys):
    assert main(["check", _jsonl(tmp_path, "exists x . man(x"), "--format", "fol"]) == 2
    assert "this looks like" not in capsys.readouterr().out


def test_canon_names_the_format_a_line_parses_in(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(LISP + "\n"))
    assert main(["canon", "--from", "fol"]) == 2
    assert "this looks like Lisp: pass --from lisp" in capsys.readouterr().err


def test_max_chars_defaults_to_the_server_limit_and_is_enforced(tmp_path, capsys):
    assert DEFAULT_MAX_CHARS == Limits().max_lf_chars
    long = "exists x . " + " AND ".join(["man(x)"] * 700)  # over 4,096 characters
    assert len(long) > DEFAULT_MAX_CHARS
    assert main(["check", _jsonl(tmp_path, long, FOL)]) == 2
    out = capsys.readouterr().out
    assert "parsed: 1  failed: 1" in out and f"over --max-chars {DEFAULT_MAX_CHARS}" in out
    assert main(["check", _jsonl(tmp_path, long), "--max-chars", str(len(long))]) == 0
    with pytest.raises(SystemExit):
        main(["check", _jsonl(tmp_path, FOL), "--max-chars", "0"])
