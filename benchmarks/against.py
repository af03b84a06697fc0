"""Run the same equivalence workload through this checkout and through another commit, side by side.

`equiv_bench.py --against REF` uses it: REF's files are written into a temporary folder (`git
archive`, which leaves the repository as it is: no worktree, no checkout), and one
child process per tree (this checkout's `src/`, REF's tree) imports that tree's own logic layer and
keeps its Prolog warm. The parent sends both children the same command, round by round and in
alternating order, so a burst of load on a shared machine falls on both alike. Each child answers
with wall-clock and CPU seconds (its process time: Python and its Prolog thread, plus the CPU of
its worker processes for `workers=2`) and the verdicts, so the parent can also check that both
trees agree pair by pair. The `all_2_workers` kind runs the `all` pairs on 2 worker processes:
beside its ratio to REF, `workers` gives each tree's own 2-vs-1 speed-up measured between the same
rounds, so a faster single process (one that overlaps more of its own work, and so leaves less of
the second core to gain) is not read as a pool that scales worse. The `tail` kind (equiv_bench.py's
tail pairs, first round only) is one call per pair with each call's CPU seconds: its maximum,
p99.9 and p99 per tree, and the UNKNOWN count.

The child side runs as `python benchmarks/against.py TREE PAIRS.json` and speaks one JSON object a
line on stdin/stdout.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- the parent


@contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """REF's files in a temporary folder (`git archive`: the repository's own state, its
    worktrees and index, is left alone, so the run is safe beside other work in the checkout),
    removed again afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="ambit-against-"))
    path = tmp / "tree"
    path.mkdir()
    try:
        tar = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", ref], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(path)], input=tar.stdout, check=True)
        yield path
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def short_commit(ref: str) -> str:
    """REF's abbreviated commit name, read from this repository."""
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", ref], capture_output=True, text=True,
                          check=True).stdout.strip()


