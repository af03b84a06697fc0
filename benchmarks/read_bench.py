"""Reading speed per dialect, in MB/s of text read into ASTs (issue 44, item 4: at least 1 MB/s).

    .venv/bin/python benchmarks/read_bench.py [--json] [--formulas 20000] [--seed 0] [--big 150000]

Input is generated with the seed: random first-order formulas (quantifiers, the dialect's
connectives, equality, function terms, atoms of 0-3 arguments) written by each dialect's
renderer, so every dialect reads the same formulas:
  tptp     one problem file of `fof(aN, axiom, ...).` statements, read by tptp_problem.read_problem
           (statement split, the hand-written reader, Lark for what it rejects);
  folio, nltk, tptp_formula   one formula per call through logic.parse;
  fol      AmP's FOL (its fragment: ∃ ∀ ∧ ∨ over atoms of one or two arguments) through logic.parse;
  tptp_lark  the same TPTP formulas through Lark alone (full_parse.read_dialect), for comparison.
`--big N` also reads the issue's problem: an include of N statements `fof(aI, axiom, pI(cI) |
q(cI)).` (150,000: about 6 MB; the target is under 6 s). Figures are CPU seconds of this process
(wall-clock beside them), so a busy machine changes them less.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ambit.logic import parse, render  # noqa: E402
from ambit.logic.syntax.ast import And, Atom, Const, Eq, Func, Iff, Implies, Not, Or, Quant, Var, Xor  # noqa: E402
from ambit.logic.syntax.dialect import dialect  # noqa: E402
from ambit.logic.syntax.full_parse import read_dialect  # noqa: E402
from ambit.logic.syntax.tptp_problem import Limits, read_problem, read_problem_file  # noqa: E402

NAMES = {  # dialect -> (variables, predicates, constants, functions)
    "tptp": (["X", "Y", "Z"], ["dog", "likes", "r0", "big_city"], ["bonnie", "c1", "paris"], ["f", "g"]),
    "folio": (["x", "y", "z"], ["Dog", "Likes", "R0", "BigCity"], ["bonnie", "c1", "paris"], ["f", "g"]),
    "nltk": (["x", "y", "z"], ["dog", "likes", "r0", "big_city"], ["bonnie", "city1", "paris"], ["f", "g"]),
}


def full_formula(rng: random.Random, names: tuple, bound: tuple = (), depth: int = 3):
    """A random full first-order formula over `names` (closed: variables only where bound)."""
    variables, preds, consts, funcs = names

    def term(d: int):
        r = rng.random()
        if bound and r < 0.5:
            return Var(rng.choice(bound))
        if d > 0 and r < 0.65:
            return Func(rng.choice(funcs), (term(d - 1),))
        return Const(rng.choice(consts))

    r = rng.random()
    if depth == 0 or r < 0.3:
        if rng.random() < 0.12:
            return Eq(term(1), term(1))
        return Atom(rng.choice(preds), tuple(term(1) for _ in range(rng.randint(0, 3))))
    if r < 0.45:
        v = rng.choice(variables)
        return Quant(rng.choice(["forall", "exists"]), v, full_formula(rng, names, (*bound, v), depth - 1))
    if r < 0.55:
        return Not(full_formula(rng, names, bound, depth - 1))
    if r < 0.8:
        kids = tuple(full_formula(rng, names, bound, depth - 1) for _ in range(rng.randint(2, 3)))
        return (And if rng.random() < 0.5 else Or)(kids)
    binary = rng.choice([Implies, Iff, Xor] if names is not NAMES["nltk"] else [Implies, Iff])
    return binary(full_formula(rng, names, bound, depth - 1), full_formula(rng, names, bound, depth - 1))


def amp_formula(rng: random.Random, bound: tuple = (), depth: int = 3):
    """A random formula of AmP's fragment (∃ ∀ ∧ ∨, atoms of one or two arguments)."""
    r = rng.random()
    if depth == 0 or (bound and r < 0.35):
        args = [Var(rng.choice(bound)) if bound and rng.random() < 0.7 else Const(rng.choice(["Mary", "John", "Paris"]))
                for _ in range(rng.randint(1, 2))]
        return Atom(rng.choice(["man", "saw", "dog", "give"]), tuple(args))
    if r < 0.6 or not bound:
        v = f"x{len(bound)}" if len(bound) < 3 else rng.choice(bound)
        return Quant(rng.choice(["exists", "forall"]), v, amp_formula(rng, (*bound, v), depth - 1))
    return (And if rng.random() < 0.6 else Or)(tuple(amp_formula(rng, bound, depth - 1) for _ in range(2)))


def timed(fn) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of fn()."""
    c, w = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c, time.perf_counter() - w


def figures(nbytes: int, items: int, cpu: float, wall: float) -> dict:
    return {"bytes": nbytes, "items": items, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "mb_per_s": round(nbytes / 1e6 / max(cpu, 1e-9), 3), "items_per_s": round(items / max(cpu, 1e-9))}


def per_formula(texts: list[str], read) -> dict:
    nbytes = sum(len(t.encode("utf-8")) + 1 for t in texts)  # + the line's newline
    cpu, wall = timed(lambda: [read(t) for t in texts])
    return figures(nbytes, len(texts), cpu, wall)


def run(n: int, seed: int, big: int) -> dict:
    rng = random.Random(seed)
    out: dict = {"formulas": n, "seed": seed}
    texts = {d: [render(full_formula(rng, NAMES[d]), d) for _ in range(n)] for d in ("tptp", "folio", "nltk")}
    texts["fol"] = [render(amp_formula(rng), "fol") for _ in range(n)]
    problem = "".join(f"fof(a{i}, axiom, {t}).\n" for i, t in enumerate(texts["tptp"]))
    cpu, wall = timed(lambda: read_problem(problem, "bench.p", limits=Limits(max_statements=10 ** 7)))
    out["tptp"] = figures(len(problem.encode("utf-8")), n, cpu, wall)
    for d in ("tptp", "folio", "nltk", "fol"):
        out[d if d != "tptp" else "tptp_formula"] = per_formula(texts[d], lambda t, d=d: parse(t, d))
    sample = texts["tptp"][: max(1, n // 10)]
    tptp = dialect("tptp")
    out["tptp_lark"] = per_formula(sample, lambda t: read_dialect(t, tptp))
    if big:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "big.ax").write_text("".join(f"fof(a{i}, axiom, p{i}(c{i}) | q(c{i})).\n" for i in range(big)),
                                         encoding="utf-8")
            (root / "prob.p").write_text("include('big.ax').\nfof(goal, conjecture, ?[X]: p1(X)).\n", encoding="utf-8")
            size = (root / "big.ax").stat().st_size
            cpu, wall = timed(lambda: read_problem_file(root / "prob.p", root))
            out["tptp_big"] = figures(size, big, cpu, wall)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--formulas", type=int, default=20_000, help="formulas per dialect (default 20,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--big", type=int, default=0, help="also read the issue's problem of this many statements")
    args = p.parse_args(argv)
    out = run(args.formulas, args.seed, args.big)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'reading':<14} {'MB':>7} {'items':>8} {'CPU s':>7} {'wall s':>7} {'MB/s':>7} {'items/s':>9}")
    for k, v in out.items():
        if isinstance(v, dict):
            print(f"{k:<14} {v['bytes'] / 1e6:>7.2f} {v['items']:>8} {v['cpu_s']:>7.2f} {v['wall_s']:>7.2f} "
                  f"{v['mb_per_s']:>7.2f} {v['items_per_s']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
