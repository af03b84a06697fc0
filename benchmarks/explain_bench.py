"""Readings explained on AmP pairs: time per LF0/LF1 pair (paraphrases, literal equivalence,
least distinguishing situations both ways, question) and the size of the situations found.

    .venv/bin/python benchmarks/explain_bench.py [--json] [--per-type 50] [--seed 0] [--types conj,...]

Items: a seeded sample of each ambiguous type's generated items (`generators.amp.pairs`). Per
pair: wall time of one `explain_readings` call (the first call, which starts Prolog, is a
warm-up and not counted); per situation: its domain size. Reports median and largest of both,
per type and overall, plus CPU seconds per pair (process CPU, the Prolog thread included) so
that runs on a busy machine compare.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ambit.generators.amp import AMBIGUOUS_TYPES, pairs  # noqa: E402
from ambit.generators.amp.wordforms import amp_wordforms  # noqa: E402
from ambit.logic.explain import explain_readings  # noqa: E402


def run(per_type: int, seed: int, types: tuple[str, ...] = AMBIGUOUS_TYPES) -> dict:
    words = amp_wordforms()
    explain_readings("warm-up", ["exists x . man(x)", "exists x . boy(x)"], lexicon=words)
    out: dict = {"per_type": {}}
    all_ms: list[float] = []
    all_sizes: list[int] = []
    cpu_total, n_total = 0.0, 0
    for kind in types:
        items = random.Random(f"{seed}-{kind}").sample(pairs(kind), per_type)
        ms, sizes = [], []
        cpu0 = time.process_time()
        for p in items:
            t0 = time.perf_counter()
            e = explain_readings(p["surface"], [p["lf0"], p["lf1"]], lexicon=words)
            ms.append((time.perf_counter() - t0) * 1000)
            sizes += [s.size for s in e.situations]
        cpu = time.process_time() - cpu0
        out["per_type"][kind] = {
            "pairs": len(items), "median_ms": round(statistics.median(ms), 2), "max_ms": round(max(ms), 2),
            "cpu_ms_per_pair": round(cpu * 1000 / len(items), 2),
            "median_situation_size": statistics.median(sizes), "max_situation_size": max(sizes),
        }
        all_ms += ms
        all_sizes += sizes
        cpu_total += cpu
        n_total += len(items)
    out["overall"] = {
        "pairs": n_total, "median_ms": round(statistics.median(all_ms), 2), "max_ms": round(max(all_ms), 2),
        "cpu_ms_per_pair": round(cpu_total * 1000 / n_total, 2),
        "median_situation_size": statistics.median(all_sizes), "max_situation_size": max(all_sizes),
        "target_median_ms": 20,
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-type", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--types", default=",".join(AMBIGUOUS_TYPES),
                    help=f"comma-separated ambiguity types (default: all of {', '.join(AMBIGUOUS_TYPES)})")
    args = ap.parse_args(argv)
    types = tuple(t for t in args.types.split(",") if t)
    unknown = sorted(set(types) - set(AMBIGUOUS_TYPES))
    if unknown or not types:
        ap.error(f"--types: unknown {', '.join(unknown) or '(none given)'}; choose from {', '.join(AMBIGUOUS_TYPES)}")
    res = run(args.per_type, args.seed, types)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for kind, r in [*res["per_type"].items(), ("overall", res["overall"])]:
            print(f"{kind:10s} pairs {r['pairs']:4d}  median {r['median_ms']:7.2f} ms  max {r['max_ms']:7.2f} ms  "
                  f"cpu {r['cpu_ms_per_pair']:6.2f} ms/pair  situation size median {r['median_situation_size']} "
                  f"max {r['max_situation_size']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
