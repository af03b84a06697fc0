"""Batches spread over Prolog worker processes (logic/runtime/pool.py): the same answers as one
process, errors that cross intact, and the JSON-lines CLIs with --workers."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ambit import logic
from ambit.logic.engine import prove
from ambit.logic.runtime import pool as prolog_pool
from ambit.logic.errors import LFParseError

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")
REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("n, workers", [(0, 2), (1, 2), (7, 2), (8, 2), (17, 2), (200, 2), (1000, 3), (64, 1)])
def test_chunks_cover_the_batch_in_order_with_even_sizes(n, workers):
    cs = prolog_pool.chunks(n, workers)
    assert [i for r in cs for i in r] == list(range(n))
    assert len(cs) <= workers * prolog_pool.CHUNKS_PER_WORKER
    if cs:
        sizes = [len(r) for r in cs]
        assert max(sizes) - min(sizes) <= 1
        assert min(sizes) >= min(n, prolog_pool.MIN_CHUNK)


def test_amp_equivalence_on_two_processes_answers_as_one():
    pairs = [("exists x . forall y . man(x) AND saw(x, y)", "forall y . exists x . man(x) AND saw(x, y)"),
             ("exists x . man(x) AND walk(x)", "exists y . walk(y) AND man(y)"),
             ("( exists x ( man x ) )", "( exists x ( man x ) )")] * 12
    pairs = pairs[:-1]
    fmt_pairs = [(a, b) for a, b in pairs if not a.startswith("(")]
    for kw in ({}, {"canonical_shortcut": False}):
        one = [v.to_dict() for v in logic.equivalent_batch(fmt_pairs, **kw)]
        two = [v.to_dict() for v in logic.equivalent_batch(fmt_pairs, workers=2, **kw)]
        assert two == one
        assert {d["verdict"] for d in one} == {"EQUIVALENT", "NOT_EQUIVALENT"}


def test_full_fol_equivalence_on_two_processes_answers_as_one():
    pairs = [("∀x (Dog(x) → Animal(x))", "∀y (¬Animal(y) → ¬Dog(y))"),
             ("∀x (P(x) ⊕ Q(x))", "∀x (P(x) ↔ Q(x))"),
             ("∃x ∀y R(x, y)", "∀y ∃x R(x, y)")] * 11
    one = [v.to_dict() for v in prove.equivalent_batch(pairs)]
    two = [v.to_dict() for v in prove.equivalent_batch(pairs, workers=2)]
    assert two == one and [d["verdict"] for d in one[:3]] == ["EQUIVALENT", "NOT_EQUIVALENT", "NOT_EQUIVALENT"]


def test_a_parse_error_in_a_worker_process_arrives_whole():
    stories = [(["∀x (Dog(x) → Animal(x))"], "Animal(rex)")] * 20 + [(["Dog(rex"], "Animal(rex)")]
    with pytest.raises(LFParseError) as one:
        prove.decide_batch(stories)
    with pytest.raises(LFParseError) as two:
        prove.decide_batch(stories, workers=2)
    assert (two.value.pos, two.value.expected, str(two.value)) == (one.value.pos, one.value.expected, str(one.value))


def test_parse_errors_pickle():
    try:
        logic.parse("∀x (Dog(x) → ", "folio")
    except LFParseError as e:
        back = pickle.loads(pickle.dumps(e))
        assert (back.pos, back.expected, back.kind, back.fmt, str(back)) == (e.pos, e.expected, e.kind, e.fmt, str(e))


def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "logic", *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=900)


def test_entails_jsonl_with_two_workers_writes_what_one_writes():
    rows = [{"premises": ["∀x (Dog(x) → Animal(x))", "Dog(rex)"], "conclusion": c}
            for c in ("Animal(rex)", "Cat(rex)", "¬Animal(rex)")] * 15
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    lines[7] = "not json"
    lines[20] = json.dumps({"premises": ["Dog(rex"], "conclusion": "Animal(rex)"})
    stdin = "\n".join(lines) + "\n"
    one = _cli(["entails", "--from", "folio", "--jsonl"], stdin)
    two = _cli(["entails", "--from", "folio", "--jsonl", "--workers", "2"], stdin)
    assert one.returncode == two.returncode == 2
    assert two.stdout == one.stdout and len(one.stdout.splitlines()) == len(lines)
    out = [json.loads(x) for x in one.stdout.splitlines()]
    assert out[0]["verdict"] == "TRUE" and "error" in out[7] and out[20]["error"]["field"] == "premises"


def test_amp_equiv_jsonl_with_two_workers_writes_what_one_writes():
    lines = [json.dumps({"a": "exists x . man(x) AND walk(x)", "b": b})
             for b in ("exists y . walk(y) AND man(y)", "exists y . man(y)")] * 40 + ["{}"]
    stdin = "\n".join(lines) + "\n"
    one = _cli(["equiv", "--jsonl"], stdin)
    two = _cli(["equiv", "--jsonl", "--workers", "2"], stdin)
    assert one.returncode == two.returncode == 2 and two.stdout == one.stdout
    assert len(one.stdout.splitlines()) == len(lines)


def test_a_short_run_leaves_no_prolog_thread_behind():
    """Prolog is shut down on the thread that started it: no clean-up warning (and no second
    lost) at the end of every short-lived process."""
    r = _cli(["entails", "--from", "folio", "--jsonl"], json.dumps({"premises": ["P(a)"], "conclusion": "P(a)"}) + "\n")
    assert r.returncode == 0 and json.loads(r.stdout)["verdict"] == "TRUE"
    assert "Failed to stop Prolog threads" not in r.stderr
    # Prolog started on the main thread (pyswip imported and used there first): the worker's
    # engine is released instead
    code = ("from pyswip import Prolog; list(Prolog.query('X = 1')); "
            "from ambit.logic.runtime.worker import worker; print(worker().query_json_quiet('Out = 2'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=180)
    assert r.returncode == 0 and r.stdout.strip() == "2"
    assert "Failed to stop Prolog threads" not in r.stderr


def test_workers_must_be_positive():
    r = _cli(["entails", "--from", "folio", "--jsonl", "--workers", "0"], "")
    assert r.returncode == 2 and "--workers" in r.stderr


def test_swipl_location_is_cached_and_a_bad_cache_is_replaced(tmp_path):
    """pyswip is told where SWI-Prolog lives from a cache (no `swipl --dump-runtime-variables`
    per process); a corrupt or stale cache is rewritten, and Prolog starts either way."""
    code = ("import os; from ambit.logic.runtime.worker import worker; print(worker().query_json_quiet('Out = 3')); "
            "print(os.environ['LIBSWIPL_PATH'])")
    env = {k: v for k, v in os.environ.items() if k not in ("LIBSWIPL_PATH", "SWI_HOME_DIR")}
    env["AMBIT_CACHE"] = str(tmp_path)
    cache = tmp_path / "swipl.json"
    for before in (None, "not json", json.dumps({"key": "stale", "LIBSWIPL_PATH": "/nowhere", "SWI_HOME_DIR": "/"})):
        if before is not None:
            cache.write_text(before)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=180)
        assert r.returncode == 0, r.stderr
        three, lib = r.stdout.split()
        saved = json.loads(cache.read_text())
        assert three == "3" and lib == saved["LIBSWIPL_PATH"] and Path(lib).exists()
        assert saved["key"].startswith(os.path.realpath(shutil.which("swipl")))


def test_the_long_lane_runs_at_a_lower_cpu_priority():
    """The long lane's process (hard calls moved off the server's own Prolog) is niced, so that a
    storm of hard calls takes CPU from the server's event loop and fast lane only when they idle."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    theirs = prolog_pool.lane().submit(os.getpriority, os.PRIO_PROCESS, 0).result(60)
    assert theirs == min(19, mine + prolog_pool.LANE_NICE) and theirs > mine or mine == 19


