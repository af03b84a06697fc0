"""Equivalence checking speed on AmP pairs: single calls vs batched, side by side in one run.

    .venv/bin/python benchmarks/equiv_bench.py [--json] [--per-type 200] [--batch 500]
    .venv/bin/python benchmarks/equiv_bench.py --section hard [--hard-pairs 700] [--json]
    .venv/bin/python benchmarks/equiv_bench.py --section workers [--per-type 100] [--rounds 5] [--json]
    .venv/bin/python benchmarks/equiv_bench.py --against 68a063c [--per-type 100] [--rounds 3] [--json]
    .venv/bin/python benchmarks/equiv_bench.py --section tail [--tail-pairs 2000] [--json]

Pairs: for every ambiguous item of AmP's zero-shot dev_eval files, (LF0, LF1) (NOT_EQUIVALENT,
with a checked countermodel) and (LF0, its canonical form) (EQUIVALENT): half and half. Archives
are extracted to a temp dir (licence: never into the repository). Reports checks/s and p50/p99
latency per call; a "check" is one pair's verdict with both entailment directions. Pairs whose
canonical forms are equal are answered without Prolog (`canonical_shortcut`); the by-kind
figures show each kind of pair alone and with Prolog deciding every pair. CPU-second
figures (process CPU time, the Prolog worker thread included) make runs on a busy machine comparable.
`workers` compares the same batches on 1 and on 2 Prolog processes (`workers=2`: prolog_pool.py),
beside what the machine gives two processes at all (`machine_speedup_2_vs_1`: a pure CPU loop),
interleaved, medians of --rounds; the speedup is meaningful only on an otherwise idle machine, and
the CPU seconds beside it (this process's, the pool processes') show what the load does not move:
the parent's serial share and the speedup the CPU figures allow (`cpu_bound_speedup`). One
process runs its Python thread (reading, checking) beside its Prolog thread, so it uses more than
one core (`cores_1_worker`); two such processes share two cores, and 2 workers can gain at most
`speedup_ceiling_2_cores` (2 x one worker's wall-clock over the CPU seconds 2 workers spend).
`--against REF` runs the same pairs through this checkout and through commit REF (its files in a
temporary folder, written by `git archive`: benchmarks/against.py), interleaved round by round, and
prints per kind (all, NOT_EQUIVALENT, EQUIVALENT, Prolog only, hard, single-call p50/p99) both
rates, CPU-seconds beside wall-clock, and the ratio this/REF (> 1: this checkout is faster), with
any verdict that differs.

`tail` (and the `tail` kind of `--against`, run once: its pairs are the slow ones) is the engine's
worst case: pairs of the three kinds that cost most (tests/helpers/amp_tail_pairs.py: prefixes of
4-6 alternating quantifiers over 2-10 atoms with one bound-variable occurrence renamed, the same
with an adjacent ∃∀ swapped, and rewrites that keep the meaning), one call each, the CPU seconds
of every call (this process's: Python and its Prolog thread) with their maximum, p99 and p99.9,
the UNKNOWN count, and every verdict held against E (5 s a direction) and, where E gives no
answer, Z3 (2 s) where they decide: `wrong` counts the verdicts one of them contradicts.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import tarfile
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: logic, and tests/ for the pair generator

from ambit import logic  # noqa: E402
from ambit.logic.runtime import pool as prolog_pool  # noqa: E402

AMP = Path(__file__).resolve().parents[2] / "shared" / "data" / "amp" / "zeroshot"


def amp_pairs(per_type: int) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for archive in sorted(AMP.glob("*/data.tar.gz")):
            with tarfile.open(archive) as tar:
                member = next(m for m in tar.getmembers() if m.name.endswith("dev_eval.jsonl"))
                tar.extractall(tmp, members=[member], filter="data")
                rows = [json.loads(x) for x in open(Path(tmp) / member.name, encoding="utf-8") if x.strip()]
            n = 0
            for r0, r1 in zip(rows, rows[1:]):
                if n < per_type and r0["surface"] == r1["surface"] and (r0["template_idx"], r1["template_idx"]) == (0, 1):
                    pairs.append((r0["lf"], r1["lf"]))
                    pairs.append((r0["lf"], logic.canonical_form(r0["lf"])))
                    n += 1
    return pairs


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def lat(xs: list[float]) -> dict:
    return {"p50_ms": round(pct(xs, 0.5) * 1e3, 3), "p99_ms": round(pct(xs, 0.99) * 1e3, 3),
            "mean_ms": round(statistics.fmean(xs) * 1e3, 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--per-type", type=int, default=200, help="AmP items per ambiguity type")
    ap.add_argument("--batch", type=int, default=500, help="pairs per batched call")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the by-kind figures (median)")
    ap.add_argument("--section", choices=("all", "hard", "workers", "tail"), default="all",
                    help="all (default): every section; hard: the generated hard-kind pairs alone; "
                         "workers: 1 vs 2 Prolog processes alone; tail: the generated tail kinds alone")
    ap.add_argument("--tail-pairs", type=int, default=2000, help="generated pairs of the three tail kinds")
    ap.add_argument("--tail-seed", type=int, default=0, help="the tail pairs' random seed")
    ap.add_argument("--no-oracle", action="store_true", help="tail: do not hold the verdicts against E and Z3")
    ap.add_argument("--hard-pairs", type=int, default=700, help="generated AmP pairs of the hard kinds")
    ap.add_argument("--against", metavar="REF", help="compare this checkout with commit REF, side by side in one run")
    args = ap.parse_args(argv)
    if args.against:
        return _print(against_section(args), args.json)
    if args.section == "hard":
        return _print({"hard_pairs": hard_section(args.hard_pairs)}, args.json)
    if args.section == "tail":
        return _print({"tail": tail_section(args.tail_pairs, args.tail_seed, not args.no_oracle)}, args.json)
    if not AMP.exists():
        print(f"AmP data not found at {AMP}", file=sys.stderr)
        return 2
    pairs = amp_pairs(args.per_type)
    if args.section == "workers":
        logic.equivalent_batch(pairs[:50])  # warm up: start Prolog, load the program
        return _print({"pairs": len(pairs), "workers": workers_section(pairs, args.batch, args.rounds)}, args.json)
    asts = [(logic.parse(a), logic.parse(b)) for a, b in pairs]
    logic.equivalent_batch(asts[:50])  # warm up: start Prolog, load the program

    # single calls, strings in (parse included) and ASTs in
    single_str, verdicts, c0 = [], Counter(), time.process_time()
    for a, b in pairs:
        t = time.perf_counter()
        v = logic.equivalent(a, b)
        single_str.append(time.perf_counter() - t)
        verdicts[v.verdict] += 1
    single_cpu = time.process_time() - c0
    single_ast = []
    for a, b in asts:
        t = time.perf_counter()
        logic.equivalent(a, b)
        single_ast.append(time.perf_counter() - t)

    # batched
    batch_lat, t0, c0 = [], time.perf_counter(), time.process_time()
    for i in range(0, len(pairs), args.batch):
        t = time.perf_counter()
        logic.equivalent_batch(pairs[i : i + args.batch])
        batch_lat.append(time.perf_counter() - t)
    batch_total, batch_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(0, len(asts), args.batch):
        logic.equivalent_batch(asts[i : i + args.batch])
    batch_ast_total, batch_ast_cpu = time.perf_counter() - t0, time.process_time() - c0
    # the same batches with Prolog deciding every pair (no equal-canonical-form shortcut), and
    # each kind of pair alone, so the mix's figure can be read apart
    # Each configuration runs --rounds times, interleaved with the others, and reports its
    # median, so a burst of load on this shared machine does not favour one of them.
    def batched(ps, **kw) -> float:
        t0 = time.perf_counter()
        for i in range(0, len(ps), args.batch):
            logic.equivalent_batch(ps[i : i + args.batch], **kw)
        return len(ps) / (time.perf_counter() - t0)

    configs = {"all_pairs": (pairs, {}),
               "all_pairs_prolog_only": (pairs, {"canonical_shortcut": False}),
               "not_equivalent_pairs": (pairs[0::2], {}),
               "equivalent_pairs": (pairs[1::2], {}),
               "equivalent_pairs_prolog_only": (pairs[1::2], {"canonical_shortcut": False})}
    rates: dict[str, list[float]] = {k: [] for k in configs}
    for _ in range(args.rounds):
        for k, (ps, kw) in configs.items():
            rates[k].append(batched(ps, **kw))
    by_kind = {k: round(statistics.median(v), 1) for k, v in rates.items()}

    workers = workers_section(pairs, args.batch, args.rounds)

    n = len(pairs)
    out = {
        "pairs": n,
        "verdicts": dict(verdicts),
        "single_calls": {"checks_per_s": round(n / sum(single_str), 1), **lat(single_str),
                         "checks_per_cpu_s": round(n / single_cpu, 1)},
        "single_calls_ast_input": {"checks_per_s": round(n / sum(single_ast), 1), **lat(single_ast)},
        "batched": {"batch_size": args.batch, "checks_per_s": round(n / batch_total, 1),
                    "per_batch": lat(batch_lat), "per_check_ms": round(batch_total / n * 1e3, 3),
                    "checks_per_cpu_s": round(n / batch_cpu, 1)},
        "batched_ast_input": {"checks_per_s": round(n / batch_ast_total, 1),
                              "checks_per_cpu_s": round(n / batch_ast_cpu, 1)},
        "batched_checks_per_s_by_kind": by_kind,
        "workers": workers,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "batch_speedup_vs_single": round(sum(single_str) / batch_total, 2),
    }
    out["hard_pairs"] = hard_section(args.hard_pairs)
    out["tail"] = tail_section(args.tail_pairs, args.tail_seed, not args.no_oracle)
    return _print(out, args.json)


def against_section(args: argparse.Namespace) -> dict:
    """This checkout against commit `args.against` on the same pairs (benchmarks/against.py)."""
    from benchmarks.against import compare
    from ambit.logic import to_fol
    from tests.helpers.amp_hard_pairs import hard_pairs

    if not AMP.exists():
        raise SystemExit(f"AmP data not found at {AMP}")
    pairs = amp_pairs(args.per_type)
    from tests.helpers.amp_tail_pairs import tail_pairs

    tail = tail_pairs(args.tail_pairs, args.tail_seed)
    sets = {"amp": pairs, "amp_not_equivalent": pairs[0::2], "amp_equivalent": pairs[1::2],
            "amp_single": pairs, "hard": [(to_fol(a), to_fol(b)) for _, a, b in hard_pairs(args.hard_pairs, 0)],
            "tail": [(to_fol(a), to_fol(b)) for _, a, b in tail]}
    out = compare(args.against, sets, args.rounds, args.batch)
    if not args.no_oracle:  # both trees' tail verdicts held against E and Z3
        truth = oracle([(a, b) for _, a, b in tail])
        row = out["kinds"]["tail"]
        for tag in ("new", "old"):
            row[tag]["wrong"] = wrong(row.pop(f"verdicts_list_{tag}"), truth)
        row["oracle"] = _oracle_summary(truth)
    return out


def cpu_with_ended_children() -> float:
    """This process's CPU seconds and those of the child processes it has waited for (E's, where
    the engine leaves a pair open and E settles it: one process per direction, ended within the call)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + r.ru_utime + r.ru_stime


