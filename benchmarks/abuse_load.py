"""`load_test.py --storm` and `--silent`: what a bystander sees while the server is abused.

storm:  --clients (default 50) clients, each on its own connection, send hard entailments
        (pigeonhole, 10 holes: each uses its whole Prolog budget) for --storm seconds, while one
        bystander sends a trivial check every 0.2 s, alternating a CheckEquivalence decided
        without Prolog (alpha-variants: the canonical forms match) and a CheckEntailment that
        needs Prolog (P(a) |- P(a)). The bystander's p50/p99/max per kind, measured first alone
        (baseline) and then during the storm, side by side; the storm's onset (its first 10 s,
        when every client's first call arrives at once) apart. Target: p99 < 1 s during the
        storm after its onset.
silent: --silent N calls (default 1,000) that send headers and never a message, from 5
        connections, while a prober times health checks and a trivial Canonicalize. Target:
        every probe within 1 s.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from typing import Any, Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from tests.server.abuse import SilentCalls, pigeonhole

EQUIV = pb.CheckEquivalenceRequest(a="exists x . forall y . man(x) AND saw(x, y)",
                                   b="exists z . forall w . man(z) AND saw(z, w)")
ENTAIL = pb.CheckEntailmentRequest(premises=["P(a)"], conclusion="P(a)", format=pb.LF_FORMAT_FOLIO)


def _percentiles(lat: list[float]) -> dict[str, Any]:
    lat = sorted(lat)
    if not lat:
        return {"n": 0}
    return {"n": len(lat), "p50_ms": round(1000 * statistics.median(lat), 1),
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1), "max_ms": round(1000 * lat[-1], 1)}


def bystander(address: str, seconds: float, timeout: float, onset: float = 0.0) -> dict[str, Any]:
    """Trivial checks every 0.2 s for `seconds`: latency per kind (errors count as their
    deadline); the calls started in the first `onset` seconds are reported apart."""
    lat: dict[str, list[float]] = {"equivalence_no_prolog": [], "entailment_prolog": []}
    early: list[float] = []
    codes: Counter = Counter()
    with grpc.insecure_channel(address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        kinds: list[tuple[str, Callable[[], Any]]] = [
            ("equivalence_no_prolog", lambda: stub.CheckEquivalence(EQUIV, timeout=timeout)),
            ("entailment_prolog", lambda: stub.CheckEntailment(ENTAIL, timeout=timeout))]
        start = time.monotonic()
        end, i = start + seconds, 0
        while time.monotonic() < end:
            name, call = kinds[i % 2]
            i += 1
            t0 = time.monotonic()
            try:
                call()
                codes["OK"] += 1
            except grpc.RpcError as e:
                codes[e.code().name] += 1
            (early if t0 - start < onset else lat[name]).append(time.monotonic() - t0)
            time.sleep(max(0.0, 0.2 - (time.monotonic() - t0)))
    out = {"codes": dict(codes), **{k: _percentiles(v) for k, v in lat.items()}}
    if onset:
        out["onset"] = {"seconds": onset, **_percentiles(early)}
    return out


def storm(address: str, clients: int, seconds: float, timeout: float = 20.0, onset: float = 10.0) -> dict[str, Any]:
    """The bystander alone, then during `clients` hard-entailment clients. The storm's first
    `onset` seconds are reported apart: every client's first call arrives at once then, each
    with no Prolog time used yet, so the bystander waits behind one first quantum of each
    (`prolog_lanes.FIRST_QUANTUM_S`). The target (p99 < 1 s) holds for both: the steady storm
    (`bystander_p99_ms`) and its onset (`onset_p99_ms`)."""
    baseline = bystander(address, min(5.0, seconds), timeout)
    premises, conclusion = pigeonhole(10)  # 7 holes: the Herbrand/SAT stage settles them in 0.5 s
    hard = pb.CheckEntailmentRequest(premises=premises, conclusion=conclusion, format=pb.LF_FORMAT_FOLIO)
    stop, codes, lock = threading.Event(), Counter(), threading.Lock()

    def attacker(i: int) -> None:
        with grpc.insecure_channel(address, options=[("ambit.storm", i)]) as ch:  # one connection each
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            while not stop.is_set():
                try:
                    stub.CheckEntailment(hard, timeout=timeout)
                    code = "OK"
                except grpc.RpcError as e:
                    code = e.code().name
                    if code == "RESOURCE_EXHAUSTED":
                        time.sleep(0.5)
                with lock:
                    codes[code] += 1

    threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    during = bystander(address, seconds, timeout, onset=min(onset, seconds / 2))
    stop.set()
    for t in threads:
        t.join(timeout + 5)
    p99 = max(during[k].get("p99_ms") or 0 for k in ("equivalence_no_prolog", "entailment_prolog"))
    onset_p99 = during.get("onset", {}).get("p99_ms") or 0
    return {"clients": clients, "seconds": seconds, "baseline": baseline, "storm": during,
            "storm_codes": dict(codes), "bystander_p99_ms": p99, "onset_p99_ms": onset_p99,
            "target_met": p99 < 1000 and onset_p99 < 1000}


def silent(address: str, n: int, probes: int = 20) -> dict[str, Any]:
    """Health and Canonicalize latencies with `n` silent calls open (and before, for the ratio)."""

    def probe() -> dict[str, list[float]]:
        out: dict[str, list[float]] = {"health": [], "canonicalize": []}
        with grpc.insecure_channel(address) as ch:
            h, s = health_pb2_grpc.HealthStub(ch), ambit_pb2_grpc.AmbitServiceStub(ch)
            for _ in range(probes):
                t0 = time.monotonic()
                h.Check(health_pb2.HealthCheckRequest(), timeout=30)
                t1 = time.monotonic()
                s.Canonicalize(pb.CanonicalizeRequest(lf="exists x . man(x)"), timeout=30)
                out["health"].append(t1 - t0)
                out["canonicalize"].append(time.monotonic() - t1)
        return out

    before = probe()
    with SilentCalls(address, n, connections=5):
        during = probe()
    worst = max(max(v) for v in during.values())
    return {"silent_calls": n, "before": {k: _percentiles(v) for k, v in before.items()},
            "during": {k: _percentiles(v) for k, v in during.items()}, "worst_ms": round(1000 * worst, 1),
            "target_met": worst < 1.0}
