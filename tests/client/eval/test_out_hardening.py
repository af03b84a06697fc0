"""Nothing outside `--out` is written through it (issue 45, attack 2 and the bounds of 6 and 8):
`run.lock` as a link is refused, never truncated; planted `run.tmp`, `results.tmp` and
`summary.json.tmp` links are never written through; `results.jsonl` as a link, a FIFO or
`/dev/zero` is one line and exit 2; set-aside lines keep their file's mode; a line with a
5,000-digit integer, deep nesting or over the line cap is set aside and the rest kept; `--out` as
a file, a dangling link or under /proc is one line and exit 2; a `run.json` that is a JSON list is
one line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from ambit.client.eval import store as S
from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.store import LOCK, REJECTED, RESULTS, RUN_KEY, ResultsStore, RunMismatch, read_records
from ambit.client.testing import FakeAmbitServicer, FakeServer


@pytest.fixture
def server(monkeypatch, tmp_path):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))  # generated items, no data root needed
    srv = FakeServer(FakeAmbitServicer())
    yield srv
    srv.stop(0)


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text("precious\n")
    path.chmod(0o600)
    return path


def _eval(out: Path, server) -> int:
    return eval_main(["amp-zeroshot", "--out", str(out), "--server", server.address, "--types", "pp",
                      "--limit", "2"])


def _one_error_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in lines[0], lines
    return lines[0]


def test_a_linked_run_lock_is_refused_and_its_target_untouched(tmp_path, server, victim, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / LOCK).symlink_to(victim)
    assert _eval(out, server) == 2
    assert "run.lock is a symbolic link" in _one_error_line(capsys)
    assert victim.read_text() == "precious\n"


def test_planted_temporary_links_are_never_written_through(tmp_path, server, victim, capsys):
    out = tmp_path / "o"
    out.mkdir()
    for name in ("run.tmp", "results.tmp", "summary.json.tmp", "summary.md.tmp", "run.json.tmp"):
        (out / name).symlink_to(victim)
    assert _eval(out, server) == 0
    assert victim.read_text() == "precious\n" and len(read_records(out)) == 2
    assert not any(p.name.endswith(".tmp") and not p.is_symlink() for p in out.iterdir())


@pytest.mark.parametrize("kind", ["link", "fifo", "zero"])
def test_results_that_are_not_a_regular_file_are_one_line(tmp_path, server, victim, capsys, kind):
    out = tmp_path / "o"
    out.mkdir()
    results = out / RESULTS
    if kind == "link":
        victim.write_text('{"id": "secret"}\n')
        results.symlink_to(victim)
    elif kind == "fifo":
        os.mkfifo(results)
    else:
        results.symlink_to("/dev/zero")
    assert _eval(out, server) == 2
    assert f"{results}: " in _one_error_line(capsys)
    assert not (out / REJECTED).exists()


@pytest.mark.parametrize("where", ["file", "dangling", "proc"])
def test_out_that_cannot_be_a_folder_is_one_line(tmp_path, server, capsys, where):
    out = {"file": tmp_path / "f", "dangling": tmp_path / "d", "proc": Path("/proc/ambit-out")}[where]
    if where == "file":
        out.write_text("x")
    elif where == "dangling":
        out.symlink_to(tmp_path / "nowhere")
    assert _eval(out, server) == 2
    assert str(out) in _one_error_line(capsys)
    assert not (tmp_path / "nowhere").exists()


def test_rejected_lines_keep_the_mode_of_their_file(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / RESULTS).write_text('{"id": "a"}\nnot json\n{"id": "b"}\n')
    (out / RESULTS).chmod(0o600)
    with ResultsStore(out, {"k": 1}) as store:
        assert len(store) == 2
    assert stat.S_IMODE((out / REJECTED).stat().st_mode) == 0o600
    assert stat.S_IMODE((out / RESULTS).stat().st_mode) == 0o600


def test_bad_lines_are_set_aside_by_number_and_the_rest_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "MAX_LINE", 10_000)
    out = tmp_path / "o"
    out.mkdir()
    lines = ['{"id": "a"}', '{"id": "big", "n": ' + "9" * 5000 + "}", '{"id": "deep", "x": ' + "[" * 3000 + "]" * 3000 + "}",
             '{"id": "long", "x": "' + "y" * 20_000 + '"}', '{"id": "b"}']
    (out / RESULTS).write_text("\n".join(lines) + "\n")
    with ResultsStore(out, {"k": 1}) as store:
        assert sorted(r["id"] for r in store.records()) == ["a", "b"]
    rejected = [json.loads(x) for x in (out / REJECTED).read_text().splitlines()]
    assert [(r["line"], r["reason"].split(" (")[0]) for r in rejected] == [
        (2, "an integer of 5,000 digits"), (3, "JSON nested deeper than 64 levels"),
        (4, "longer than 10,000 bytes")]
    assert len(rejected[2]["text"]) <= 201  # the over-long line is not copied whole (200 bytes and its newline)


def test_a_run_json_that_is_a_list_is_one_line(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / RUN_KEY).write_text("[1, 2]\n")
    with ResultsStore(out, {"k": 1}) as store:  # no results: replaced, with a note
        store.append({"id": "a"})
    assert "not an object; replaced" in capsys.readouterr().err
    (out / RUN_KEY).write_text("[1, 2]\n")
    with pytest.raises(RunMismatch, match=r"run.json: a JSON list, not an object; its results cannot be matched"):
        ResultsStore(out, {"k": 1})