def tail_stats(cpu: list[float]) -> dict:
    """The worst of the CPU seconds per pair: maximum, p99.9, p99 (nearest rank) and p50."""
    return {"max_s": round(max(cpu), 4), "p999_s": round(pct(cpu, 0.999), 4), "p99_s": round(pct(cpu, 0.99), 4),
            "p50_s": round(pct(cpu, 0.5), 5), "total_cpu_s": round(sum(cpu), 2)}


def tail_section(n: int, seed: int = 0, check: bool = True) -> dict:
    """This checkout on `n` generated pairs of the tail kinds, one call each: the CPU seconds of
    every call (maximum, p99.9, p99), the verdicts per kind and the UNKNOWN pairs, and (`check`)
    every verdict held against E and Z3 where they decide."""
    from ambit.logic import to_fol
    from tests.helpers.amp_tail_pairs import tail_pairs

    pairs = tail_pairs(n, seed)
    logic.equivalent(pairs[0][1], pairs[0][2])  # warm up: start Prolog, load the program
    cpu, verdicts, reasons, by_kind = [], [], [], {}
    for kind, a, b in pairs:
        c0 = cpu_with_ended_children()
        v = logic.equivalent(a, b)
        cpu.append(cpu_with_ended_children() - c0)
        verdicts.append(v.verdict)
        reasons.append((v.witness or {}).get("reason"))
        by_kind.setdefault(kind, Counter())[v.verdict] += 1
    out = {"pairs": len(pairs), "seed": seed, **tail_stats(cpu), "unknown": verdicts.count("UNKNOWN"),
           "verdicts_by_kind": {k: dict(c) for k, c in sorted(by_kind.items())},
           "unknown_pairs": [{"kind": k, "a": to_fol(a), "b": to_fol(b), "reason": r}
                             for (k, a, b), v, r in zip(pairs, verdicts, reasons) if v == "UNKNOWN"][:20],
           "slowest": [{"kind": pairs[i][0], "cpu_s": round(cpu[i], 3), "verdict": verdicts[i]}
                       for i in sorted(range(len(cpu)), key=cpu.__getitem__)[-5:]],
           "load_average_1min": round(os.getloadavg()[0], 2)}
    if check:
        truth = oracle([(a, b) for _, a, b in pairs])
        out["wrong"] = wrong(verdicts, truth)
        out["oracle"] = _oracle_summary(truth)
    return out