class Child:
    """One tree's worker process."""

    def __init__(self, tree: Path, pairs_file: Path, label: str) -> None:
        self.label = label
        self.proc = subprocess.Popen([sys.executable, __file__, str(tree), str(pairs_file)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
        self.info = self.ask({"cmd": "hello"})

    def ask(self, msg: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.label} worker ended (exit {self.proc.wait()})")
        out = json.loads(line)
        if "error" in out:
            raise RuntimeError(f"the {self.label} worker failed: {out['error']}")
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=60)


# the kinds compared: name -> (pair set, keyword arguments of equivalent_batch, how it runs)
KINDS = {
    "all": ("amp", {}, "batched"),
    "all_prolog_only": ("amp", {"canonical_shortcut": False}, "batched"),
    "not_equivalent": ("amp_not_equivalent", {}, "batched"),
    "equivalent": ("amp_equivalent", {}, "batched"),
    "equivalent_prolog_only": ("amp_equivalent", {"canonical_shortcut": False}, "batched"),
    "hard": ("hard", {}, "batched"),
    "single": ("amp_single", {}, "single"),
    "all_2_workers": ("amp", {"workers": 2}, "batched"),
    "tail": ("tail", {}, "tail"),
}
# kinds run in the first round only (their pairs are the slow ones: one round is their cost)
ONCE = ("tail",)


def compare(ref: str, pair_sets: dict[str, list[tuple[str, str]]], rounds: int, batch: int) -> dict:
    """Both trees on every kind, `rounds` interleaved rounds; medians and their ratios
    (this checkout over REF: > 1 means this checkout is faster)."""
    with tempfile.TemporaryDirectory() as tmp, worktree(ref) as old_tree:
        pairs_file = Path(tmp) / "pairs.json"
        pairs_file.write_text(json.dumps(pair_sets), encoding="utf-8")
        new, old = Child(REPO, pairs_file, "this checkout"), Child(old_tree, pairs_file, ref)
        old.info["commit"] = short_commit(ref)  # its folder is no git checkout
        try:
            runs: dict[str, dict[str, list[dict]]] = {k: {"new": [], "old": []} for k in KINDS}
            for r in range(rounds):
                for kind, (pset, kw, how) in KINDS.items():
                    if r > 0 and kind in ONCE or pset not in pair_sets:
                        continue
                    order = [("new", new), ("old", old)] if r % 2 == 0 else [("old", old), ("new", new)]
                    for tag, child in order:
                        runs[kind][tag].append(child.ask({"cmd": how, "set": pset, "kw": kw, "batch": batch,
                                                          "verdicts": r == 0}))
            return _summary(ref, new.info, old.info, runs, pair_sets)
        finally:
            new.close()
            old.close()


def _summary(ref: str, new_info: dict, old_info: dict, runs: dict, pair_sets: dict) -> dict:
    med = statistics.median
    out: dict = {"against": ref, "this": new_info, "ref": old_info, "load_average_1min": round(os.getloadavg()[0], 2),
                 "kinds": {}}
    for kind, by in runs.items():
        if not by["new"]:
            continue
        n = len(pair_sets[KINDS[kind][0]])
        row: dict = {"pairs": n}
        for tag in ("new", "old"):
            rs = by[tag]
            row[tag] = {"checks_per_s": round(n / med([x["wall"] for x in rs]), 1),
                        "checks_per_cpu_s": round(n / max(1e-9, med([x["cpu"] for x in rs])), 1)}
            if KINDS[kind][2] == "single":
                row[tag]["p50_ms"] = round(med([x["p50"] for x in rs]) * 1e3, 3)
                row[tag]["p99_ms"] = round(med([x["p99"] for x in rs]) * 1e3, 3)
            if KINDS[kind][2] == "tail":  # the worst calls: CPU seconds per pair, and what stayed UNKNOWN
                row[tag].update(_tail_stats(rs[0]["cpu_each"]))
                row[tag]["unknown"] = rs[0]["verdicts"].count("UNKNOWN")
                row[f"verdicts_list_{tag}"] = rs[0]["verdicts"]
        row["ratio"] = round(row["new"]["checks_per_s"] / row["old"]["checks_per_s"], 2)
        row["ratio_cpu"] = round(row["new"]["checks_per_cpu_s"] / row["old"]["checks_per_cpu_s"], 2)
        if KINDS[kind][2] == "tail":
            row["ratio_max"] = round(row["old"]["max_s"] / max(1e-9, row["new"]["max_s"]), 2)
            row["ratio_p999"] = round(row["old"]["p999_s"] / max(1e-9, row["new"]["p999_s"]), 2)
        if KINDS[kind][2] == "single":
            row["ratio_p50"] = round(row["old"]["p50_ms"] / row["new"]["p50_ms"], 2)
            row["ratio_p99"] = round(row["old"]["p99_ms"] / row["new"]["p99_ms"], 2)
        vn, vo = by["new"][0]["verdicts"], by["old"][0]["verdicts"]
        differ = [i for i, (a, b) in enumerate(zip(vn, vo)) if a != b]
        row["verdicts_new"] = _count(vn)
        row["verdicts_ref"] = _count(vo)
        row["verdicts_differ"] = len(differ)
        # a pair REF decides that this checkout leaves UNKNOWN (and the other way round)
        row["unknown_here_decided_by_ref"] = sum(a == "UNKNOWN" != b for a, b in zip(vn, vo))
        row["unknown_in_ref_decided_here"] = sum(b == "UNKNOWN" != a for a, b in zip(vn, vo))
        row["differ_examples"] = [{"pair": pair_sets[KINDS[kind][0]][i], "new": vn[i], "ref": vo[i]} for i in differ[:3]]
        out["kinds"][kind] = row
    out["workers"] = _workers(out["kinds"])
    return out


def _tail_stats(cpu: list[float]) -> dict:
    """Maximum, p99.9, p99 and p50 of the CPU seconds per pair (nearest rank)."""
    xs = sorted(cpu)
    pct = lambda q: xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]  # noqa: E731
    return {"max_s": round(xs[-1], 4), "p999_s": round(pct(0.999), 4), "p99_s": round(pct(0.99), 4),
            "p50_s": round(pct(0.5), 5), "total_cpu_s": round(sum(xs), 2)}


def _workers(kinds: dict) -> dict:
    """Each tree's 2-vs-1 worker speed-up on the `all` pairs (same rounds, same load) by wall
    clock, and its CPU cost: the CPU seconds the 2 workers (parent and pool) spent over 1 worker's."""
    one, two = kinds["all"], kinds["all_2_workers"]
    return {tag: {"speedup_2_vs_1": round(two[tag]["checks_per_s"] / one[tag]["checks_per_s"], 2),
                  "cpu_2_over_1": round(one[tag]["checks_per_cpu_s"] / two[tag]["checks_per_cpu_s"], 2)}
            for tag in ("new", "old")}


def _count(vs: list[str]) -> dict:
    c: dict[str, int] = {}
    for v in vs:
        c[v] = c.get(v, 0) + 1
    return c


# --------------------------------------------------------------------------- the child


