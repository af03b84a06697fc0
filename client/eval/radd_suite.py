"""The ``radd`` suite: RADD instances answered by one of three solvers, one record per item.

  prolog     the regularity reasoning of ``logic.radd`` (identical prompts verified once);
  responses  the models' recorded replies in the benchmark files (``results.choice``, or the
             raw ``responses`` parsed as the paper did when ``results`` is absent);
  model      this server's model scores "Option 1" vs "Option 2" (``client.eval.radd_model``).

All three run through the common runner and store, so each resumes from ``results.jsonl``.
Only ``model`` needs a server. ``client eval all`` runs it twice: ``radd`` (prolog, on the
first ``10 × --limit`` instances) and ``radd-model`` (``--limit`` instances per pair).

Instances come from ``--source``: ``benchmark`` (the paper's files under ``--data``),
``generated`` (built by ``generators.radd`` from its bundled demo facts, so the suite runs in a
bare clone; only ``prolog`` and ``model`` can answer them) or ``auto`` (the default: the
benchmark when its files are under ``--data``, else generated, and the summary says which).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from client.eval import radd
from client.eval import radd_model as RM
from client.eval import report as R
from client.eval.suite import DEFAULT_DATA, REPO, MissingData, Option, RunContext, Suite, option

SOLVERS = ("prolog", "responses", "model")
SOURCES = ("auto", "benchmark", "generated")
DEMO_FACTS = REPO / "generators" / "radd" / "data" / "demo_facts.json"
ORIGIN = "github.com/sfschouten/exploiting-ambiguity (benchmark/<model>/<pair>_results_direct.jsonl)"
# in `client eval all` the prolog solver takes this many instances per unit of --limit
ALL_PROLOG_LIMIT_FACTOR = 10


class RaddSuite(Suite):
    """RADD with the solver of ``--solver``, or with a fixed one (the entries of ``all``)."""

    name = "radd"

    def __init__(self, solver: str | None = None):
        if solver is not None and solver not in SOLVERS:
            raise ValueError(f"unknown RADD solver {solver!r} (known: {', '.join(SOLVERS)})")
        self.fixed_solver = solver

    def solver(self, args: argparse.Namespace) -> str:
        return self.fixed_solver or args.solver

    def desc(self, ctx: RunContext) -> str:
        return self.desc_for(ctx.args)

    def options(self) -> Sequence[Option]:
        opts = [option("--data", nargs="+", type=Path, default=DEFAULT_DATA,
                       help="RADD JSONL files, or folders searched for *_results_*.jsonl "
                            "(a data root holding radd/benchmark works too)")]
        if self.fixed_solver is None:
            opts.append(option("--solver", choices=SOLVERS, default="prolog",
                               help="prolog: regularity reasoning; responses: the benchmark's recorded "
                                    "replies; model: this server's model scores 'Option 1' vs 'Option 2'"))
        opts.append(option("--source", choices=SOURCES, default="auto",
                           help="benchmark: the paper's files under --data; generated: instances built "
                                "from generators/radd/data/demo_facts.json; auto (default): the benchmark "
                                "when found, else generated"))
        return opts

    def source(self, args: argparse.Namespace) -> str:
        """``benchmark`` or ``generated``: ``auto`` resolved by whether the benchmark is there."""
        chosen = getattr(args, "source", "auto")
        if chosen != "auto":
            return chosen
        return "benchmark" if _benchmark_files(args) else "generated"

    def missing_data(self, args: argparse.Namespace) -> MissingData | None:
        source = getattr(args, "source", "auto")
        if source == "generated" and self.solver(args) == "responses":
            raise ValueError("radd --solver responses needs the benchmark's recorded replies: "
                             "use --source benchmark")
        if source == "benchmark" and not _benchmark_files(args):
            files = tuple(_data_paths(args))
            return MissingData(self.desc_for(args), files, "the RADD benchmark (Schouten et al., 2023)",
                               ORIGIN, "radd/benchmark/")
        if source == "auto" and self.solver(args) == "responses" and not _benchmark_files(args):
            return MissingData(self.desc_for(args), tuple(_data_paths(args)),
                               "the RADD benchmark's recorded replies", ORIGIN, "radd/benchmark/")
        return None

    def desc_for(self, args: argparse.Namespace) -> str:
        return f"radd-{self.solver(args)}"

    def needs_server(self, args: argparse.Namespace) -> bool:
        return self.solver(args) == "model"

    def run_key(self, ctx: RunContext) -> dict:
        solver, source = self.solver(ctx.args), self.source(ctx.args)
        data = [str(p) for p in _data_paths(ctx.args)] if source == "benchmark" else [str(DEMO_FACTS)]
        if solver == "model":
            return {"suite": "radd", "solver": solver, "model": ctx.model, "limit": ctx.args.limit,
                    "data": data, "cue": RM.ANSWER_CUE}
        return {"suite": "radd", "solver": solver, "limit": self._limit(ctx.args), "data": data}

    def _limit(self, args: argparse.Namespace) -> int | None:
        """The prolog and responses solvers take the first N instances overall."""
        if getattr(args, "suite", None) == "all" and args.limit is not None:
            return args.limit * ALL_PROLOG_LIMIT_FACTOR  # prolog is cheap
        return args.limit

    def items(self, ctx: RunContext) -> list[dict]:
        solver, source = self.solver(ctx.args), self.source(ctx.args)
        if source == "benchmark":
            rows = radd.load_rows(radd.data_files(_data_paths(ctx.args)))
        else:
            if getattr(ctx.args, "source", "auto") == "auto":
                print(f"{self.desc(ctx)}: no RADD benchmark under {', '.join(map(str, _data_paths(ctx.args)))} "
                      f"(from {ORIGIN}); using instances generated from {DEMO_FACTS.relative_to(REPO)}",
                      file=sys.stderr)
            rows = generated_rows(DEMO_FACTS, ctx.args.seed)
        if solver == "model":
            return [{"id": RM.item_id(r), "row": r} for r in RM.select_rows(rows, ctx.args.limit)]
        if solver == "prolog":
            rows = radd.unique_instances(rows)
        return [{"id": r.source, "row": r} for r in rows[: self._limit(ctx.args)]]

    def processor(self, ctx: RunContext) -> Callable[[dict], dict]:
        solver = self.solver(ctx.args)
        if solver == "prolog":
            return _prolog_record
        if solver == "responses":
            return lambda item: radd.record(item["row"], radd.recorded_choice(
                item["row"].raw, item["row"].instance.prompt_style))
        choose = RM.model_chooser(ctx.client)

        def model_record(item: dict) -> dict:
            got = choose(item["row"].raw["messages"][0])
            return {**radd.record(item["row"], got["choice"], logprobs=got["logprobs"]), "model": ctx.model}
        return model_record

    def summarise(self, records: Sequence[dict], items: Sequence[dict], ctx: RunContext) -> dict:
        order = {it["id"]: i for i, it in enumerate(items)}
        records = sorted(records, key=lambda r: order[r["id"]])  # the data's own order
        solver = self.solver(ctx.args)
        s = radd.summarise(records, solver)
        s["source"] = self.source(ctx.args)
        if solver == "model":
            s.pop("by_model", None)
            s["model"] = ctx.model
            s["option1_rate"] = sum(r["choice"] == 1 for r in records) / len(records) if records else None
        return s

    def write_reports(self, records: Sequence[dict], summary: dict, ctx: RunContext) -> None:
        R.write_json(ctx.out / "summary.json", summary)
        source = (f"\nInstances: generated from `{DEMO_FACTS.relative_to(REPO)}` (`--source generated`), "
                  "not the paper's benchmark.\n" if summary.get("source") == "generated" else "")
        if summary["solver"] != "model":
            R.write_text(ctx.out / "summary.md", radd.markdown(summary) + source)
            print(f"radd {summary['solver']}: n={summary['n']} accuracy={100 * (summary['accuracy'] or 0):.1f}% "
                  f"-> {ctx.out}")
            return
        R.write_text(ctx.out / "summary.md", radd.markdown({**summary, "by_model": {summary["model"]: summary}})
                     + f"\nOption 1 chosen for {R.pct(summary['option1_rate'])}% of items (a position-bias check).\n"
                     + source)
        RM.plot(summary, ctx.out / "accuracy_by_pair.png", dict(Counter(r["pair"] for r in records)))

    def headline(self, summary: dict) -> str:
        if "accuracy" not in summary:
            return ""
        generated = ", generated instances" if summary.get("source") == "generated" else ""
        return f"accuracy {R.pct(summary['accuracy'])}% (n={summary.get('n')}{generated})"


def _prolog_record(item: dict) -> dict:
    from logic.radd import verify
    v = verify(item["row"].instance)
    return radd.record(item["row"], v.answer_option, status=v.status, verdict=v.to_dict())


def _data_paths(args: argparse.Namespace) -> list[Path]:
    """``--data``: one root (the common option of ``all``) or the RADD suite's list of paths."""
    data = args.data
    return [Path(d) for d in data] if isinstance(data, (list, tuple)) else [Path(data)]


def _benchmark_files(args: argparse.Namespace) -> list[Path]:
    """The benchmark files under ``--data``, or [] when there are none."""
    try:
        return radd.data_files(_data_paths(args))
    except FileNotFoundError:
        return []


def generated_rows(facts: Path, seed: int) -> list[radd.Row]:
    """Instances built by ``generators.radd`` from ``facts``, as rows of the benchmark's layout
    (the ``model`` column reads ``generated``; ``source`` is ``<facts file>:<n>``)."""
    from generators.radd.generate import generate, load_facts, to_row
    instances = [inst for i, fs in enumerate(load_facts(facts)) for inst in generate(fs, seed=seed + i)]
    return [radd.Row(inst, to_row(inst), "generated", f"{facts.name}:{n}")
            for n, inst in enumerate(instances, 1)]