def oracle(pairs: list, e_seconds: float = 5.0, z3_seconds: float = 2.0, threads: int = 2) -> list[tuple]:
    """Per pair, each direction's entailment as E and as Z3 decide it (True, False, or None when
    one gives no answer): [((e_ab, z3_ab), (e_ba, z3_ba)), ...]. E and Z3 run as processes of
    their own (Z3 in this process, its own context per check), `threads` at a time; a prover that
is not installed answers None."""
    from concurrent.futures import ThreadPoolExecutor

    from ambit.logic.provers import eprover, z3_prover
    from ambit.logic.syntax.ast import Not

    has_e, has_z3 = eprover.available(), z3_prover.available()
    one_z3 = threading.Lock()  # Z3 in this process: one check at a time

    def one(x, y) -> tuple:
        e = eprover.prove([x], y, e_seconds, proof_object=False).proved if has_e else None
        z = None
        if has_z3 and e is None:  # in this process (a Z3 process per check would cost more than most checks)
            with one_z3:
                r = z3_prover.Z3Check([x, Not(y)], z3_seconds).result()
            z = True if r.status == "unsat" else False if r.status == "sat" else None
        return e, z

    with ThreadPoolExecutor(threads) as pool:
        ab = list(pool.map(lambda p: one(p[0], p[1]), pairs))
        ba = list(pool.map(lambda p: one(p[1], p[0]), pairs))
    return list(zip(ab, ba))


