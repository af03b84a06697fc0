"""Parse + canonicalise throughput over one AmP train_eval file (one core).

    python benchmarks/logic_bench.py [--json] [--file PATH] [--repeat 3]

Prints LFs/s for the fast reader + canonicaliser, and, side by side in the same run, for
Lark-only parsing, so the ratio between them is measured, not assumed.
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

import logic  # noqa: E402

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--file", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
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