def test_a_worker_process_collects_its_young_generation_less_often():
    """A pool process keeps a chunk's replies and verdicts alive until it answers, and leaves no
    reference cycles, so it runs the cyclic collector at POOL_GC_THRESHOLD allocations, not
    CPython's 700; the caller's own process keeps its settings."""
    import gc

    from ambit.logic.runtime.process_pool import POOL_GC_THRESHOLD

    before = gc.get_threshold()
    theirs = prolog_pool.pool(2).submit(gc.get_threshold).result(60)
    assert theirs[0] == POOL_GC_THRESHOLD > 700  # 700: CPython's default
    assert gc.get_threshold() == before


def test_a_call_the_long_lane_cannot_take_finishes_in_the_workers_own_prolog(monkeypatch):
    """A script that starts a server without an `if __name__ == "__main__":` guard cannot spawn
    the long lane's process: a call past its slice then runs on in the worker's own Prolog, with
    what is left of its time, instead of failing (before: INTERNAL, "An attempt has been made to
    start a new process before the current process has finished its bootstrapping phase")."""
    from concurrent.futures import Future

    from ambit.logic.runtime import pool as prolog_pool
    from ambit.logic.runtime.worker import worker

    class Unstartable:
        def submit(self, *args, **kwargs):
            f: Future = Future()
            f.set_exception(RuntimeError("An attempt has been made to start a new process ..."))
            return f

    w = worker()
    monkeypatch.setattr(prolog_pool, "lane", lambda: Unstartable())
    monkeypatch.setattr(w, "long_lane", prolog_pool.long_lane_call)
    monkeypatch.setattr(w, "fast_lane_s", 0.05)
    goal = "numlist(1, 2000000, L), sum_list(L, Out)"  # longer than a quantum and a slice here
    assert w.query_json_quiet(goal, time_limit=30.0) == 2000001000000


