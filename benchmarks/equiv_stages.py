"""Where an AmP pair's time goes, stage by stage (ms per pair, CPU time), for each kind of pair.

    .venv/bin/python benchmarks/equiv_stages.py [--per-type 100] [--hard-pairs 300] [--rounds 3] [--json]
    .venv/bin/python benchmarks/equiv_stages.py --tree DIR ...   # another checkout of the same layout

Stages, each measured alone on the same batch (best of --rounds):
  reading          the LF texts parsed into ASTs (Python);
  canonical        both canonical forms and their comparison, the shortcut (Python);
  round_trip       the pairs written as Prolog text, read by Prolog, one null answered per pair;
  sld              AmP's first stage alone on both directions (Prolog CPU);
  model_search     the rest of Prolog's answer (Prolog CPU of the whole answer minus `sld` and
                   `round_trip`): the candidate, or prove.pl's stages where there is none;
  check            the verdict built in Python, every model checked by the one model checker.
`whole` is `equivalent_batch` itself on the same batch (strings in), for comparison with the sum.
Kinds: AmP's NOT_EQUIVALENT pairs (LF0, LF1), EQUIVALENT pairs (LF0, its canonical form) with
the canonical shortcut off (so Prolog proves them), and the generated hard pairs
(tests/helpers/amp_hard_pairs.py). `--tree` runs the same measurement on another commit's files
(`mkdir /tmp/before && git archive fe3f28a | tar -x -C /tmp/before`), for a before/after table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-type", type=int, default=100)
    ap.add_argument("--hard-pairs", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tree", type=Path, default=HERE.parents[1], help="the checkout measured (default: this one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE.parents[1]))  # this checkout: the pair generators
    from benchmarks.equiv_bench import amp_pairs
    from ambit.logic import to_fol
    from tests.helpers.amp_hard_pairs import hard_pairs

    pairs = amp_pairs(args.per_type)
    sets = {"not_equivalent": pairs[0::2], "equivalent_prolog_only": pairs[1::2],
            "hard": [(to_fol(a), to_fol(b)) for _, a, b in hard_pairs(args.hard_pairs, 0)]}
    if args.tree.resolve() != HERE.parents[1]:
        for name in [m for m in sys.modules if m == "ambit" or m.startswith("ambit.")]:
            del sys.modules[name]
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()]
        sys.path.insert(0, str(args.tree / "src"))
    out = {"tree": str(args.tree), "ms_per_pair": {k: stages(ps, args.rounds) for k, ps in sets.items()}}
    print(json.dumps(out) if args.json else "\n".join(f"{k:24} {v}" for k, v in out["ms_per_pair"].items()))
    return 0


def stages(pairs: list[tuple[str, str]], rounds: int) -> dict:
    from ambit.logic import parse
    from ambit.logic.engine import equivalence as E
    from ambit.logic.runtime.worker import worker
    from ambit.logic.syntax.canonical import canonical_string

    worker().consult(E.PROGRAM)
    E.equivalent_batch(pairs[:20], canonical_shortcut=False)
    n = len(pairs)

    def best(f) -> tuple[object, float]:
        t, out = float("inf"), None
        for _ in range(rounds):
            c = time.process_time()
            out = f()
            t = min(t, time.process_time() - c)
        return out, t / n * 1e3

    asts, reading = best(lambda: [(parse(a), parse(b)) for a, b in pairs])
    _, canonical = best(lambda: [canonical_string(a, "fol", "v") == canonical_string(b, "fol", "v") for a, b in asts])
    terms = ",".join(f"p({E.to_prolog_bb(a, f'{i}a')},{E.to_prolog_bb(b, f'{i}b')})" for i, (a, b) in enumerate(asts))
    opts = "budget(2000000,8,5.000000)"  # the default budget, as every tree's Budget.prolog() writes it
    w = worker()

    def prolog_ms(goal: str) -> float:
        """Prolog's own CPU milliseconds per pair for `goal` (best of rounds)."""
        return min(w.query_json_quiet(f"statistics(cputime,T0),{goal},statistics(cputime,T1),Out is T1-T0",
                                      time_limit=600, inferences=10**12) for _ in range(rounds)) / n * 1e3

    c = time.process_time()
    for _ in range(rounds):
        w.query_json_quiet(f"Ps=[{terms}],findall(null,member(_,Ps),Out)", time_limit=600, inferences=10**12)
    round_trip = (time.process_time() - c) / rounds / n * 1e3
    sld = prolog_ms(f"forall(member(p(A,B),[{terms}]),equivalence:sld_pair(A,B,2000000,_))")
    answer = prolog_ms(f"equivalence:equiv_batch_json([{terms}],{opts},_)")
    dicts = w.query_json_quiet(f"equivalence:equiv_batch_json([{terms}],{opts},Out)", time_limit=600, inferences=10**12)
    _, check = best(lambda: [E._verdict(d, a, b) for d, (a, b) in zip(dicts, asts)])
    _, whole = best(lambda: E.equivalent_batch(pairs, canonical_shortcut=False))
    row = {"reading": reading, "canonical": canonical, "round_trip": round_trip, "sld": sld,
           "model_search": max(0.0, answer - sld), "check": check, "whole": whole}
    return {k: round(v, 3) for k, v in row.items()}


if __name__ == "__main__":
    sys.exit(main())
