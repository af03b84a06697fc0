"""Items per second of one suite (implicature, likelihood ranking: one scoring request per item)
through a vLLM server at concurrency 1, 4 and 16, beside the embedded engine, in one run; and the
share of each item's wall time that ambit itself spends (prompting, gRPC, parsing the answer),
i.e. not waiting for the endpoint. Target: below 10% at concurrency 16.

``python benchmarks/remote_bench.py [--base-url URL] [--items N] [--levels 1,4,16] [--json]``.

``--hostile`` instead measures the HTTP layer against a misbehaving stand-in endpoint on 127.0.0.1
(no vLLM, no data; tests/server/remote/hostile.py): the requests/s of the httpx client with a
toy endpoint that answers at once (1 and 16 threads), and for a body that never ends, a 100 MB
body, a body that outlasts the deadline and 16 trickling calls: the seconds each takes to end,
how far past its deadline, and the process's peak RSS over its idle RSS.
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
from ambit.client.eval.implicature import suite as I  # noqa: E402
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


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _timed(fn) -> dict:
    """Seconds `fn()` takes to end (normally or not), the error's first words, peak RSS / idle."""
    import threading

    idle = peak = _rss()
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.wait(0.01):
            peak = max(peak, _rss())
    w = threading.Thread(target=watch, daemon=True)
    w.start()
    t0 = time.perf_counter()
    error = ""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - what ended it is the figure
        error = f"{type(e).__name__}: {str(e)[:90]}"
    seconds = time.perf_counter() - t0
    done.set()
    w.join()
    return {"seconds": round(seconds, 3), "peak_rss_over_idle": round(peak / idle, 3), "ended_by": error}


def hostile(requests: int = 400) -> dict:
    """The HTTP layer's figures against the stand-in (see the module's docstring)."""
    from tests.server.remote.hostile import Hostile

    from ambit.server.remote.backend import RemoteBackend
    from ambit.server.remote.http import Endpoint
    from ambit.server.remote.spec import parse_spec

    s = Hostile().start()
    out: dict = {}
    try:
        ep = Endpoint(parse_spec(f"openai:standin@{s.url}"), RemoteOptions(cache_dir=None, max_concurrency=16))
        body = {"prompt": ["Human: is it raining? Computer: yes"], "max_tokens": 0, "echo": True, "logprobs": 1}
        ep.post("/completions", body)
        for threads in (1, 16):
            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=threads) as pool:
                list(pool.map(lambda _i: ep.post("/completions", body), range(requests)))
            out[f"requests_per_s_{threads}_threads"] = round(requests / (time.perf_counter() - t0), 1)
        ep.close()

        def load(**kw):
            s.mode = None  # the probe meets a healthy endpoint
            return RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(cache_dir=None, retries=0, **kw))

        def score(be):
            return lambda: be.score_batch([("Human: is it raining? Computer:", [" yes", " no"])])
        be = load()  # the default cap, 8 MiB
        s.mode = "endless"  # 1 MB every 0.02 s
        out["endless_body_default_cap"] = _timed(score(be))
        s.mode = "huge"  # 100 MB with its Content-Length
        out["body_100mb"] = _timed(score(be))
        be.close()
        be = load(timeout_s=2.0, max_response_bytes=10**9)
        s.mode, s.chunk = "endless", 1024  # stays under the cap past the deadline
        r = _timed(score(be))
        time.sleep(0.2)
        r["past_deadline_s"] = round(r["seconds"] - 2.0, 3)
        r["streams_still_open"] = s.streams_open
        out["endless_body_2s_deadline"] = r
        be.close()
        s.mode, s.chunk = None, 1024 * 1024
        srv = serve(model=f"openai:standin@{s.url}", port=0, remote=RemoteOptions(cache_dir=None, retries=0))
        try:
            with Client(f"127.0.0.1:{srv.port}") as c:
                c.score("Human: warm? Computer:", [" yes", " no"])
                s.mode = "trickle"  # 1 byte a second
                t0 = time.perf_counter()
                with ThreadPoolExecutor(max_workers=16) as pool:
                    codes = list(pool.map(lambda i: _code(lambda: c.score(f"Q {i}:", [" yes", " no"], timeout=1.0)),
                                          range(16)))
                s.mode = None
                t1 = time.perf_counter()
                c.score("Human: healthy again? Computer:", [" yes", " no"], timeout=30)
                next_call = time.perf_counter() - t1
                time.sleep(1.2)  # the stand-in notices a closed connection at its next byte, a second on
                out["trickle_16_calls_1s_deadline"] = {
                    "codes": sorted(set(codes)), "calls_end_s": round(t1 - t0, 3),
                    "next_call_s": round(next_call, 3), "streams_still_open_after_1s": s.streams_open}
        finally:
            srv.stop(0)
    finally:
        s.kill()
    return out


def _code(fn) -> str:
    try:
        fn()
        return "OK"
    except Exception as e:  # noqa: BLE001
        return getattr(e, "code", type(e).__name__)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", help="a vLLM (or other OpenAI-compatible) server already serving the default "
                                       f"model as {V.SERVED_NAME!r}; default: start one")
    ap.add_argument("--items", type=int, default=33, help="implicature items per level, warm-up included (default 33)")
    ap.add_argument("--levels", default="1,4,16", help="concurrency levels (default 1,4,16)")
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("AMBIT_DATA") or DEFAULT_DATA))
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--hostile", action="store_true",
                    help="measure the HTTP layer against a misbehaving stand-in instead (no vLLM, no data)")
    args = ap.parse_args(argv)
    if args.hostile:
        print(json.dumps(hostile(), indent=2 if args.json else None))
        return 0
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
