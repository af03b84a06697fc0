"""Full first-order logic: ambit vs Z3 (in process) vs E prover (one process per check), side by side.

    .venv/bin/python benchmarks/fol_bench.py [--json] [--stories 200] [--pairs 1000] [--seed 0]
    .venv/bin/python benchmarks/fol_bench.py --section classic [--json] [--time-limit 5] [--load 2]

Input is generated with the seed: FOLIO-style stories (premises + conclusion; monadic mostly, a
few binary predicates, constants, quantifiers two or three deep) and equivalence pairs (a random
formula and a rewrite of it: implication elimination, De Morgan, contraposition, quantifier
moves, xor/iff expansions; half of them then get one small mutation, which usually breaks
equivalence). Every tool reads the same formulas: ambit the FOLIO text, Z3 terms built from
ambit's AST, E the TPTP that ambit's renderer writes.

Reported: disagreements between ambit's definite verdicts and any definite Z3 or E verdict (target
0, each listed), ambit's UNKNOWN rate on items Z3 or E decide (target <= 1%), median time per
story (ambit single call, ambit through the CLI with process start-up, with 1 and with 2
worker processes, Z3, E) with ratios, batched equivalence pairs/s, and batched throughput with
1 vs 2 Prolog worker processes (interleaved, medians of --rounds; meaningful only on an otherwise
idle machine). E is skipped with a line saying so when `eprover` is not on PATH.

The classic-problems section (fol_classic.py; `--section classic` runs it alone): Pelletier's
problems, non-theorems and hard small problems from benchmarks/problems/, each solved by ambit's
Prolog prover alone, the portfolio, E alone and Z3 alone, with the issue's targets printed next
to the measured figures under `classic.targets`, the portfolio beside E per set
(`classic.portfolio_vs_e`: at equal wall-clock limits, the target is portfolio >= E on every set),
and each solver's CPU seconds per call (`classic.cpu_s_per_call`: user + sys of the whole process
tree, E's and Z3's processes included). `--load N` runs N busy processes beside the section.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ambit import logic  # noqa: E402
from ambit.logic.engine import prove
from ambit.logic.runtime import pool as prolog_pool  # noqa: E402
from ambit.logic.syntax.ast import And, Atom, Const, Formula, Iff, Implies, Not, Or, Quant, Var, Xor, children, free_vars  # noqa: E402
from ambit.logic.syntax.full_render import render_dialect  # noqa: E402
from fol_classic import classic_section  # noqa: E402

UNARY = ["Dog", "Cat", "Animal", "Plant", "Pet", "Wild", "Loud", "Small", "Happy", "Student", "Teacher", "Green"]
BINARY = ["Likes", "Owns", "Chases"]
NAMES = ["bonnie", "rex", "tom", "anna"]

# Premise and conclusion templates in FOLIO syntax: {A} {B} {C} unary, {R} binary, {c} {d} constants.
PREMISES = [
    "∀x ({A}(x) → {B}(x))", "∀x ({A}(x) → {B}(x))", "∀x ({A}(x) ∧ {B}(x) → {C}(x))",
    "∀x ({A}(x) → {B}(x) ∨ {C}(x))", "∀x ({A}(x) → ¬{B}(x))", "∃x ({A}(x) ∧ {B}(x))",
    "{A}({c})", "¬{A}({c})", "{A}({c}) ⊕ {B}({c})", "{A}({c}) ↔ {B}({d})", "{A}({c}) ∨ {B}({c})",
    "∀x ({A}(x) → ∃y ({R}(x, y) ∧ {B}(y)))", "∀x ∀y ({R}(x, y) ∧ {A}(x) → {B}(y))", "{R}({c}, {d})",
    "∀x ({A}(x) ⊕ {B}(x))", "¬∃x ({A}(x) ∧ {B}(x))", "∀x ({A}(x) ↔ ¬{B}(x))",
    "∃x ∀y ({A}(y) → {R}(x, y))", "{c} ≠ {d}", "∀x ({R}({c}, x) → {A}(x))",
    "∀x ({A}(x) → ∀y ({R}(x, y) → {B}(y)))",
]
CONCLUSIONS = [
    "{A}({c})", "¬{A}({c})", "{A}({c}) ∧ {B}({c})", "{A}({c}) ∨ {B}({d})", "{A}({c}) → {B}({c})",
    "∃x ({A}(x) ∧ {B}(x))", "∀x ({A}(x) → {B}(x))", "∃x {R}({c}, x)", "¬({A}({c}) ⊕ {B}({c}))",
    "∃x ∃y ({R}(x, y) ∧ {A}(y))", "∀x ({A}(x) → ¬{B}(x))",
]


def fill(template: str, rng: random.Random, preds: list[str], names: list[str]) -> str:
    """The template with predicates taken as a window of the story's ordered list (A before B
    before C), so that premises chain into one another as a story's do."""
    i = rng.randrange(len(preds) - 2)
    a, b, c = preds[i:i + 3]
    x, y = rng.sample(names, 2)
    return template.format(A=a, B=b, C=c, R=rng.choice(BINARY), c=x, d=y)


