"""The results folder holds against the ways it broke (issue 37, cases 7-9): two runs into one
``--out`` (real concurrent processes: one is refused at once, naming the other's pid), a damaged
line in the middle of ``results.jsonl`` (moved aside with its line number, the good lines after it
kept), and a run that failed before its first result (it does not block the corrected rerun)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import grpc
import pytest

from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.runner import run_items
from ambit.client.eval.store import LOCK, REJECTED, FolderBusy, FolderLock, ResultsStore, RunMismatch, read_records
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import REPO


def _eval(out: Path, address: str, limit: int = 3) -> list[str]:
    return [sys.executable, "-m", "ambit", "eval", "amp-zeroshot", "--out", str(out), "--server", address,
            "--types", "pp", "--limit", str(limit)]


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "AMBIT_DATA": str(tmp_path / "no-data")}  # generated items, no data root needed


def _result_ids(out: Path) -> list[str]:
    return [json.loads(x)["id"] for x in (out / "results.jsonl").read_text().splitlines()]


# ---------------------------------------------------------------------------- one writer per folder

def test_a_second_eval_run_into_a_busy_folder_is_refused_at_once_naming_the_pid(tmp_path):
    srv = FakeServer(FakeAmbitServicer(delay=2.0))  # slow until the second run has been refused
    try:
        out = tmp_path / "o"
        first = subprocess.Popen(_eval(out, srv.address), cwd=REPO, env=_env(tmp_path),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (out / "results.jsonl").exists():
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()[1]
        assert (out / LOCK).read_text().strip() == str(first.pid)
        t0 = time.monotonic()
        second = subprocess.run(_eval(out, srv.address), cwd=REPO, env=_env(tmp_path),
                                capture_output=True, text=True, timeout=60)
        refused_in = time.monotonic() - t0
        assert second.returncode == 2, second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pid {first.pid}" in lines[0] and str(out) in lines[0], lines
        assert first.poll() is None, f"the refusal came after the first run ended ({refused_in:.1f}s)"
        srv.servicer.delay = 0.0
        assert first.wait(timeout=120) == 0, first.stderr.read()
        ids = _result_ids(out)
        assert len(ids) == len(set(ids)) == 3  # one record per item: nothing was written twice
    finally:
        srv.stop(0)


def test_two_eval_runs_started_together_one_is_accepted(tmp_path):
    srv = FakeServer(FakeAmbitServicer(delay=0.1))
    try:
        out = tmp_path / "o"
        procs = [subprocess.Popen(_eval(out, srv.address, limit), cwd=REPO, env=_env(tmp_path),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                 for limit in (3, 4)]  # different arguments
        codes = sorted(p.wait(timeout=120) for p in procs)
        errs = [p.stderr.read() for p in procs]
        assert codes == [0, 2], errs
        ids = _result_ids(out)
        key = json.loads((out / "run.json").read_text())
        assert len(ids) == len(set(ids)) == key["limit"]  # the records are the accepted run's, alone
    finally:
        srv.stop(0)


_CONTENDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from ambit.client.eval.store import FolderBusy, ResultsStore, RunMismatch
    root, who, t0, rounds = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    for r in range(rounds):
        time.sleep(max(0.0, t0 + 0.1 * r - time.time()))
        try:
            with ResultsStore(root / str(r), {"who": who}) as s:
                s.append({"id": who, "who": who})
            print("ok", flush=True)
        except FolderBusy:
            print("busy", flush=True)
        except RunMismatch:
            print("mismatch", flush=True)
""")