def test_the_prolog_runtime_imports_in_one_direction():
    """runtime/cancel.py and runtime/swipl.py import nothing of the runtime, lanes only cancel,
    the worker not the pool, the pool not the lanes: no import statement (at any depth, inside
    functions too) closes a circle among them."""
    import ast as pyast

    from tests.paths import REPO

    names = ["cancel", "swipl", "lanes", "worker", "pool"]
    edges: dict[str, set[str]] = {}
    for name in names:
        tree = pyast.parse((REPO / "src" / "ambit" / "logic" / "runtime" / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in pyast.walk(tree):
            if isinstance(node, pyast.ImportFrom):
                mods = [node.module or ""] + [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
                found |= {m.rsplit(".", 1)[-1] for m in mods} & set(names)
        edges[name] = found - {name}

    def reaches(a: str, b: str, seen: frozenset = frozenset()) -> bool:
        return any(n == b or (n not in seen and reaches(n, b, seen | {n})) for n in edges[a])

    assert not [n for n in names if reaches(n, n)], edges
    assert edges["lanes"] == {"cancel"}


def test_lanes_without_a_long_lane_finish_in_the_workers_own_prolog(monkeypatch):
    """A worker whose slice is set but that was given no long lane runs a call past its slice
    on in its own Prolog (it neither hangs nor fails)."""
    from ambit.logic.runtime.worker import worker

    w = worker()
    monkeypatch.setattr(w, "long_lane", None)
    monkeypatch.setattr(w, "fast_lane_s", 0.05)
    goal = "numlist(1, 2000000, L), sum_list(L, Out)"
    assert w.query_json_quiet(goal, time_limit=30.0) == 2000001000000


def test_a_call_whose_slice_ends_as_its_time_runs_out_is_out_of_time_not_cancelled(monkeypatch):
    """A two-lane call stopped by its slice when no time is left ran out of its time limit: before,
    its slice's cancellation reached the caller (CI: `ambit logic entails --time-limit 3` on a
    problem whose reading left Prolog a few tenths of a second raised "Prolog call cancelled:
    its caller went away" in a process where a server had turned lanes on). The goal swallows
    Prolog's own time limit, so only the slice stops it, after the call's time is spent."""
    from ambit.logic.runtime.cancel import PrologError
    from ambit.logic.runtime.worker import worker

    w = worker()
    monkeypatch.setattr(w, "long_lane", None)
    monkeypatch.setattr(w, "fast_lane_s", 0.03)
    # Prolog's time limit caught and the loop gone on with (the slice's '$aborted' ends it): a
    # 0.02 s quantum, then a 0.03 s slice, which always ends past a 0.05 s limit
    goal = "catch((repeat, fail), E, (E == '$aborted' -> true ; repeat, fail))"
    with pytest.raises(PrologError) as e:
        w.submit_json_quiet(goal, time_limit=0.05, inferences=10**12).result(30)
    assert e.value.reason == "time_limit", e.value
    assert w.query_json_quiet("Out = 1", time_limit=5.0) == 1  # and the worker answers the next call


def test_calls_past_their_time_in_any_lane_are_out_of_time(monkeypatch):
    """Time limits around the quantum, the slice and past both (the rest then runs here, no long
    lane given, under a slice of what is left, which races Prolog's own limit): every call that
    runs out is `time_limit` (before: 8 of 60 `cancelled`, from the slice of what was left)."""
    from ambit.logic.runtime.cancel import PrologError
    from ambit.logic.runtime.worker import worker

    w = worker()
    monkeypatch.setattr(w, "long_lane", None)
    monkeypatch.setattr(w, "fast_lane_s", 0.03)
    reasons = []
    for time_limit in [0.001, 0.02, 0.031, 0.05, 0.06, 0.12] * 8:
        with pytest.raises(PrologError) as e:
            w.submit_json_quiet("numlist(1, 30000000, L), sum_list(L, Out)", time_limit=time_limit,
                                inferences=10**12).result(30)
        reasons.append(e.value.reason)
    assert set(reasons) == {"time_limit"}, reasons
