"""RADD with this server's language model as the solver, and the wiring of
``client eval radd`` to the prolog/responses solvers in ``client.eval.radd``.

The model solver scores the continuations "Option 1" and "Option 2" of the benchmark's
direct prompt (``messages[0]`` plus an answer cue) by forced decoding (ScoreCandidates) and
picks the likelier. Rows, records, summary and Markdown come from ``client.eval.radd``, so
the tables have the same Table 3/4 layout as the other solvers; what this module adds is
the resumable runner (``results.jsonl`` appended per item) and a per-pair plot.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from client.eval import report as R

SOLVERS = ("prolog", "responses", "model")
# what `eval all` runs: (output sub-directory, solver)
ALL_SOLVERS = (("radd", "prolog"), ("radd-model", "model"))
CLASSES = ("de_dicto", "de_re")
OPTIONS = ("Option 1", "Option 2")
ANSWER_CUE = "\n\nAnswer: "


def _external():
    """The RADD engineer's module (``client.eval.radd``), or None while it is absent."""
    try:
        import client.eval.radd as radd
    except ImportError:
        return None
    return radd


def add_arguments(p: argparse.ArgumentParser, with_solver: bool = True) -> None:
    """``eval radd``: the RADD module's own options (``--data`` files/folders, ``--solver``,
    ``--limit``) replace the common ones; ``eval all`` keeps the common ``--data`` root."""
    ext = _external()
    if with_solver:
        if ext is not None:
            ext.add_arguments(p)
        p.add_argument("--solver", choices=SOLVERS, default="prolog",
                       help="prolog: regularity reasoning; responses: the benchmark's recorded replies; "
                            "model: this server's model scores 'Option 1' vs 'Option 2'")


def _data_paths(args) -> list[Path]:
    data = args.data
    return [Path(d) for d in data] if isinstance(data, (list, tuple)) else [Path(data)]


def run_external(args) -> int:
    """The prolog/responses solvers, in-process, through ``client.eval.radd.run``."""
    ext = _external()
    if ext is None:
        raise SystemExit("error: client.eval.radd (prolog/responses solvers) is not available")
    ns = argparse.Namespace(**vars(args))
    ns.data = _data_paths(args)
    return ext.run(ns)


# ---------------------------------------------------------------------------- model solver

def select_rows(args, limit: int | None) -> list:
    """Distinct instances, per pair with the two classes interleaved, ``limit`` per pair
    (the paper's own ``--limit`` in ``client.eval.radd`` takes the first N overall)."""
    ext = _external()
    rows = ext.unique_instances(ext.load_rows(ext.data_files(_data_paths(args))))
    by_pair: dict[str, list] = defaultdict(list)
    for r in rows:
        by_pair[r.pair].append(r)
    out = []
    for i, pair in enumerate(sorted(by_pair)):
        # alternate which class leads, so that even limit 1 per pair covers both classes
        order = CLASSES if i % 2 == 0 else CLASSES[::-1]
        classes = [[r for r in by_pair[pair] if r.instance.label_name == c] for c in order]
        mixed = [r for two in zip(*classes) for r in two]
        mixed += [r for r in by_pair[pair] if r not in mixed]
        out += mixed[:limit] if limit is not None else mixed
    return out


def model_chooser(client) -> Callable[[str], dict]:
    """``choose(prompt) -> {"choice": 1|2, "logprobs": [lp1, lp2]}`` from the server's scores."""
    def choose(prompt: str) -> dict:
        scores = client.score(prompt + ANSWER_CUE, list(OPTIONS)).scores
        lps = [s.sum_logprob for s in scores]
        return {"choice": 1 + max(range(len(lps)), key=lambda i: lps[i]), "logprobs": lps}
    return choose


def plot(s: dict, path: Path) -> None:
    import matplotlib.pyplot as plt
    pairs = list(s["by_pair"])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(range(len(pairs)), [100 * (s["by_pair"][p] or 0) for p in pairs])
    ax.axhline(50, ls="--", color="grey", lw=1, label="chance")
    ax.set_xticks(list(range(len(pairs))), pairs, rotation=20, fontsize=7)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"RADD — solver {s['solver']} — {s.get('model', '')}", fontsize=9)
    ax.legend(fontsize=7)
    R._save(fig, path)


def run_suite(args, client, out: Path, solver: str | None = None) -> dict:
    """Run RADD with ``solver`` (default ``args.solver``) into ``out``; return the summary."""
    from client.eval.runner import check_failures, run_items
    from client.eval.store import ResultsStore
    ext = _external()
    if ext is None:
        raise SystemExit("error: client.eval.radd is not available")
    solver = solver or getattr(args, "solver", "model")
    if solver != "model":
        ns = argparse.Namespace(**vars(args))
        ns.out, ns.solver = out, solver
        if getattr(args, "suite", None) == "all" and args.limit is not None:
            ns.limit = args.limit * 10  # prolog is cheap: first N instances overall
        if run_external(ns):
            raise RuntimeError(f"radd solver {solver} failed")
        return json.loads((out / "summary.json").read_text(encoding="utf-8"))

    model = client.info().model_id
    rows = select_rows(args, args.limit)
    by_id = {f"{r.pair}/{r.source.rsplit(':', 1)[-1]}": r for r in rows}
    key = {"suite": "radd", "solver": "model", "model": model, "limit": args.limit,
           "data": [str(p) for p in _data_paths(args)], "cue": ANSWER_CUE}
    choose = model_chooser(client)

    def process(item: dict) -> dict:
        row = by_id[item["id"]]
        got = choose(row.raw["messages"][0])
        rec = ext.record(row, got["choice"], logprobs=got["logprobs"])
        rec["model"] = model
        return rec

    with ResultsStore(out, key) as store:
        records = run_items(store, [{"id": i} for i in by_id], process, desc="radd-model",
                            workers=args.workers or max(1, len(client.servers)))
    s = ext.summarise(records, "model")
    s.pop("by_model", None)
    s["model"] = model
    s["option1_rate"] = sum(r["choice"] == 1 for r in records) / len(records) if records else None
    R.write_json(out / "summary.json", s)
    R.write_text(out / "summary.md", ext.markdown({**s, "by_model": {model: s}}) +
                 f"\nOption 1 chosen for {R.pct(s['option1_rate'])}% of items (a position-bias check).\n")
    plot(s, out / "accuracy_by_pair.png")
    check_failures(store, s)
    return s
