"""`edges_bench.py`: how fast the hostile cases of issue 37 (7-14) are answered, measured on this
machine in one run. Targets: the include DAG (16 files, each including the next 4 times) refused
in under 1 s; a FIFO, /dev/zero and a 15 KB formula refused as fast; a second run into a busy
results folder refused in far less time than a model takes to load; a results file with a corrupt
middle line reopened with every good record kept.

    python benchmarks/edges_bench.py [--json] [--repeat N]

Each figure is the median of --repeat runs (default 5), in milliseconds; ``--json`` prints one
object instead of the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from ambit.client.eval.store import FolderBusy, ResultsStore
from ambit.logic.syntax.tptp_problem import TPTPProblemError, read_problem, read_problem_file

GOAL = "fof(g, conjecture, p).\n"


def _hostile_root(base: Path) -> Path:
    root = base / "root"
    root.mkdir()
    for i in range(16):
        body = "".join(f"include('f{i + 1}.ax').\n" for _ in range(4)) if i < 15 else ""
        (root / f"f{i}.ax").write_text(body + f"fof(a{i}, axiom, p{i}).\n")
    os.mkfifo(root / "fifo")
    (root / "zero").symlink_to("/dev/zero")
    (root / "long.ax").write_text(f"fof(long, axiom, {' & '.join(['p'] * 3750)}).\n")  # ~15 KB
    return root


def _time_refusal(fn, repeat: int) -> tuple[float, str]:
    times, message = [], ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        try:
            fn()
        except (TPTPProblemError, FolderBusy) as e:
            message = str(e)
        else:
            raise SystemExit(f"not refused: {fn}")
        times.append(1000 * (time.perf_counter() - t0))
    return round(statistics.median(times), 2), message


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = _hostile_root(base)
        cases = {
            "include DAG 16x4": lambda: read_problem("include('f0.ax').\n" + GOAL, "p.p", root),
            "FIFO": lambda: read_problem("include('fifo').\n" + GOAL, "p.p", root),
            "--tptp-root /dev, include('zero')": lambda: read_problem("include('zero').\n" + GOAL, "p.p", Path("/dev")),
            "15 KB formula, included": lambda: read_problem("include('long.ax').\n" + GOAL, "p.p", root,
                                                            max_chars=4096),
            "/dev/zero as the problem file": lambda: read_problem_file("/dev/zero"),
        }
        for name, fn in cases.items():
            ms, message = _time_refusal(fn, args.repeat)
            out[name] = {"ms": ms, "error": message}

        folder = base / "busy"
        holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import time
            from ambit.client.eval.store import FolderLock
            with FolderLock({str(folder)!r}):
                print("held", flush=True)
                time.sleep(60)
            """)], stdout=subprocess.PIPE, text=True)
        try:
            holder.stdout.readline()
            ms, message = _time_refusal(lambda: ResultsStore(folder, {"k": 1}), args.repeat)
            out["second writer into a busy folder"] = {"ms": ms, "error": message}
        finally:
            holder.kill()
            holder.wait()

        damaged = base / "damaged"
        with ResultsStore(damaged, {"k": 1}) as s:
            for n in range(240):
                s.append({"id": f"i{n:03d}", "x": n})
        lines = (damaged / "results.jsonl").read_bytes().splitlines(keepends=True)
        lines[99] = b'{"id": "i099", \xff garbage\n'
        (damaged / "results.jsonl").write_bytes(b"".join(lines))
        t0 = time.perf_counter()
        with ResultsStore(damaged, {"k": 1}) as s:
            kept = len(s)
        out["corrupt line 100 of 240"] = {"ms": round(1000 * (time.perf_counter() - t0), 2),
                                          "kept": kept, "recomputed": 240 - kept}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for name, row in out.items():
            extra = row.get("error") or f"kept {row['kept']}, recomputed {row['recomputed']}"
            print(f"{name:38s} {row['ms']:9.2f} ms  {extra[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
