"""The ``radd`` suite: RADD instances answered by one of three solvers, one record per item.

  prolog     the regularity reasoning of ``logic.radd`` (identical prompts verified once);
  responses  the models' recorded replies in the benchmark files (``results.choice``, or the
             raw ``responses`` parsed as the paper did when ``results`` is absent);
  model      this server's model scores "Option 1" vs "Option 2" (``client.eval.radd_model``).

All three run through the common runner and store, so each resumes from ``results.jsonl``.
Only ``model`` needs a server. ``client eval all`` runs it twice: ``radd`` (prolog, on the
first ``10 × --limit`` instances) and ``radd-model`` (``--limit`` instances per pair).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from client.eval import radd
from client.eval import radd_model as RM
from client.eval import report as R
from client.eval.suite import DEFAULT_DATA, Option, RunContext, Suite, option

SOLVERS = ("prolog", "responses", "model")
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
        return f"radd-{self.solver(ctx.args)}"

    def options(self) -> Sequence[Option]:
        opts = [option("--data", nargs="+", type=Path, default=DEFAULT_DATA,
                       help="RADD JSONL files, or folders searched for *_results_*.jsonl "
                            "(a data root holding radd/benchmark works too)")]
        if self.fixed_solver is None:
            opts.append(option("--solver", choices=SOLVERS, default="prolog",
                               help="prolog: regularity reasoning; responses: the benchmark's recorded "
                                    "replies; model: this server's model scores 'Option 1' vs 'Option 2'"))
        return opts

    def needs_server(self, args: argparse.Namespace) -> bool:
        return self.solver(args) == "model"

    def run_key(self, ctx: RunContext) -> dict:
        solver, data = self.solver(ctx.args), [str(p) for p in _data_paths(ctx.args)]
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
        solver, data = self.solver(ctx.args), _data_paths(ctx.args)
        if solver == "model":
            return [{"id": RM.item_id(r), "row": r} for r in RM.select_rows(data, ctx.args.limit)]
        rows = radd.load_rows(radd.data_files(data))
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
        if solver == "model":
            s.pop("by_model", None)
            s["model"] = ctx.model
            s["option1_rate"] = sum(r["choice"] == 1 for r in records) / len(records) if records else None
        return s

    def write_reports(self, records: Sequence[dict], summary: dict, ctx: RunContext) -> None:
        R.write_json(ctx.out / "summary.json", summary)
        if summary["solver"] != "model":
            R.write_text(ctx.out / "summary.md", radd.markdown(summary))
            print(f"radd {summary['solver']}: n={summary['n']} accuracy={100 * (summary['accuracy'] or 0):.1f}% "
                  f"-> {ctx.out}")
            return
        R.write_text(ctx.out / "summary.md", radd.markdown({**summary, "by_model": {summary["model"]: summary}})
                     + f"\nOption 1 chosen for {R.pct(summary['option1_rate'])}% of items (a position-bias check).\n")
        RM.plot(summary, ctx.out / "accuracy_by_pair.png")

    def headline(self, summary: dict) -> str:
        return f"accuracy {R.pct(summary['accuracy'])}% (n={summary.get('n')})" if "accuracy" in summary else ""


def _prolog_record(item: dict) -> dict:
    from logic.radd import verify
    v = verify(item["row"].instance)
    return radd.record(item["row"], v.answer_option, status=v.status, verdict=v.to_dict())


def _data_paths(args: argparse.Namespace) -> list[Path]:
    """``--data``: one root (the common option of ``all``) or the RADD suite's list of paths."""
    data = args.data
    return [Path(d) for d in data] if isinstance(data, (list, tuple)) else [Path(data)]