@pytest.mark.parametrize("same_arguments", [False, True])
def test_synchronised_starts_never_accept_two_writers(tmp_path, same_arguments):
    """Two processes open the same folders at the same instants, 20 times: each time exactly one
    writes (with different arguments the other is refused, busy or mismatched; with the same
    arguments the later one may resume, after the first has finished, and writes nothing new)."""
    rounds = 20
    t0 = time.time() + 2.0  # both interpreters are up by then
    names = ["a", "a"] if same_arguments else ["a", "b"]
    procs = [subprocess.Popen([sys.executable, "-c", _CONTENDER, str(tmp_path), who, str(t0), str(rounds)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for who in names]
    outs = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=60)
        assert p.returncode == 0, stderr
        outs.append(stdout.split())
    assert all(len(o) == rounds for o in outs)
    for r in range(rounds):
        got = sorted(o[r] for o in outs)
        records = read_records(tmp_path / str(r))
        key = json.loads((tmp_path / str(r) / "run.json").read_text())
        assert len(records) == 1 and records[0]["who"] == key["who"], (r, got)
        if same_arguments:
            assert got in (["busy", "ok"], ["ok", "ok"]), (r, got)
        else:
            assert got in (["busy", "ok"], ["mismatch", "ok"]), (r, got)


def test_the_lock_is_reentrant_in_one_process_and_released_on_close(tmp_path):
    with FolderLock(tmp_path):
        with ResultsStore(tmp_path, {"k": 1}) as s:  # the eval command holds it, the store takes it again
            s.append({"id": "a"})
    held = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from ambit.client.eval.store import FolderLock
        with FolderLock({str(tmp_path)!r}):
            print("held", flush=True)
            time.sleep(30)
        """)], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert held.stdout.readline().strip() == "held"
        with pytest.raises(FolderBusy, match=f"pid {held.pid}"):
            ResultsStore(tmp_path, {"k": 1})
    finally:
        held.kill()
        held.wait()
    with ResultsStore(tmp_path, {"k": 1}) as s:  # a killed holder leaves no stale lock behind
        assert "a" in s


# ---------------------------------------------------------------------------- damaged lines

def test_a_corrupt_line_in_the_middle_is_moved_aside_and_the_rest_kept(tmp_path, capfd):
    with ResultsStore(tmp_path, {"k": 1}) as s:
        for n in range(240):
            s.append({"id": f"i{n:03d}", "x": n})
    lines = (tmp_path / "results.jsonl").read_bytes().splitlines(keepends=True)
    bad = {100: b'{"id": "i099", "x\x00\xff\xfe garbage\n', 150: b"[1, 2, 3]\n"}  # line numbers, 1-based
    for lineno, raw in bad.items():
        lines[lineno - 1] = raw
    (tmp_path / "results.jsonl").write_bytes(b"".join(lines))
    capfd.readouterr()

    with ResultsStore(tmp_path, {"k": 1}) as s:
        assert len(s) == 238 and "i099" not in s and "i149" not in s and "i239" in s
        err = capfd.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "line 100, 150" in err[0] and REJECTED in err[0], err
        calls = []
        recs = run_items(s, [{"id": f"i{n:03d}", "n": n} for n in range(240)],
                         lambda it: calls.append(it["id"]) or {"x": it["n"]}, desc="t")
    assert calls == ["i099", "i149"]  # only the two lost items run again; nothing after line 100 is lost
    assert [r["x"] for r in recs] == list(range(240))
    rejected = [json.loads(x) for x in (tmp_path / REJECTED).read_text().splitlines()]
    assert [r["line"] for r in rejected] == [100, 150]
    for r in rejected:  # the original bytes, exactly, even where they are not UTF-8
        assert r["text"].encode("utf-8", "surrogateescape") == bad[r["line"]]
    assert "not UTF-8" in rejected[0]["reason"] and "not a record" in rejected[1]["reason"]
    ids = _result_ids(tmp_path)
    assert len(ids) == len(set(ids)) == 240
    capfd.readouterr()
    with ResultsStore(tmp_path, {"k": 1}) as s:  # the repaired file reopens cleanly
        assert len(s) == 240
    assert capfd.readouterr().err == ""


def test_a_torn_last_line_is_set_aside_with_one_note(tmp_path, capfd):
    with ResultsStore(tmp_path, {"k": 1}) as s:
        s.append({"id": "a"})
    with open(tmp_path / "results.jsonl", "ab") as fh:
        fh.write(b'{"id": "b", "v"')  # a crash mid-write
    with ResultsStore(tmp_path, {"k": 1}) as s:
        assert list(s.records()) == [{"id": "a"}]
        s.append({"id": "b", "v": 2})
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("note:") and "cut short" in err[0], err
    assert [json.loads(x)["line"] for x in (tmp_path / REJECTED).read_text().splitlines()] == [2]
    assert _result_ids(tmp_path) == ["a", "b"]


def test_a_whole_last_record_without_its_newline_is_kept(tmp_path):
    (tmp_path / "results.jsonl").write_text('{"id": "a"}\n{"id": "b"}')  # edited by hand
    with ResultsStore(tmp_path, {"k": 1}) as s:
        assert "a" in s and "b" in s
        s.append({"id": "c"})
    assert _result_ids(tmp_path) == ["a", "b", "c"]
    assert not (tmp_path / REJECTED).exists()


# ---------------------------------------------------------------------------- a run that never produced

def test_a_folder_without_results_does_not_bind_the_next_run(tmp_path, capfd):
    ResultsStore(tmp_path, {"suite": "x", "limit": 2}).close()  # failed before its first result
    with ResultsStore(tmp_path, {"suite": "x", "limit": 3}) as s:
        s.append({"id": "a"})
    assert json.loads((tmp_path / "run.json").read_text())["limit"] == 3
    assert "recorded no result" in capfd.readouterr().err
    with pytest.raises(RunMismatch, match="limit: 3 -> 4"):  # now it has a result: bound
        ResultsStore(tmp_path, {"suite": "x", "limit": 4})


def test_an_eval_run_that_failed_before_its_first_result_leaves_nothing_in_the_way(tmp_path, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))
    down = FakeServer(FakeAmbitServicer(fail=lambda method, request: (grpc.StatusCode.INTERNAL, "model failed")))
    try:
        out = tmp_path / "o"
        args = ["amp-zeroshot", "--out", str(out), "--server", down.address, "--types", "pp"]
        assert eval_main([*args, "--limit", "12"]) == 1  # every item fails: the run stops, no result
        assert read_records(out) == []
    finally:
        down.stop(0)
    up = FakeServer(FakeAmbitServicer())
    try:
        corrected = ["amp-zeroshot", "--out", str(out), "--server", up.address, "--types", "pp", "--limit", "3"]
        assert eval_main(corrected) == 0  # other arguments, accepted: the folder held no result
        assert len(read_records(out)) == 3
        assert json.loads((out / "run.json").read_text())["limit"] == 3
    finally:
        up.stop(0)
