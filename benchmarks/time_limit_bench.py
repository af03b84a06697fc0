"""Time limits at any size: `ambit logic entails --time-limit T` on issue 57's problem (an include of
150,000 small fof axioms, 7 MB; the conjecture q(c1) | ~q(c1)), side by side with `eprover --auto`
on the same file.

    .venv/bin/python benchmarks/time_limit_bench.py [--limits 2,3,5,10] [--long 60] [--prover portfolio] [--json]

For each limit: the command's wall-clock seconds (process start to exit, as a user sees it), its
answer and reason, and how far past the limit it answered (`over_s`: the rule is at most 0.5 s on
an idle machine). `--long`: the command with that limit beside `eprover --auto --cpu-limit=LONG`
on the problem file, interleaved, and the ratio of the two times (the rule: at most 2).
The load average is printed: on a busy machine every figure is later.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_problem(root: Path, statements: int = 150_000) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "big.ax").write_text("".join(f"fof(a{i}, axiom, p{i}(c{i}) | q(c{i})).\n" for i in range(statements)),
                                 encoding="utf-8")
    problem = root / "prob.p"
    problem.write_text("include('big.ax').\nfof(goal, conjecture, q(c1) | ~q(c1)).\n", encoding="utf-8")
    return problem


def run_cli(problem: Path, limit: float, prover: str | None) -> dict:
    cmd = [sys.executable, "-m", "ambit", "logic", "entails", "--from", "tptp", "--tptp-root", str(problem.parent),
           "--time-limit", str(limit), str(problem)] + (["--prover", prover] if prover else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=limit * 3 + 60)
    wall = time.perf_counter() - t0
    verdict, _, body = p.stdout.partition("\n")
    try:
        answer = json.loads(body)
    except json.JSONDecodeError:
        answer = {"error": p.stderr[-500:]}
    return {"limit_s": limit, "wall_s": round(wall, 2), "over_s": round(wall - limit, 2), "verdict": verdict,
            "reason": answer.get("reason"), "answered_by": answer.get("answered_by")}


def run_e(problem: Path, limit: float) -> dict:
    t0 = time.perf_counter()
    p = subprocess.run(["eprover", "--auto", "-s", f"--cpu-limit={int(limit)}", problem.name], capture_output=True,
                       text=True, cwd=problem.parent, timeout=limit * 3 + 60)
    status = next((line.split()[3] for line in p.stdout.splitlines() if line.startswith("# SZS status")), None)
    return {"wall_s": round(time.perf_counter() - t0, 2), "status": status}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limits", default="2,3,5,10", help="the --time-limit values, comma-separated")
    ap.add_argument("--long", type=float, default=60.0, help="the long limit run beside eprover --auto (0: none)")
    ap.add_argument("--prover", default=None, help="the command's --prover (default: its own default)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ambit-tl-") as tmp:
        problem = write_problem(Path(tmp) / "root")
        out: dict = {"statements": 150_000, "bytes": (problem.parent / "big.ax").stat().st_size,
                     "limits": [run_cli(problem, float(x), args.prover) for x in args.limits.split(",")]}
        if args.long:
            e = run_e(problem, args.long)
            ours = run_cli(problem, args.long, args.prover)
            out["long"] = {"ambit": ours, "eprover_auto": e,
                           "ratio": round(ours["wall_s"] / e["wall_s"], 2) if e["wall_s"] else None}
    out["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out) if args.json else "\n".join(f"{k:18} {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