def stories(n: int, rng: random.Random) -> list[tuple[list[str], str]]:
    """Stories of 3-7 premises over 4-5 unary predicates (so that premises chain) and 2-3 names."""
    out = []
    for _ in range(n):
        preds = rng.sample(UNARY, rng.choice([4, 5]))
        names = rng.sample(NAMES, rng.choice([2, 3]))
        ps = [fill(rng.choice(PREMISES), rng, preds, names) for _ in range(rng.randint(3, 7))]
        out.append((ps, fill(rng.choice(CONCLUSIONS), rng, preds, names)))
    return out


# --------------------------------------------------------------------------- equivalence pairs


def random_formula(rng: random.Random, depth: int, bound: tuple[str, ...] = ()) -> Formula:
    """A random closed formula: monadic atoms mostly, a binary one now and then, constants,
    quantifiers up to three deep."""
    if depth == 0 or rng.random() < 0.2:
        terms = [*(Var(v) for v in bound), Const(rng.choice(NAMES[:2]))]
        if rng.random() < 0.2:
            return Atom(rng.choice(BINARY[:1]), (rng.choice(terms), rng.choice(terms)))
        return Atom(rng.choice(UNARY[:4]), (rng.choice(terms[-2:] if bound else terms),))
    r = rng.random()
    if r < 0.3 and len(bound) < 3:
        v = "xyz"[len(bound)]
        return Quant(rng.choice(["forall", "exists"]), v, random_formula(rng, depth - 1, bound + (v,)))
    if r < 0.4:
        return Not(random_formula(rng, depth - 1, bound))
    op = rng.choice([And, Or, Implies, Implies, Iff, Xor])
    a, b = random_formula(rng, depth - 1, bound), random_formula(rng, depth - 1, bound)
    return op((a, b)) if op in (And, Or) else op(a, b)


def _rewrites(f: Formula) -> list[Formula]:
    """Equivalent forms of `f` by one rewrite at its root."""
    t, out = type(f), []
    if t is Implies:
        out += [Or((Not(f.left), f.right)), Implies(Not(f.right), Not(f.left))]
    if t is Iff:
        out += [And((Implies(f.left, f.right), Implies(f.right, f.left))), Not(Xor(f.left, f.right))]
    if t is Xor:
        out += [Or((And((f.left, Not(f.right))), And((Not(f.left), f.right)))), Not(Iff(f.left, f.right))]
    if t is Not:
        b = f.body
        if type(b) is And:
            out.append(Or(tuple(Not(c) for c in b.children)))
        if type(b) is Or:
            out.append(And(tuple(Not(c) for c in b.children)))
        if type(b) is Quant:
            out.append(Quant("exists" if b.kind == "forall" else "forall", b.var, Not(b.body)))
        if type(b) is Not:
            out.append(b.body)
    if t is Quant:
        b = f.body
        if type(b) in (And, Or):
            first, rest = b.children[0], b.children[1:]
            rest_f = rest[0] if len(rest) == 1 else type(b)(rest)
            if f.var not in free_vars(first):  # move the quantifier past a part it does not bind
                out.append(type(b)((first, Quant(f.kind, f.var, rest_f))))
            if (f.kind, type(b)) in (("forall", And), ("exists", Or)):
                out.append(type(b)((Quant(f.kind, f.var, first), Quant(f.kind, f.var, rest_f))))
        if f.var not in free_vars(b):
            out.append(b)
    if t in (And, Or) and len(f.children) == 2:
        out.append(t(tuple(reversed(f.children))))
    out.append(Not(Not(f)))
    return out


