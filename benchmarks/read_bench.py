"""Reading speed per dialect, in MB/s of text read into ASTs (issue 44, item 4: at least 1 MB/s).

    .venv/bin/python benchmarks/read_bench.py [--json] [--formulas 20000] [--seed 0] [--big 150000]
    .venv/bin/python benchmarks/read_bench.py --against 4f67f4a [--rounds 3] [--formulas 20000] [--big 50000]

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

`--against REF` reads the same input through this checkout and through commit REF (its files
written by `git archive` into a temporary folder: benchmarks/against.py's `worktree`), one child
process per tree (`--child TREE`, one JSON object a line on stdin and stdout), reading by reading
and round by round, the order alternating, so that a burst of load on a shared machine falls on
both alike (and with one hash seed, so that neither draws a luckier one). Per reading: each
tree's median MB/s over `--rounds`, their ratio (this checkout over REF: above 1 is faster; by
CPU and by wall clock), each round's, and whether both read the same trees.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]


def _use(tree: Path) -> None:
    """Import `ambit` from `tree`'s src/ alone (not from an editable install of another checkout)."""
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                        and "editable" not in getattr(f, "__name__", "").lower()]
    sys.path.insert(0, str(tree / "src"))


_use(Path(sys.argv[sys.argv.index("--child") + 1]) if "--child" in sys.argv else REPO)

import ambit  # noqa: E402
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


