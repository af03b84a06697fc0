"""Parse + canonicalise throughput over one AmP train_eval file (one core).

    python benchmarks/logic_bench.py [--json] [--file PATH] [--repeat 3]
    python benchmarks/logic_bench.py --sizes 0.25,0.5,1,2 [--json]

Prints LFs/s for the fast reader + canonicaliser, and, side by side in the same run, for
Lark-only parsing, so the ratio between them is measured, not assumed. ``--sizes`` instead
parses one long AND chain of each size (MB) in FOL and in Lisp and prints the seconds and the
ratio of each time to the smallest size's, next to the ratio of the sizes: linear parsing
keeps the two ratios equal (no reference data needed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ambit import logic  # noqa: E402

DEFAULT_ARCHIVE = REPO.parent / "shared" / "data" / "amp" / "fewshot" / "50-50-5k-train-100-perc-ambig_fol" / "data.tar.gz"


def load_lfs(path: Path | None) -> tuple[list[str], str]:
    if path is not None:
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(x)["lf"] for x in lines if x.strip()], str(path)
    if not DEFAULT_ARCHIVE.exists():
        sys.exit(f"AmP archive not found at {DEFAULT_ARCHIVE}; pass --file PATH to a train_eval.jsonl")
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(DEFAULT_ARCHIVE) as tar:
        tar.extract("train_eval.jsonl", tmp, filter="data")
        lines = (Path(tmp) / "train_eval.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(x)["lf"] for x in lines if x.strip()], f"{DEFAULT_ARCHIVE.parent.name}/train_eval.jsonl"


def best_rate(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, time.perf_counter() - t)
    return len(items) / best


def chain(n_bytes: int) -> str:
    """An FOL formula of about ``n_bytes`` characters: one long AND chain under two quantifiers."""
    atom = "man(x) AND saw(a) AND agent(a, x) AND "
    return "exists x . exists a . " + atom * max(1, n_bytes // len(atom)) + "man(x)"


def size_scaling(sizes_mb: list[float], repeat: int) -> dict:
    """Seconds to parse a chain of each size, FOL and Lisp, and time ratios to the smallest."""
    rows = []
    for mb in sizes_mb:
        fol = chain(int(mb * 1_000_000))
        lisp = logic.render(logic.parse(fol, "fol"), "lisp")
        row = {"mb": mb, "size_ratio": round(mb / sizes_mb[0], 2)}
        for fmt, text in (("fol", fol), ("lisp", lisp)):
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                logic.parse(text, fmt)
                best = min(best, time.perf_counter() - t)
            row[f"{fmt}_chars"], row[f"{fmt}_s"] = len(text), round(best, 3)
        rows.append(row)
    for row in rows:
        for fmt in ("fol", "lisp"):
            row[f"{fmt}_time_ratio"] = round(row[f"{fmt}_s"] / rows[0][f"{fmt}_s"], 2)
    return {"sizes": rows, "target_s_at_2mb": 2.0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--file", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", help="comma-separated input sizes in MB: time parsing against size")
    args = ap.parse_args()
    if args.sizes:
        result = size_scaling(sorted(float(x) for x in args.sizes.split(",")), args.repeat)
        if args.json:
            print(json.dumps(result))
        else:
            print(f"{'MB':>6} {'size x':>7} {'FOL s':>8} {'FOL x':>7} {'Lisp s':>8} {'Lisp x':>7}")
            for r in result["sizes"]:
                print(f"{r['mb']:>6} {r['size_ratio']:>7} {r['fol_s']:>8} {r['fol_time_ratio']:>7} "
                      f"{r['lisp_s']:>8} {r['lisp_time_ratio']:>7}")
        return 0
    lfs, source = load_lfs(args.file)
    canon = best_rate(lambda s: logic.canonical_string(logic.parse(s, "fol")), lfs, args.repeat)
    parse_only = best_rate(lambda s: logic.parse(s, "fol"), lfs, args.repeat)
    lark_sample = lfs[: min(len(lfs), 3000)]
    lark_only = best_rate(lambda s: logic.parse_with_lark(s, "fol"), lark_sample, 1)
    result = {
        "source": source,
        "n": len(lfs),
        "parse_canonicalise_lfs_per_s": round(canon),
        "parse_lfs_per_s": round(parse_only),
        "lark_parse_lfs_per_s": round(lark_only),
        "fast_over_lark_parse": round(parse_only / lark_only, 2),
        "target_lfs_per_s": 5000,
        "meets_target": canon >= 5000,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:32} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
