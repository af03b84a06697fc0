"""Start-up time of the `ambit` command, side by side with a bare interpreter in the same run.

    python benchmarks/startup_bench.py [--repeat 7] [--json]

Each command runs `--repeat` times in fresh processes, interleaved with the others; the median
and the best wall seconds are printed, with the ratio of each median to `python -c pass` (the
interpreter's own start-up) and the heavy modules the command imported (`-X importtime`): none of
torch, transformers or matplotlib may load for `--version`, `--help` or `ambit logic`. The target
for `ambit logic equiv A B` (start-up, parse, Prolog, answer) is under 0.5 s on an idle 2-core
machine.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time

A = "exists x . forall y . saw(x, y)"
B = "forall y . exists x . saw(x, y)"
HEAVY = ("torch", "transformers", "matplotlib", "numpy", "grpc", "z3")
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "ambit --version": [sys.executable, "-m", "ambit", "--version"],
    "ambit --help": [sys.executable, "-m", "ambit", "--help"],
    "ambit logic equiv A B": [sys.executable, "-m", "ambit", "logic", "equiv", A, B],
    "ambit logic equiv --help": [sys.executable, "-m", "ambit", "logic", "equiv", "--help"],
    "ambit serve --help": [sys.executable, "-m", "ambit", "serve", "--help"],
    "ambit eval all --help": [sys.executable, "-m", "ambit", "eval", "all", "--help"],
}


def heavy_imports(cmd: list[str]) -> list[str]:
    """The heavy top-level modules `cmd` imports (from the interpreter's -X importtime log)."""
    p = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True, text=True)
    found = {m.group(1) for m in re.finditer(r"\|\s+(\w+)\s*$", p.stderr, re.M)}
    return sorted(found & set(HEAVY))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.repeat):
        for name, cmd in COMMANDS.items():
            t = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            times[name].append(time.perf_counter() - t)
            if p.returncode not in (0, 1):
                sys.exit(f"{name} exited {p.returncode}: {p.stderr[-500:]}")
    base = statistics.median(times["python -c pass"])
    rows = {name: {"median_s": round(statistics.median(ts), 3), "best_s": round(min(ts), 3),
                   "ratio_to_python": round(statistics.median(ts) / base, 1),
                   "heavy_imports": heavy_imports(COMMANDS[name])}
            for name, ts in times.items()}
    if args.json:
        print(json.dumps({"repeat": args.repeat, "commands": rows}, indent=2))
        return
    print(f"{'command':<28}{'median s':>10}{'best s':>9}{'× python':>10}  heavy imports")
    for name, r in rows.items():
        print(f"{name:<28}{r['median_s']:>10.3f}{r['best_s']:>9.3f}{r['ratio_to_python']:>10.1f}  "
              f"{', '.join(r['heavy_imports']) or '-'}")


if __name__ == "__main__":
    main()
