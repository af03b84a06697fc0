"""ambit as NLTK's prover, timed against NLTK's pure-Python provers on NLTK's own examples.

The examples are the claims of NLTK's inference doctests (tests/helpers/nltk_doctests.py): the
provability claims of resolution.doctest, the plain Prover9Command claims of inference.doctest and
nonmonotonic.doctest, and discourse.doctest's informativity and consistency claims (a thread is
consistent when no proof of a contradiction exists: `prove(None, readings)` is False). Each is
asked of `ambit.nltk.Prover`, `nltk.ResolutionProver` and `nltk.TableauProver`, each call timed
(wall clock, one process, one call at a time); an answer that disagrees with NLTK's documented one
is counted, and so is a call that ran into its time limit (NLTK's provers answer False then; ambit
raises Prover9LimitExceededException, counted as a time-out).

    python benchmarks/nltk_bench.py [--timeout 5] [--repeat 3] [--json]

It also times reading NLTK's Expression objects directly (ambit.nltk.from_expression) against
the string round trip (`parse(str(e), "nltk")`). Results: docs/logic.md, "ambit as NLTK's prover".
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nltk.inference.prover9 import Prover9LimitExceededException  # noqa: E402
from nltk.inference.resolution import ResolutionProver  # noqa: E402
from nltk.inference.tableau import TableauProver  # noqa: E402
from nltk.sem import Expression  # noqa: E402

import ambit.nltk  # noqa: E402
from ambit.logic import parse  # noqa: E402
from tests.helpers import nltk_doctests  # noqa: E402


def examples() -> list[tuple[str, str | None, list[str], bool]]:
    """(label, goal or None, assumptions, documented answer of `prove`)."""
    out = []
    for c in nltk_doctests.resolution_claims():
        out.append((f"resolution: {c.goal}", c.goal, list(c.assumptions), c.expected))
    for c in nltk_doctests.doctest_claims():
        out.append((f"{c.source.split(':')[0]}: {c.goal}", c.goal, list(c.assumptions), c.expected))
    for c in nltk_doctests.discourse_claims():
        if c.kind == "proves":
            out.append((f"discourse: {c.source}", c.goal, list(c.assumptions), c.expected))
        else:  # consistent: no contradiction to prove
            out.append((f"discourse: {c.source[:60]}", None, list(c.assumptions), not c.expected))
    return out


def provers(timeout: float) -> dict[str, object]:
    resolution, tableau = ResolutionProver(), TableauProver()
    resolution.TIMEOUT = tableau.TIMEOUT = timeout
    return {"ambit": ambit.nltk.Prover(timeout), "ResolutionProver": resolution, "TableauProver": tableau}


def run(timeout: float, repeat: int) -> dict:
    items = [(label, Expression.fromstring(g) if g else None, [Expression.fromstring(a) for a in a_], want)
             for label, g, a_, want in examples()]
    ambit.nltk.Prover(timeout).prove(*items[0][1:3])  # Prolog started and its program loaded: not timed
    report: dict = {"examples": len(items), "timeout_s": timeout, "repeat": repeat, "provers": {}}
    for name, prover in provers(timeout).items():
        times, wrong, timeouts, rows = [], 0, 0, []
        for label, goal, assumptions, want in items:
            runs = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                try:
                    got = prover.prove(goal, assumptions)
                except Prover9LimitExceededException:
                    got = None
                runs.append(time.perf_counter() - t0)
            t = min(runs)
            timed_out = got is None or (got is False and t >= timeout * 0.95)
            timeouts += timed_out
            wrong += (got is not want) and not timed_out
            times.append(t)
            rows.append({"example": label, "seconds": round(t, 4), "answer": got, "documented": want,
                         "timed_out": timed_out})
        report["provers"][name] = {"total_s": round(sum(times), 3), "median_ms": round(1000 * statistics.median(times), 2),
                                   "max_s": round(max(times), 3), "agree": len(items) - wrong - timeouts,
                                   "wrong": wrong, "timeouts": timeouts, "rows": rows}
    report["reading"] = reading()
    return report


def reading(n: int = 2000) -> dict:
    """Microseconds per formula: ambit.nltk.from_expression against parse(str(e), "nltk")."""
    es = [Expression.fromstring(f"all x.(dog{i}(x) -> exists y.(likes(x, y) & -(cat{i}(y) | mother(y) = x)))")
          for i in range(n)]
    for e in es:  # both paths warm
        ambit.nltk.from_expression(e), parse(str(e), "nltk")

    def best(read) -> float:
        out = []
        for _ in range(3):
            t0 = time.perf_counter()
            for e in es:
                read(e)
            out.append(time.perf_counter() - t0)
        return 1e6 * min(out) / n

    return {"formulas": n, "direct_us": round(best(ambit.nltk.from_expression), 1),
            "str_and_parse_us": round(best(lambda e: parse(str(e), "nltk")), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per call, every prover (default 5)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per call; the fastest counts (default 3)")
    ap.add_argument("--json", action="store_true", help="the whole report, every call, as JSON")
    args = ap.parse_args()
    report = run(args.timeout, args.repeat)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['examples']} examples of NLTK's inference doctests, time limit {args.timeout:g} s per call")
    print("| prover | total | median | slowest | agrees with NLTK's documented answer | wrong | time-outs |")
    print("|---|---|---|---|---|---|---|")
    for name, r in report["provers"].items():
        print(f"| {name} | {r['total_s']:.2f} s | {r['median_ms']:.1f} ms | {r['max_s']:.2f} s | "
              f"{r['agree']} of {report['examples']} | {r['wrong']} | {r['timeouts']} |")
    rd = report["reading"]
    print(f"reading {rd['formulas']} Expressions: direct {rd['direct_us']} µs each, "
          f"str() + parse {rd['str_and_parse_us']} µs each")


if __name__ == "__main__":
    main()