def wrong(verdicts: list[str], truth: list[tuple]) -> int:
    """How many verdicts E or Z3 contradict: EQUIVALENT where one of them refutes a direction,
    NOT_EQUIVALENT where they prove both directions between them."""
    bad = 0
    for v, (ab, ba) in zip(verdicts, truth):
        refuted = False in ab or False in ba
        proved = True in ab and True in ba
        bad += (v == "EQUIVALENT" and refuted) or (v == "NOT_EQUIVALENT" and proved)
    return bad


def _oracle_summary(truth: list[tuple]) -> dict:
    """How many directions E and Z3 each decided, and how many pairs neither decided fully."""
    dirs = [d for ab, ba in truth for d in (ab, ba)]
    return {"directions": len(dirs), "decided_by_e": sum(e is not None for e, _ in dirs),
            "decided_by_z3": sum(z is not None for _, z in dirs),
            "e_z3_disagree": sum(e is not None and z is not None and e != z for e, z in dirs),
            "pairs_undecided": sum(all(e is None and z is None for e, z in (ab, ba)) for ab, ba in truth)}


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of processes `pids` so far (Linux /proc; 0 where unreadable)."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            pass
    return total


def workers_section(pairs: list[tuple[str, str]], batch: int, rounds: int) -> dict:
    """1 vs 2 Prolog processes on the same batches (the pool started and warmed first), interleaved,
    medians of `rounds`. Beside pairs/s, the CPU seconds each configuration spent, split into this
    (the parent) process — for 1 worker: the whole work, Python and its Prolog thread — and the
    pool's processes: the parent's share with 2 workers is the serial part of the work (splitting,
    sending, joining), which the speedup cannot beat; `cpu_bound_speedup` is the speedup the CPU
    figures allow on two idle cores (1 worker's CPU seconds over the busiest of parent and pool
    processes with 2), a figure the machine's other load does not move the way it moves wall time."""
    prolog_pool.warm(2, "equivalence.pl", "json_call.pl")
    logic.equivalent_batch(pairs[:batch], workers=2)
    pids = prolog_pool.pool(2).pids()

    def batched(**kw) -> tuple[float, float, list[float]]:
        c0, p0 = time.process_time(), [_cpu_seconds([p]) for p in pids]
        t0 = time.perf_counter()
        for i in range(0, len(pairs), batch):
            logic.equivalent_batch(pairs[i : i + batch], **kw)
        rate = len(pairs) / (time.perf_counter() - t0)
        return rate, time.process_time() - c0, [_cpu_seconds([p]) - c for p, c in zip(pids, p0)]

    out: dict = {}
    machine: list[float] = []
    with multiprocessing.get_context("spawn").Pool(2) as ref:
        ref.map(_burn, [1, 1])
        for k, kw in (("all_pairs", {}), ("all_pairs_prolog_only", {"canonical_shortcut": False})):
            runs: dict[int, list] = {1: [], 2: []}
            for _ in range(rounds):
                for w in (1, 2):
                    runs[w].append(batched(workers=w, **kw))
                machine.append(_machine_speedup(ref))
            med = lambda xs: statistics.median(xs)  # noqa: E731
            r1, r2 = med([r for r, _, _ in runs[1]]), med([r for r, _, _ in runs[2]])
            cpu1 = med([c for _, c, _ in runs[1]])
            parent2 = med([c for _, c, _ in runs[2]])
            pool2 = [med([ws[i] for _, _, ws in runs[2]]) for i in range(len(pids))]
            cpu2 = parent2 + sum(pool2)
            wall1 = len(pairs) / r1
            out[k] = {"1": round(r1, 1), "2": round(r2, 1), "speedup_2_vs_1": round(r2 / r1, 2),
                      "cpu_s_1_worker": round(cpu1, 3), "cpu_s_2_workers_parent": round(parent2, 3),
                      "cpu_s_2_workers_pool": [round(c, 3) for c in pool2],
                      "cpu_bound_speedup": round(cpu1 / max(parent2, *pool2), 2) if max(parent2, *pool2) > 0 else None,
                      # one process overlaps its own Python and Prolog threads (cores_1_worker > 1),
                      # so on 2 cores 2 workers can gain at most 2 * wall(1) / CPU(2): the ceiling
                      "cores_1_worker": round(cpu1 / wall1, 2),
                      "speedup_ceiling_2_cores": round(2 * wall1 / cpu2, 2) if cpu2 > 0 else None}
    # what this machine gives two processes at all, measured between the rounds above: a pure
    # CPU loop on 1 and on 2 processes (on a VM whose two vCPUs share a core, far below 2)
    out["machine_speedup_2_vs_1"] = round(statistics.median(machine), 2)
    out["load_average_1min"] = round(os.getloadavg()[0], 2)
    return out


