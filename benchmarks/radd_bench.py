"""RADD verification throughput: instances verified per second, batched vs one goal each.

    python benchmarks/radd_bench.py [--json] [--data DIR] [--repeat N]

Measured side by side in one run on the benchmark's distinct instances (or the demo facts'
generated instances when ../shared/data is absent).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ambit.generators.radd import load_jsonl, render_prompt  # noqa: E402
from ambit.generators.radd.generate import generate, load_facts  # noqa: E402
from ambit.logic.radd import verify, verify_batch  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "radd" / "benchmark"


def instances(data: Path):
    if data.exists():
        seen, out = set(), []
        for f in sorted(data.glob("*/*_results_*.jsonl")):
            for inst in load_jsonl(f):
                key = render_prompt(inst)
                if key not in seen:
                    seen.add(key)
                    out.append(inst)
        return out, str(data)
    demo = ROOT / "src" / "ambit" / "generators" / "radd" / "data" / "demo_facts.json"
    return [i for n, fs in enumerate(load_facts(demo)) for i in generate(fs, seed=n)], str(demo)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--single", type=int, default=100, help="instances for the one-goal-each measurement")
    args = p.parse_args(argv)

    t0 = time.perf_counter()
    insts, source = instances(args.data)
    parse_s = time.perf_counter() - t0
    verify_batch(insts[:5])  # start the worker, consult radd.pl

    batched, batched_cpu = [], []
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        verdicts = verify_batch(insts)
        batched.append(time.perf_counter() - t)
        batched_cpu.append(time.process_time() - c)
    single_n = min(args.single, len(insts))
    t, c = time.perf_counter(), time.process_time()
    for inst in insts[:single_n]:
        verify(inst)
    single_s, single_cpu = time.perf_counter() - t, time.process_time() - c

    best = min(batched)
    result = {
        "benchmark": "radd_verify",
        "source": source,
        "instances": len(insts),
        "answered": sum(v.status == "one" for v in verdicts),
        "batched_instances_per_s": len(insts) / best,
        "single_instances_per_s": single_n / single_s,
        "batch_speedup": (len(insts) / best) / (single_n / single_s),
        # CPU seconds of this process (Prolog runs embedded in it): steadier on a shared machine
        "batched_instances_per_cpu_s": len(insts) / min(batched_cpu),
        "single_instances_per_cpu_s": single_n / single_cpu,
        "load_average_1min": os.getloadavg()[0],
        "batched_seconds": batched,
        "load_seconds": parse_s,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{len(insts)} instances from {source}")
        print(f"batched: {result['batched_instances_per_s']:.0f} instances/s (best of {args.repeat})")
        print(f"one goal each: {result['single_instances_per_s']:.0f} instances/s "
              f"-> batching x{result['batch_speedup']:.1f}")
        print(f"per CPU second: batched {result['batched_instances_per_cpu_s']:.0f}, "
              f"one goal each {result['single_instances_per_cpu_s']:.0f} (load {result['load_average_1min']:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