def _mutations(f: Formula) -> list[Formula]:
    """Small changes at the root of `f` that usually break equivalence."""
    t, out = type(f), []
    if t is Quant:
        out.append(Quant("exists" if f.kind == "forall" else "forall", f.var, f.body))
    if t is And:
        out.append(Or(f.children))
    if t is Or:
        out.append(And(f.children))
    if t is Implies:
        out.append(Implies(f.right, f.left))
    if t is Iff:
        out.append(Xor(f.left, f.right))
    if t is Not:
        out.append(f.body)
    if t is Atom:
        out.append(Atom(UNARY[(UNARY.index(f.pred) + 1) % 4], f.args) if len(f.args) == 1 else Atom(f.pred, f.args[::-1]))
    out.append(Not(f))
    return out


def _at_random_node(f: Formula, rng: random.Random, change: Callable[[Formula], list[Formula]]) -> Formula:
    """`f` with one subformula (chosen at random among those `change` applies to) replaced."""
    paths: list[tuple[int, ...]] = []

    def walk(g: Formula, path: tuple[int, ...]) -> None:
        paths.append(path)
        for i, c in enumerate(children(g)):
            walk(c, path + (i,))

    walk(f, ())
    path = rng.choice(paths)
    return _replace(f, path, lambda g: rng.choice(change(g)))


def _replace(g: Formula, path: tuple[int, ...], fn: Callable[[Formula], Formula]) -> Formula:
    if not path:
        return fn(g)
    i, rest = path[0], path[1:]
    t = type(g)
    if t in (And, Or):
        cs = list(g.children)
        cs[i] = _replace(cs[i], rest, fn)
        return t(tuple(cs))
    if t is Not:
        return Not(_replace(g.body, rest, fn))
    if t is Quant:
        return Quant(g.kind, g.var, _replace(g.body, rest, fn))
    parts = [g.left, g.right]
    parts[i] = _replace(parts[i], rest, fn)
    return t(*parts)