def _burn(n: int) -> int:
    """A pure CPU loop of n steps (no memory traffic to speak of)."""
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def _machine_speedup(ref, n: int = 3_000_000) -> float:
    """Two loops one after the other on one process over the same two side by side on `ref`'s two."""
    t0 = time.perf_counter()
    ref.map(_burn, [n], chunksize=1)
    ref.map(_burn, [n], chunksize=1)
    t1 = time.perf_counter()
    ref.map(_burn, [n, n], chunksize=1)
    return (t1 - t0) / (time.perf_counter() - t1)


def _print(out: dict, as_json: bool) -> int:
    if as_json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:28} {v}")
    return 0


def hard_section(n: int, seed: int = 0) -> dict:
    """Generated AmP-vocabulary pairs of the hard kinds (tests/helpers/amp_hard_pairs.py): AmP's
    procedure on all of them in one batch, Z3 on each direction; every pair left UNKNOWN is named
    with its reason, and with what the portfolio (E and Z3 beside Prolog) answers for it."""
    import shutil

    from ambit.logic import to_fol
    from ambit.logic.provers import portfolio
    from tests.helpers.amp_hard_pairs import hard_pairs
    from tests.helpers.z3_pairs import z3_entails

    pairs = hard_pairs(n, seed)
    t0 = time.perf_counter()
    verdicts = logic.equivalent_batch([(a, b) for _, a, b in pairs])
    dt = time.perf_counter() - t0
    by_kind: dict[str, Counter] = {}
    disagreements, unknown = [], []
    for (kind, a, b), v in zip(pairs, verdicts):
        by_kind.setdefault(kind, Counter())[v.verdict] += 1
        z = (z3_entails(a, b), z3_entails(b, a))
        if any(o is not None and t is not None and o != t for o, t in zip((v.a_entails_b, v.b_entails_a), z)):
            disagreements.append({"kind": kind, "a": to_fol(a), "b": to_fol(b), "ours": [v.a_entails_b, v.b_entails_a],
                                  "z3": list(z)})
        if v.verdict == "UNKNOWN":
            row = {"kind": kind, "a": to_fol(a), "b": to_fol(b), "reason": (v.witness or {}).get("reason"),
                   "z3": list(z)}
            if shutil.which("eprover"):
                pv = portfolio.equivalent(a, b, prover="portfolio")
                row["portfolio"] = {"verdict": pv.verdict, "answered_by": pv.witness.get("answered_by")}
            unknown.append(row)
    return {"pairs": len(pairs), "seed": seed, "checks_per_s": round(len(pairs) / dt, 1),
            "verdicts_by_kind": {k: dict(c) for k, c in sorted(by_kind.items())},
            "unknown": len(unknown), "unknown_pairs": unknown,
            "settled_by_portfolio": sum(r.get("portfolio", {}).get("verdict", "UNKNOWN") != "UNKNOWN" for r in unknown),
            "z3_disagreements": disagreements}


if __name__ == "__main__":
    sys.exit(main())
