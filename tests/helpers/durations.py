"""The slowest tests of a run, kept in a file CI prints (`.ci/run` cats it after pytest, whatever
pytest's exit status): pytest's own `--durations` table goes to the terminal only.

Written by the controller (never by an xdist worker) from the reports pytest already holds, with
the run's wall time, its outcome counts and the modules that took longest in all (the unit
`--dist loadscope` hands to one worker), so that a slow CI run can be read afterwards."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

SLOWEST = 25  # as many as the `--durations=25` of pyproject's addopts
MODULES = 10
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def _reports(stats: dict) -> list:
    """Every test report (setup, call, teardown) that has a duration."""
    return [r for reports in stats.values() for r in reports if hasattr(r, "duration") and hasattr(r, "when")]


def summary(stats: dict, wall_s: float, exitstatus: int, args: list[str]) -> str:
    """The text of the durations file: run line, slowest tests, slowest modules."""
    reports = _reports(stats)
    counts = ", ".join(f"{len(stats[o])} {o}" for o in OUTCOMES if stats.get(o))
    lines = [f"pytest {' '.join(args)}".rstrip(),
             f"wall time {wall_s:.0f}s ({wall_s / 60:.1f} min), exit status {exitstatus}, {counts or 'no tests'}",
             "", f"slowest {SLOWEST} (setup/call/teardown):"]
    for r in sorted(reports, key=lambda r: r.duration, reverse=True)[:SLOWEST]:
        lines.append(f"{r.duration:9.2f}s {r.when:<8} {r.nodeid}")
    per_module: dict[str, float] = defaultdict(float)
    for r in reports:
        per_module[r.nodeid.split("::", 1)[0]] += r.duration
    lines += ["", f"slowest {MODULES} modules (all phases summed; one module runs on one worker):"]
    lines += [f"{s:9.2f}s {m}" for m, s in sorted(per_module.items(), key=lambda kv: kv[1], reverse=True)[:MODULES]]
    return "\n".join(lines) + "\n"


def write(path: Path, stats: dict, started: float, exitstatus: int, args: list[str]) -> None:
    """Write the summary of this run to `path` (its folder made when missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(summary(stats, time.monotonic() - started, int(exitstatus), args), encoding="utf-8")
