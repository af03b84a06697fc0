"""`web_edge_bench.py`: gRPC's latency while the web port is attacked (issue 56's attacks).

Starts `ambit serve --no-model --port 0 --http 0 --runs DIR` (the page in a process of its own,
the default; `--mode in-process` adds `--http-in-process`, `--mode both` runs both one after the
other), then for each attack: a bystander sends a small gRPC request (CheckEquivalence of two
alpha-variants, every 20 ms) for `--quiet` seconds with nothing else going on, then for
`--seconds` while an attacker process hammers the web port. It prints the bystander's p50, p99
and max, quiet and during the attack, its errors, and what the web port answered the attacker.

Attacks (each as the attacker's own process, niced by `--attacker-nice` and, in process mode,
on the web process's CPUs, so that the load generator's own CPU, which a remote attacker would
spend on another machine, weighs little here):
  dropped    40 hard entailments (pigeonhole, each its whole Prolog budget) whose pages leave
             after 0.3 s, again and again
  queued     300 hard entailments with a 5 s deadline, at once, again and again
  unfinished 2 rounds of --connections (10,000) connections sending half a request head
  bodies     16 bodies of 16 MiB at once (a JSON list of small numbers), again and again
  run        the runs viewer on a run of --records (1,200,000) records (225 MB): 4 clients
             asking pages, filters and text searches
  integer    4 clients sending a 5,000-digit `timeout_s`

Target (issue 56): during every attack, p99 within 2x the quiet p99 and no error.

    python benchmarks/web_edge_bench.py [--json] [--mode process|in-process|both] [--attacks a,b]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

ATTACKS = ("dropped", "queued", "unfinished", "bodies", "run", "integer")


# -- the server and the bystander -------------------------------------------------------------
def start_server(mode: str, runs: Path) -> tuple[subprocess.Popen, str, int]:
    cmd = [sys.executable, "-m", "ambit", "serve", "--no-model", "--port", "0", "--http", "0", "--runs", str(runs)]
    if mode == "in-process":
        cmd.append("--http-in-process")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    grpc_address = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if m := re.search(r"ambit server listening on (\S+)", line):
            grpc_address = m.group(1)
        if m := re.search(r"ambit web listening on http://[^:]+:(\d+)/", line):
            port = int(m.group(1))
        if "ambit server ready" in line:
            break
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    _wait_web(port)
    return proc, grpc_address or "", port


def _wait_web(port: int, timeout: float = 60.0) -> None:
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the web page never answered")


def bystander(address: str, seconds: float) -> dict[str, Any]:
    import grpc

    from ambit.proto.v1 import ambit_pb2 as pb
    from ambit.proto.v1 import ambit_pb2_grpc

    req = pb.CheckEquivalenceRequest(a="exists x . forall y . man(x) AND saw(x, y)",
                                     b="exists z . forall w . man(z) AND saw(z, w)")
    lat: list[float] = []
    codes: Counter = Counter()
    with grpc.insecure_channel(address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        stub.CheckEquivalence(req, timeout=30)  # connected
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                stub.CheckEquivalence(req, timeout=30)
                codes["OK"] += 1
            except grpc.RpcError as e:
                codes[e.code().name] += 1
            lat.append(time.monotonic() - t0)
            time.sleep(max(0.0, 0.02 - (time.monotonic() - t0)))
    return {"codes": dict(codes), **_percentiles(lat)}


def _percentiles(lat: list[float]) -> dict[str, Any]:
    lat = sorted(lat)
    if not lat:
        return {"n": 0}
    return {"n": len(lat), "p50_ms": round(1000 * statistics.median(lat), 2),
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2), "max_ms": round(1000 * lat[-1], 2)}


# -- the attacks (each in the attacker's own process) -----------------------------------------
def _request(port: int, path: str, body: bytes | None = None) -> bytes:
    method = b"POST" if body is not None else b"GET"
    head = b"%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n" % (method, path.encode(), port)
    if body is not None:
        head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    return head + b"\r\n" + (body or b"")


async def _exchange(port: int, data: bytes, timeout: float, answers: Counter) -> None:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(data)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        answers[line.split(b" ")[1].decode() if line.count(b" ") >= 2 else "closed"] += 1
        writer.close()
    except (OSError, asyncio.TimeoutError, IndexError):
        answers["no answer"] += 1


def attack(name: str, port: int, seconds: float, connections: int, out: str) -> None:
    from tests.server.abuse import pigeonhole

    answers: Counter = Counter()
    end = time.monotonic() + seconds
    premises, conclusion = pigeonhole(10)

    def hard(timeout_s: float) -> bytes:
        return _request(port, "/api/entailment", json.dumps({"premises": premises, "conclusion": conclusion,
                                                             "format": "folio", "timeout_s": timeout_s}).encode())

    async def dropped() -> None:
        while time.monotonic() < end:
            socks = []
            for _ in range(40):
                try:
                    r, w = await asyncio.open_connection("127.0.0.1", port)
                    w.write(hard(30))
                    socks.append(w)
                except OSError:
                    answers["no answer"] += 1
            answers["dropped"] += len(socks)
            await asyncio.sleep(0.3)
            for w in socks:
                w.transport.abort()

    async def queued() -> None:
        while time.monotonic() < end:
            await asyncio.gather(*(_exchange(port, hard(5), 30, answers) for _ in range(300)))

    async def unfinished() -> None:
        for _ in range(2):
            held = []
            for _ in range(connections):
                try:
                    r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
                    w.write(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1")
                    held.append(w)
                except (OSError, asyncio.TimeoutError):
                    answers["not accepted"] += 1
                if time.monotonic() > end:
                    break
            answers["opened"] += len(held)
            await asyncio.sleep(max(0.0, min(12.0, end - time.monotonic())))
            for w in held:
                w.transport.abort()

    async def bodies() -> None:
        n = (16 * 1024 * 1024 - 64) // 2  # just under the message limit: read, not refused by its length
        body = _request(port, "/api/equivalence", b'{"a": [' + b"0," * (n - 1) + b'0], "b": "p"}')
        while time.monotonic() < end:
            await asyncio.gather(*(_exchange(port, body, 60, answers) for _ in range(16)))

    async def run() -> None:
        paths = ["/api/runs/items?run=0/big&limit=100", "/api/runs/items?run=0/big&offset=1000000&limit=100",
                 "/api/runs/items?run=0/big&outcome=wrong&type=scope", "/api/runs/items?run=0/big&q=scope/4242",
                 "/api/runs/record?run=0/big&id=pp/999999"]

        async def client(i: int) -> None:
            j = i
            while time.monotonic() < end:
                await _exchange(port, _request(port, paths[j % len(paths)]), 60, answers)
                j += 1

        await asyncio.gather(*(client(i) for i in range(4)))

    async def integer() -> None:
        body = _request(port, "/api/equivalence", b'{"a": "p", "b": "p", "timeout_s": ' + b"9" * 5000 + b"}")

        async def client() -> None:
            while time.monotonic() < end:
                await _exchange(port, body, 30, answers)

        await asyncio.gather(*(client() for _ in range(4)))

    soft, hard_limit = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard_limit, hard_limit))
    asyncio.run({"dropped": dropped, "queued": queued, "unfinished": unfinished, "bodies": bodies, "run": run,
                 "integer": integer}[name]())
    Path(out).write_text(json.dumps(dict(answers)))


def big_run(root: Path, records: int) -> None:
    """A run of `records` AmP-like records (about 190 bytes each) under `root`/big."""
    path = root / "big" / "results.jsonl"
    if path.exists():
        return
    path.parent.mkdir(parents=True)
    kinds = ("pp", "scope", "conj")
    with open(path, "w") as fh:
        for i in range(records):
            k = kinds[i % 3]
            fh.write(json.dumps({"id": f"{k}/{i}", "type": k, "ratio": (0.0, 0.5, 1.0)[i % 3],
                                 "surface": "the boy saw the girl with the telescope",
                                 "rank_lf0": 0 if i % 4 == 0 else None, "rank_lf1": None,
                                 "predictions": [{"text": "exists x . boy(x)", "probability": 0.5}]}) + "\n")


def _attacker(nice: int, mode: str) -> None:
    """The attacker stands for a client on another machine: niced, and on the web process's own
    CPUs (in process mode), so that generating the load takes little from the gRPC server."""
    os.nice(nice)
    from ambit.web.serve import web_cpus

    cpus = web_cpus(None)
    if mode == "process" and cpus:
        os.sched_setaffinity(0, set(cpus))


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def run_mode(mode: str, args: argparse.Namespace, runs: Path) -> list[dict]:
    proc, address, port = start_server(mode, runs)
    rows = []
    try:
        for name in args.attacks:
            quiet = bystander(address, args.quiet)
            out = tempfile.mktemp(suffix=".json")
            cpu0 = _cpu_seconds(proc.pid)
            attacker = subprocess.Popen(
                [sys.executable, __file__, "--attack", name, "--port", str(port), "--seconds", str(args.seconds),
                 "--connections", str(args.connections), "--out", out],
                env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'src'}"},
                preexec_fn=lambda: _attacker(args.attacker_nice, mode))
            time.sleep(min(2.0, args.seconds / 4))
            during = bystander(address, max(1.0, args.seconds - 2.0))
            attacker.wait(args.seconds + 120)
            answers = json.loads(Path(out).read_text()) if os.path.exists(out) else {}
            ratio = (during.get("p99_ms") or 0) / max(quiet.get("p99_ms") or 1e-9, 1e-9)
            errors = sum(v for k, v in during["codes"].items() if k != "OK")
            rows.append({"mode": mode, "attack": name, "quiet": quiet, "during": during, "p99_ratio": round(ratio, 2),
                         "errors": errors, "web_answers": answers,
                         "grpc_server_cpu_s": round(_cpu_seconds(proc.pid) - cpu0, 2),
                         "target_met": ratio <= 2.0 and errors == 0})
            time.sleep(args.settle)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--mode", choices=("process", "in-process", "both"), default="process")
    ap.add_argument("--attacks", default=",".join(ATTACKS))
    ap.add_argument("--seconds", type=float, default=30.0, help="attack window (default 30)")
    ap.add_argument("--quiet", type=float, default=10.0, help="quiet window before each attack (default 10)")
    ap.add_argument("--settle", type=float, default=5.0, help="pause after each attack (default 5)")
    ap.add_argument("--connections", type=int, default=10_000, help="unfinished connections a round (default 10,000)")
    ap.add_argument("--records", type=int, default=1_200_000, help="records of the large run (default 1,200,000)")
    ap.add_argument("--attacker-nice", type=int, default=19)
    ap.add_argument("--runs-dir", default=None, help="where the large run is written (default: a temporary folder)")
    ap.add_argument("--attack", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.attack:
        attack(args.attack, args.port, args.seconds, args.connections, args.out)
        return 0
    args.attacks = [a for a in args.attacks.split(",") if a]
    runs = Path(args.runs_dir or tempfile.mkdtemp(prefix="ambit-web-bench-"))
    if "run" in args.attacks:
        big_run(runs, args.records)
    rows = []
    try:
        for mode in (("process", "in-process") if args.mode == "both" else (args.mode,)):
            rows += run_mode(mode, args, runs)
    finally:
        if args.runs_dir is None:
            shutil.rmtree(runs, ignore_errors=True)
    if args.json:
        print(json.dumps({"cores": os.cpu_count(), "rows": rows}, indent=1))
    else:
        print(f"{'mode':<11} {'attack':<11} {'quiet p50/p99':>15} {'attack p50/p99/max':>22} {'ratio':>6} {'err':>4}  web answered")
        for r in rows:
            q, d = r["quiet"], r["during"]
            print(f"{r['mode']:<11} {r['attack']:<11} {q['p50_ms']:>6}/{q['p99_ms']:<7} ms "
                  f"{d['p50_ms']:>6}/{d['p99_ms']}/{d['max_ms']:<8} ms {r['p99_ratio']:>5}x {r['errors']:>4}  "
                  f"{r['web_answers']}")
    return 0 if all(r["target_met"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