def _load(tree: Path):
    """`equivalent_batch` and `equivalent` of the logic layer of `tree` (a src/ layout with the
    `ambit` package, or the older top-level `logic` package), imported from that tree only."""
    src = tree / "src"
    if (src / "ambit").is_dir():
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                            and "editable" not in getattr(f, "__name__", "").lower()]
        sys.path.insert(0, str(src))
        from ambit import logic  # type: ignore[import-not-found]

        mod, where = logic, logic.__file__
    else:
        sys.path.insert(0, str(tree))
        import logic  # type: ignore[import-not-found]
        from logic import equivalence  # type: ignore[import-not-found]

        mod, where = equivalence, logic.__file__
    if not str(Path(where).resolve()).startswith(str(tree.resolve())):
        raise RuntimeError(f"imported {where}, not the logic layer of {tree}")
    return mod.equivalent_batch, mod.equivalent, where


def child(tree: Path, pairs_file: Path) -> None:
    equivalent_batch, equivalent, where = _load(tree)
    sets = {k: [tuple(p) for p in v] for k, v in json.loads(pairs_file.read_text(encoding="utf-8")).items()}
    equivalent_batch(sets["amp"][:50])  # warm up: start Prolog, load the programs
    equivalent_batch(sets["amp"][:200], workers=2)  # and start the 2 worker processes
    for line in sys.stdin:
        msg = json.loads(line)
        try:
            if msg["cmd"] == "hello":
                git = lambda *a: subprocess.run(["git", "-C", str(tree), *a], capture_output=True,  # noqa: E731
                                                text=True).stdout.strip()
                head = git("rev-parse", "--short", "HEAD") + ("+changes" if git("status", "--porcelain", "src") else "")
                out: dict = {"tree": str(tree), "commit": head, "logic": where}
            elif msg["cmd"] == "batched":
                out = _batched(equivalent_batch, sets[msg["set"]], msg["kw"], msg["batch"])
            elif msg["cmd"] == "tail":
                out = _single(equivalent, sets[msg["set"]], each=True)
            else:
                out = _single(equivalent, sets[msg["set"]])
            if not msg.get("verdicts") and msg["cmd"] != "tail":
                out.pop("verdicts", None)
        except Exception as e:  # noqa: BLE001 - reported to the parent, which stops
            out = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(out), flush=True)


def _batched(equivalent_batch, pairs: list, kw: dict, batch: int) -> dict:
    verdicts: list[str] = []
    c0 = _cpu_with_children()  # read before the clock starts and after it stops (a scan of /proc)
    t0 = time.perf_counter()
    for i in range(0, len(pairs), batch):
        verdicts += [v.verdict for v in equivalent_batch(pairs[i:i + batch], **kw)]
    wall = time.perf_counter() - t0
    return {"wall": wall, "cpu": _cpu_with_children() - c0, "verdicts": verdicts}


def _cpu_with_children() -> float:
    """This process's CPU seconds and those of its live child processes (the worker pool's:
    they live on between batches, so `getrusage(RUSAGE_CHILDREN)`, which counts the ended ones,
    misses them). Linux /proc; elsewhere this process's alone."""
    total = time.process_time()
    me = str(os.getpid())
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else []:
        if not entry.name.isdigit() or entry.name == me:
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            continue
        if fields[1] == me:  # its parent is this process
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _cpu_with_ended_children() -> float:
    """This process's CPU seconds and those of the child processes it has waited for (an E
    process the call started and ended: the pool's live workers are not among them)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + r.ru_utime + r.ru_stime


def _single(equivalent, pairs: list, each: bool = False) -> dict:
    """One call per pair: wall-clock latencies, and with `each` every call's CPU seconds
    (this process's: Python and its Prolog thread, and an E process it started and ended)."""
    lat, verdicts, cpu = [], [], []
    t0, c0 = time.perf_counter(), time.process_time()
    for a, b in pairs:
        t, c = time.perf_counter(), _cpu_with_ended_children()
        verdicts.append(equivalent(a, b).verdict)
        lat.append(time.perf_counter() - t)
        cpu.append(_cpu_with_ended_children() - c)
    lat.sort()
    pct = lambda q: lat[min(len(lat) - 1, int(round(q * (len(lat) - 1))))]  # noqa: E731
    out = {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "p50": pct(0.5), "p99": pct(0.99),
           "verdicts": verdicts}
    if each:
        out["cpu_each"] = cpu
    return out


if __name__ == "__main__":
    child(Path(sys.argv[1]), Path(sys.argv[2]))