def timed(fn: Callable) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of fn()."""
    c, w = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c, time.perf_counter() - w


def figures(nbytes: int, items: int, cpu: float, wall: float) -> dict:
    return {"bytes": nbytes, "items": items, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "mb_per_s": round(nbytes / 1e6 / max(cpu, 1e-9), 3), "items_per_s": round(items / max(cpu, 1e-9))}


def inputs(n: int, seed: int) -> dict[str, list[str]]:
    """The formulas read, per dialect (`fol`: AmP's), made with `seed`."""
    rng = random.Random(seed)
    texts = {d: [render(full_formula(rng, NAMES[d]), d) for _ in range(n)] for d in ("tptp", "folio", "nltk")}
    texts["fol"] = [render(amp_formula(rng), "fol") for _ in range(n)]
    return texts


def write_big(root: Path, big: int) -> None:
    """The issue's problem in `root`: prob.p, which includes big.ax of `big` statements."""
    (root / "big.ax").write_text("".join(f"fof(a{i}, axiom, p{i}(c{i}) | q(c{i})).\n" for i in range(big)),
                                 encoding="utf-8")
    (root / "prob.p").write_text("include('big.ax').\nfof(goal, conjecture, ?[X]: p1(X)).\n", encoding="utf-8")


def readings(texts: dict[str, list[str]], big_root: Path | None) -> dict[str, tuple[Callable, int, int]]:
    """Each reading timed, by name: (what reads, bytes read, items read)."""
    size = lambda ts: sum(len(t.encode("utf-8")) + 1 for t in ts)  # noqa: E731 - + the line's newline
    problem = "".join(f"fof(a{i}, axiom, {t}).\n" for i, t in enumerate(texts["tptp"]))
    out: dict[str, tuple[Callable, int, int]] = {
        "tptp": (lambda: read_problem(problem, "bench.p", limits=Limits(max_statements=10 ** 7)),
                 len(problem.encode("utf-8")), len(texts["tptp"]))}
    for d in ("tptp", "folio", "nltk", "fol"):
        out[d if d != "tptp" else "tptp_formula"] = (lambda d=d: [parse(t, d) for t in texts[d]], size(texts[d]),
                                                     len(texts[d]))
    sample, tptp = texts["tptp"][: max(1, len(texts["tptp"]) // 10)], dialect("tptp")
    out["tptp_lark"] = (lambda: [read_dialect(t, tptp) for t in sample], size(sample), len(sample))
    if big_root is not None:
        big = (big_root / "big.ax").read_text(encoding="utf-8").count("\n")
        out["tptp_big"] = (lambda: read_problem_file(big_root / "prob.p", big_root),
                           (big_root / "big.ax").stat().st_size, big)
    return out


def run(n: int, seed: int, big: int) -> dict:
    out: dict = {"formulas": n, "seed": seed}
    with tempfile.TemporaryDirectory() as tmp:
        if big:
            write_big(Path(tmp), big)
        for name, (fn, nbytes, items) in readings(inputs(n, seed), Path(tmp) if big else None).items():
            cpu, wall = timed(fn)
            out[name] = figures(nbytes, items, cpu, wall)
    return out


# --------------------------------------------------------------------------- --against REF


def digest(value: object) -> str:
    """A short digest of what a reading read (both trees' readings are compared by it)."""
    return hashlib.sha1(repr(value).encode("utf-8")).hexdigest()[:12]


def child(root: Path) -> None:
    """One tree's side of `--against`: the readings of root/texts.json (and root's big problem),
    each timed when asked, one JSON object a line."""
    texts = json.loads((root / "texts.json").read_text(encoding="utf-8"))
    todo = readings(texts, root if (root / "prob.p").exists() else None)
    for line in sys.stdin:
        msg = json.loads(line)
        fn = todo[msg["reading"]][0]
        cpu, wall = timed(fn)
        print(json.dumps({"cpu": cpu, "wall": wall, "digest": digest(fn()) if msg.get("digest") else None,
                          "ambit": ambit.__file__}), flush=True)


def against(ref: str, n: int, seed: int, big: int, rounds: int) -> dict:
    """This checkout and commit `ref` on the same input, side by side (see the module's doc)."""
    sys.path.insert(0, str(REPO))
    from benchmarks.against import short_commit, worktree

    with tempfile.TemporaryDirectory() as tmp, worktree(ref) as old:
        root = Path(tmp)
        texts = inputs(n, seed)
        (root / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
        if big:
            write_big(root, big)
        names = {k: (nbytes, items) for k, (_, nbytes, items) in readings(texts, root if big else None).items()}
        trees = {"new": REPO, "ref": old}
        env = {**os.environ, "PYTHONHASHSEED": "0"}  # both hash alike (a process's own seed moves it a few %)
        kids = {tag: subprocess.Popen([sys.executable, __file__, "--child", str(tree), str(root)], text=True, env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE) for tag, tree in trees.items()}
        runs: dict[str, dict[str, list[dict]]] = {k: {"new": [], "ref": []} for k in names}
        try:
            for r in range(rounds):
                for k in names:
                    for tag in (("new", "ref") if r % 2 == 0 else ("ref", "new")):
                        kids[tag].stdin.write(json.dumps({"reading": k, "digest": r == 0}) + "\n")
                        kids[tag].stdin.flush()
                        runs[k][tag].append(reply := json.loads(kids[tag].stdout.readline()))
                        if not Path(reply["ambit"]).resolve().is_relative_to(trees[tag].resolve()):
                            raise RuntimeError(f"the {tag} tree read with {reply['ambit']}")
        finally:
            for kid in kids.values():
                kid.stdin.close()
                kid.wait(timeout=60)
    return {"against": ref, "ref": short_commit(ref), "rounds": rounds, "formulas": n, "seed": seed,
            "load_average_1min": round(os.getloadavg()[0], 2),
            "readings": {k: _ratio(names[k], runs[k]) for k in names}}


def _ratio(size: tuple[int, int], by: dict[str, list[dict]]) -> dict:
    """One reading's medians per tree, and their ratios (this checkout over REF)."""
    med = statistics.median
    row: dict = {tag: figures(*size, med(x["cpu"] for x in rs), med(x["wall"] for x in rs)) for tag, rs in by.items()}
    row["ratio"] = round(row["new"]["mb_per_s"] / row["ref"]["mb_per_s"], 3)
    row["ratio_wall"] = round(row["ref"]["wall_s"] / max(row["new"]["wall_s"], 1e-9), 3)
    row["ratios_per_round"] = [round(o["cpu"] / max(m["cpu"], 1e-9), 3) for m, o in zip(by["new"], by["ref"])]
    row["same_trees"] = by["new"][0]["digest"] == by["ref"][0]["digest"]
    return row


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        child(Path(argv[2]))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--formulas", type=int, default=20_000, help="formulas per dialect (default 20,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--big", type=int, default=0, help="also read the issue's problem of this many statements")
    p.add_argument("--against", metavar="REF", help="compare this checkout with commit REF, side by side in one run")
    p.add_argument("--rounds", type=int, default=3, help="with --against: rounds, medians taken (default 3)")
    args = p.parse_args(argv)
    if args.against:
        out = against(args.against, args.formulas, args.seed, args.big, args.rounds)
        if args.json:
            print(json.dumps(out, indent=2))
            return 0
        print(f"this checkout against {out['ref']}, medians of {args.rounds} rounds, CPU MB/s "
              f"(load average {out['load_average_1min']})")
        print(f"{'reading':<14} {'MB':>7} {'this':>8} {'ref':>8} {'ratio':>7} {'wall':>7}  same trees  per round")
        for k, v in out["readings"].items():
            print(f"{k:<14} {v['new']['bytes'] / 1e6:>7.2f} {v['new']['mb_per_s']:>8.2f} {v['ref']['mb_per_s']:>8.2f} "
                  f"{v['ratio']:>7.3f} {v['ratio_wall']:>7.3f}  {str(v['same_trees']):<10}  {v['ratios_per_round']}")
        return 0
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
