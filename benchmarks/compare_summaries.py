"""Compare the ``summary.json`` files of two ``client eval`` output folders, ignoring timings.

``python benchmarks/compare_summaries.py OLD NEW [--ignore KEY ...]`` walks OLD for every
``summary.json`` (the top level and each suite's folder), loads the one at the same place in
NEW, and prints each difference as ``path: key.path: old -> new``. Keys named ``seconds``
(and any given with ``--ignore``) are skipped. Exit status 0 when all are equal, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

TIMING_KEYS = frozenset({"seconds"})


def differences(old: Any, new: Any, ignore: frozenset[str], where: str = "") -> list[str]:
    """Every place where ``old`` and ``new`` differ, as ``key.path: old -> new`` lines."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            if k in ignore:
                continue
            path = f"{where}.{k}" if where else str(k)
            if k not in old or k not in new:
                out.append(f"{path}: {old.get(k, '<absent>')!r} -> {new.get(k, '<absent>')!r}")
            else:
                out += differences(old[k], new[k], ignore, path)
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in differences(a, b, ignore, f"{where}[{i}]")]
    return [] if old == new else [f"{where}: {old!r} -> {new!r}"]


def compare(old_dir: Path, new_dir: Path, ignore: frozenset[str]) -> list[str]:
    found = sorted(old_dir.rglob("summary.json"))
    if not found:
        raise FileNotFoundError(f"no summary.json under {old_dir}")
    out = []
    for old_file in found:
        rel = old_file.relative_to(old_dir)
        new_file = new_dir / rel
        if not new_file.exists():
            out.append(f"{rel}: missing in {new_dir}")
            continue
        old, new = (json.loads(f.read_text(encoding="utf-8")) for f in (old_file, new_file))
        out += [f"{rel}: {d}" for d in differences(old, new, ignore)]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--ignore", nargs="*", default=[], help="further keys to skip")
    args = p.parse_args(argv)
    diffs = compare(args.old, args.new, TIMING_KEYS | frozenset(args.ignore))
    print("\n".join(diffs) if diffs else f"equal: every summary.json under {args.old} matches {args.new}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