def pairs(n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(a, b) in FOLIO syntax: b is a rewritten with 1-3 rewrites, and for half of them one mutation."""
    out = []
    for i in range(n):
        a = random_formula(rng, rng.choice([3, 4]))
        b = a
        for _ in range(rng.randint(1, 3)):
            b = _at_random_node(b, rng, _rewrites)
        if i % 2:
            b = _at_random_node(b, rng, _mutations)
        out.append((render_dialect(a, "folio"), render_dialect(b, "folio")))
    return out


# --------------------------------------------------------------------------- Z3 and E


def z3_checker():
    """Z3 in process (`logic.provers.z3_prover.check`, the portfolio's one Z3 translation): the
    conjunction of formulas -> sat / unsat / unknown."""
    from ambit.logic.provers.z3_prover import check

    return check


def z3_story(check, ps, c, timeout_ms) -> str | None:
    neg, pos = check([*ps, Not(c)], timeout_ms), check([*ps, c], timeout_ms)
    return _story_verdict(neg == "unsat" if neg != "unknown" else None, pos == "unsat" if pos != "unknown" else None)


def _story_verdict(entails: bool | None, refutes: bool | None) -> str | None:
    """From "premises ⊢ c" and "premises ⊢ ¬c" (None: undecided) to a story verdict."""
    if entails is None or refutes is None:
        return None
    return {(True, False): "TRUE", (False, True): "FALSE", (False, False): "UNCERTAIN",
            (True, True): "INCONSISTENT"}[(entails, refutes)]


def e_prove(axioms: list[Formula], conjecture: Formula, cpu_limit: int, tmp: Path) -> bool | None:
    """One `eprover` process: True (theorem), False (counter-satisfiable), None (gave up)."""
    lines = [f"fof(p{i}, axiom, {render_dialect(a, 'tptp')})." for i, a in enumerate(axioms)]
    lines.append(f"fof(goal, conjecture, {render_dialect(conjecture, 'tptp')}).")
    path = tmp / "problem.p"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        r = subprocess.run(["eprover", "--auto", "-s", f"--cpu-limit={cpu_limit}", str(path)],
                           capture_output=True, text=True, timeout=cpu_limit + 5)
    except subprocess.TimeoutExpired:
        return None
    for line in r.stdout.splitlines():
        if line.startswith("# SZS status"):
            status = line.split()[3]
            if status in ("Theorem", "ContradictoryAxioms", "Unsatisfiable"):
                return True
            if status in ("CounterSatisfiable", "Satisfiable"):
                return False
    return None


def e_story(ps, c, cpu_limit, tmp) -> str | None:
    return _story_verdict(e_prove(ps, c, cpu_limit, tmp), e_prove(ps, Not(c), cpu_limit, tmp))


def e_equiv(a, b, cpu_limit, tmp) -> str | None:
    r = e_prove([], Iff(a, b), cpu_limit, tmp)
    return None if r is None else ("EQUIVALENT" if r else "NOT_EQUIVALENT")


# --------------------------------------------------------------------------- measuring


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    r = fn(*args, **kwargs)
    return r, time.perf_counter() - t


def compare(name: str, ours: list[str], theirs: list[str | None], items: list) -> dict:
    """Disagreements with a definite verdict of `theirs`, and our UNKNOWNs on the items it decides."""
    decided = [i for i, v in enumerate(theirs) if v is not None]
    bad = [i for i in decided if ours[i] != "UNKNOWN" and ours[i] != theirs[i]]
    unknown = [i for i in decided if ours[i] == "UNKNOWN"]
    return {"decided_by_" + name: len(decided), "disagreements": len(bad),
            "disagreement_examples": [{"item": items[i], "ambit": ours[i], name: theirs[i]} for i in bad[:5]],
            "ambit_unknown_on_decided": len(unknown),
            "ambit_unknown_rate": round(len(unknown) / max(1, len(decided)), 4),
            "unknown_examples": [items[i] for i in unknown[:3]]}


def cli_stories(story_list, fmt: str = "folio", workers: int = 1) -> float:
    """Wall seconds of one `ambit logic entails --jsonl` process over all stories (start-up
    included; with `workers` > 1, that of its worker processes too)."""
    data = "".join(json.dumps({"premises": ps, "conclusion": c}, ensure_ascii=False) + "\n" for ps, c in story_list)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "ambit", "logic", "entails", "--from", fmt, "--jsonl", "--workers", str(workers)],
                       input=data,
                       capture_output=True, text=True, cwd=ROOT)
    dt = time.perf_counter() - t
    if r.returncode != 0 or len(r.stdout.splitlines()) != len(story_list):
        raise RuntimeError(f"the CLI failed ({r.returncode}): {r.stderr[-500:]}")
    return dt


def cli_single(ps: list[str], c: str, tmp: Path) -> float:
    """Wall seconds of one `ambit logic entails --premises FILE --conclusion TEXT` process."""
    f = tmp / "premises.txt"
    f.write_text("\n".join(ps) + "\n", encoding="utf-8")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ambit", "logic", "entails", "--from", "folio", "--premises", str(f),
                    "--conclusion", c], capture_output=True, check=True, cwd=ROOT)
    return time.perf_counter() - t


_NOT_COUNTED: set[int] = set()  # the background load's processes (`--load`): live children, not counted


def tree_cpu() -> float:
    """CPU seconds (user + sys) of this process and every process it started: the children it
    reaped (E's processes, Z3 processes killed at a race's end) and the live ones (the Z3 pool,
    Prolog pool processes; not the background load), read from /proc. The difference across a
    call is the call's CPU cost."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    todo, seen = [os.getpid()], set()
    while todo:
        pid = todo.pop()
        try:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        for k in map(int, kids):
            if k in seen or k in _NOT_COUNTED:
                continue
            seen.add(k)
            todo.append(k)
            try:
                fields = Path(f"/proc/{k}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
    return total


def with_cpu(runners: dict, notes: list) -> dict[str, list[tuple[str, float]]]:
    """Wrap each classic runner so that it records its call's CPU seconds (`tree_cpu`): per
    solver, (problem set, seconds) per call; the portfolio's answers' notes go to `notes`."""
    cpu: dict[str, list[tuple[str, float]]] = {s: [] for s in runners}
    for s, fn in list(runners.items()):
        def timed_run(p, t, _fn=fn, _s=s):
            c0 = tree_cpu()
            try:
                ans, note = _fn(p, t)
            finally:
                cpu[_s].append((p.set, tree_cpu() - c0))
            if _s == "portfolio":
                notes.append((p.name, ans, note))
            return ans, note
        runners[s] = timed_run
    return cpu


def classic(time_limit: float, load: int) -> dict:
    """The classic section with `load` busy processes beside it (a background load), and each
    solver's CPU seconds per call (median and total: the process tree's user + sys)."""
    import fol_classic

    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(load)]
    _NOT_COUNTED.update(b.pid for b in busy)
    try:
        notes: list = []
        cpu = with_cpu(fol_classic.RUNNERS, notes)
        out = classic_section(time_limit)
    finally:
        for b in busy:
            b.kill()
            b.wait()
    out["background_load_processes"] = load
    def stats(v: list[float]) -> dict:
        return {"median": round(statistics.median(v), 3), "mean": round(statistics.fmean(v), 3), "total": round(sum(v), 1)}

    out["cpu_s_per_call"] = {s: {"all": stats([c for _, c in v]),
                                 **{name: stats([c for set_name, c in v if set_name == name])
                                    for name in dict.fromkeys(set_name for set_name, _ in v)}}
                             for s, v in cpu.items() if v}
    definite = [(name, note) for name, ans, note in notes if ans is not None]
    out["portfolio_checked"] = {
        "definite": len(definite), "checked": sum(n.get("checked") is not False for _, n in definite),
        "unchecked": {name: n.get("unchecked") for name, n in definite if n.get("checked") is False}}
    out["portfolio_vs_e"] = {name: {"portfolio": per["portfolio"]["solved"], "eprover": per["eprover"]["solved"],
                                    "met": per["portfolio"]["solved"] >= per["eprover"]["solved"]}
                             for name, per in out["sets"].items() if "eprover" in per}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--stories", type=int, default=200, help="generated stories")
    ap.add_argument("--pairs", type=int, default=1000, help="generated equivalence pairs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--e-items", type=int, default=150, help="stories and pairs checked by E (two processes per story)")
    ap.add_argument("--e-cpu-limit", type=int, default=5, help="E's CPU seconds per check")
    ap.add_argument("--z3-timeout-ms", type=int, default=5000, help="Z3's limit per check")
    ap.add_argument("--cli-singles", type=int, default=5, help="stories checked by one CLI process each")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the 1-vs-2-worker figures (median)")
    ap.add_argument("--section", choices=("all", "classic"), default="all",
                    help="all (default): every section; classic: the classic problems alone")
    ap.add_argument("--time-limit", type=float, default=prove.DEFAULT_TIME_LIMIT,
                    help="seconds per classic problem, for every solver")
    ap.add_argument("--load", type=int, default=0,
                    help="busy processes (`while 1: pass`) run beside the classic section: a background load")
    args = ap.parse_args(argv)
    if args.section == "classic":
        return _print({"classic": classic(args.time_limit, args.load)}, args.json)
    rng = random.Random(args.seed)
    story_list = stories(args.stories, rng)
    pair_list = pairs(args.pairs, rng)
    story_asts = [([logic.parse(p, "folio") for p in ps], logic.parse(c, "folio")) for ps, c in story_list]
    pair_asts = [(logic.parse(a, "folio"), logic.parse(b, "folio")) for a, b in pair_list]
    prove.decide_batch(story_list[:4], "folio")  # warm up: start Prolog, load the program, build the parser

    out: dict = {"seed": args.seed, "stories": len(story_list), "pairs": len(pair_list),
                 "load_average_1min": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}

    # stories, one call per story
    ambit_v, ambit_t = [], []
    for ps, c in story_list:
        d, dt = timed(prove.decide, ps, c, "folio")
        ambit_v.append(d.verdict)
        ambit_t.append(dt)
    check = z3_checker()
    z3_v, z3_t = [], []
    for ps, c in story_asts:
        v, dt = timed(z3_story, check, ps, c, args.z3_timeout_ms)
        z3_v.append(v)
        z3_t.append(dt)
    (batch_v, batch_dt) = timed(lambda: [d.verdict for d in prove.decide_batch(story_list, "folio")])
    cli_dt = statistics.median(cli_stories(story_list) for _ in range(3))
    cli2_dt = statistics.median(cli_stories(story_list, workers=2) for _ in range(3))
    with tempfile.TemporaryDirectory() as tmp:
        singles = [cli_single(ps, c, Path(tmp)) for ps, c in story_list[:args.cli_singles]]
    story_out = {
        "verdicts": {v: ambit_v.count(v) for v in sorted(set(ambit_v))},
        "batch_agrees_with_single_calls": batch_v == ambit_v,
        "vs_z3": compare("z3", ambit_v, z3_v, story_list),
        "median_ms": {"ambit": round(statistics.median(ambit_t) * 1e3, 2),
                      "ambit_batched": round(batch_dt / len(story_list) * 1e3, 2),
                      "ambit_cli_jsonl_startup_included": round(cli_dt / len(story_list) * 1e3, 2),
                      "ambit_cli_jsonl_2_workers_startup_included": round(cli2_dt / len(story_list) * 1e3, 2),
                      "ambit_cli_one_process_per_story": round(statistics.median(singles) * 1e3, 1),
                      "z3": round(statistics.median(z3_t) * 1e3, 2)},
    }
    m = story_out["median_ms"]
    story_out["ratio_to_z3"] = {k: round(m[k] / m["z3"], 3) for k in
                                ("ambit", "ambit_batched", "ambit_cli_jsonl_startup_included",
                                 "ambit_cli_jsonl_2_workers_startup_included")}

    # equivalence pairs
    pair_v, pair_single_t = [], []
    for a, b in pair_list:
        v, dt = timed(logic.equivalent, a, b, "folio")
        pair_v.append(v.verdict)
        pair_single_t.append(dt)
    (pb, pair_batch_dt) = timed(lambda: [v.verdict for v in logic.equivalent_batch(pair_list, "folio")])
    z3_pv, z3_pt = [], []
    for a, b in pair_asts:
        r, dt = timed(check, [Not(Iff(a, b))], args.z3_timeout_ms)
        z3_pv.append({"unsat": "EQUIVALENT", "sat": "NOT_EQUIVALENT"}.get(r))
        z3_pt.append(dt)
    pair_out = {
        "verdicts": {v: pair_v.count(v) for v in sorted(set(pair_v))},
        "batch_agrees_with_single_calls": pb == pair_v,
        "vs_z3": compare("z3", pair_v, z3_pv, pair_list),
        "median_ms": {"ambit": round(statistics.median(pair_single_t) * 1e3, 2),
                      "z3": round(statistics.median(z3_pt) * 1e3, 2)},
        "batched_pairs_per_s": round(len(pair_list) / pair_batch_dt, 1),
        "z3_pairs_per_s": round(len(pair_list) / sum(z3_pt), 1),
    }

    # E prover
    if args.e_items <= 0:
        out["eprover"] = "skipped: --e-items 0"
    elif shutil.which("eprover") is None:
        out["eprover"] = "skipped: eprover not on PATH (apt-get install -y eprover)"
        print("E prover skipped: `eprover` not on PATH", file=sys.stderr)
    else:
        n = min(args.e_items, len(story_list))
        e_sv, e_st, e_pv, e_pt = [], [], [], []
        with tempfile.TemporaryDirectory() as tmp:
            for ps, c in story_asts[:n]:
                v, dt = timed(e_story, ps, c, args.e_cpu_limit, Path(tmp))
                e_sv.append(v)
                e_st.append(dt)
            for a, b in pair_asts[:n]:
                v, dt = timed(e_equiv, a, b, args.e_cpu_limit, Path(tmp))
                e_pv.append(v)
                e_pt.append(dt)
        story_out["vs_e"] = compare("e", ambit_v[:n], e_sv, story_list[:n])
        story_out["median_ms"]["e"] = round(statistics.median(e_st) * 1e3, 2)
        story_out["ratio_to_z3"]["e"] = round(story_out["median_ms"]["e"] / m["z3"], 3)
        pair_out["vs_e"] = compare("e", pair_v[:n], e_pv, pair_list[:n])
        pair_out["median_ms"]["e"] = round(statistics.median(e_pt) * 1e3, 2)
    # 1 vs 2 Prolog worker processes on the same batches (the pool started and warmed first),
    # interleaved over --rounds, medians
    prolog_pool.warm(2, prove.PROGRAM, "json_call.pl")
    prove.decide_batch(story_list, "folio", workers=2)
    prove.equivalent_batch(pair_list, "folio", workers=2)
    rates: dict[int, dict[str, list[float]]] = {w: {"stories_per_s": [], "pairs_per_s": []} for w in (1, 2)}
    for _ in range(args.rounds):
        for w in (1, 2):
            _, ds = timed(prove.decide_batch, story_list, "folio", workers=w)
            _, dp = timed(prove.equivalent_batch, pair_list, "folio", workers=w)
            rates[w]["stories_per_s"].append(len(story_list) / ds)
            rates[w]["pairs_per_s"].append(len(pair_list) / dp)
    by_workers = {w: {k: round(statistics.median(v), 1) for k, v in r.items()} for w, r in rates.items()}
    out["workers"] = {"1": by_workers[1], "2": by_workers[2],
                      "speedup_2_vs_1": {k: round(by_workers[2][k] / by_workers[1][k], 2) for k in by_workers[1]},
                      "load_average_1min": round(os.getloadavg()[0], 2)}
    out["story_results"] = story_out
    out["pair_results"] = pair_out
    out["targets_met"] = {
        "no_disagreements": all(r[k]["disagreements"] == 0 for r in (story_out, pair_out) for k in ("vs_z3", "vs_e") if k in r),
        "unknown_rate_at_most_1pct": all(r[k]["ambit_unknown_rate"] <= 0.01 for r in (story_out, pair_out)
                                         for k in ("vs_z3", "vs_e") if k in r),
        "story_median_at_most_third_of_z3": story_out["ratio_to_z3"]["ambit"] <= 1 / 3,
        "cli_story_time_at_most_third_of_z3": story_out["ratio_to_z3"]["ambit_cli_jsonl_startup_included"] <= 1 / 3,
        "two_workers_at_least_1_7x": min(out["workers"]["speedup_2_vs_1"].values()) >= 1.7,
        "batched_pairs_at_least_500_per_s": pair_out["batched_pairs_per_s"] >= 500,
    }
    out["classic"] = classic(args.time_limit, args.load)
    return _print(out, args.json)


def _print(out: dict, as_json: bool) -> int:
    print(json.dumps(out, ensure_ascii=False) if as_json else json.dumps(out, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
