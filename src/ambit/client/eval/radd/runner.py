"""The ``radd`` suite: RADD instances answered by one of three solvers, one record per item.

  prolog     the regularity reasoning of ``logic.radd`` (identical prompts verified once);
  responses  the models' recorded replies in the benchmark files (``results.choice``, or the
             raw ``responses`` parsed as the paper did when ``results`` is absent);
  model      this server's model: ``--protocol generate`` (a greedy chat reply, parsed like the
             recorded ones; two turns for ``--style step_by_step5``) or ``score`` ("Option 1"
             vs "Option 2" by likelihood); see ``client.eval.radd.model``.

All three run through the common runner and store, so each resumes from ``results.jsonl``.
Only ``model`` needs a server. ``--limit-per-pair N`` draws N instances per property pair
(seeded by ``--seed``); ``ambit eval all`` runs the suite twice with it: ``radd`` (prolog,
``10 × N`` per pair) and ``radd-model`` (N per pair), N defaulting to ``--limit``.

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
from dataclasses import dataclass, replace
from pathlib import Path

from ambit.client.eval import metrics as EM
from ambit.client.eval.radd import metrics as M
from ambit.client.eval.radd import suite as radd
from ambit.client.eval.radd import model as RM
from ambit.client.eval.radd import parse as RP
from ambit.client.eval import report as R
from ambit._paths import PACKAGE, shown
from ambit.client.eval.suite import DEFAULT_DATA, Common, MissingData, Option, RunContext, Suite, option

SOLVERS = ("prolog", "responses", "model")
SOURCES = ("auto", "benchmark", "generated")
DEMO_FACTS = PACKAGE / "generators" / "radd" / "data" / "demo_facts.json"
ORIGIN = "github.com/sfschouten/exploiting-ambiguity (benchmark/<model>/<pair>_results_direct.jsonl)"
# in `ambit eval all` the prolog solver takes this many instances per unit of --limit
ALL_PROLOG_LIMIT_FACTOR = 10


@dataclass(frozen=True)
class RaddSettings(Common):
    """The settings of a RADD run, made once per command (``source`` and ``per_pair`` resolved
    then); the model solver's ``protocol`` (``auto`` resolved) and ``plain_text`` are completed once
    per run (``resolve``)."""

    solver: str
    source: str  # benchmark | generated (``auto`` resolved by whether the benchmark is there)
    source_given: str  # --source as given: auto | benchmark | generated
    per_pair: int | None  # --limit-per-pair (in `ambit eval all`: defaulting to --limit, 10 × for prolog)
    answer_parser: str
    # the model solver's (None for the others)
    protocol: str | None = None  # score | generate | auto (until resolved)
    styles: tuple[str, ...] = ()
    max_new_tokens: int | None = None
    answer_tokens: int | None = None
    plain_text: bool = False  # generate: the model has no chat template, so dialogues go as plain text

    @property
    def first(self) -> int | None:
        """Without ``--limit-per-pair``, the prolog and responses solvers take the first N overall."""
        return None if self.per_pair else self.limit


class RaddSuite(Suite):
    """RADD with the solver of ``--solver``, or with a fixed one (the entries of ``all``)."""

    name = "radd"

    def __init__(self, solver: str | None = None):
        if solver is not None and solver not in SOLVERS:
            raise ValueError(f"unknown RADD solver {solver!r} (known: {', '.join(SOLVERS)})")
        self.fixed_solver = solver

    def desc(self, s: RaddSettings) -> str:
        return f"radd-{s.solver}"

    def options(self) -> Sequence[Option]:
        opts = [option("--data", nargs="+", type=Path, default=DEFAULT_DATA,
                       help="RADD JSONL files, or folders searched for *_results_*.jsonl "
                            "(a data root holding radd/benchmark works too)")]
        if self.fixed_solver is None:
            opts.append(option("--solver", choices=SOLVERS, default="prolog",
                               help="prolog: regularity reasoning; responses: the benchmark's recorded "
                                    "replies; model: this server's model (see --protocol)"))
        opts += [option("--limit-per-pair", type=int,
                        help="draw this many instances per property pair (seeded by --seed)")]
        if self.fixed_solver in (None, "model"):
            opts += [
                option("--protocol", choices=RM.PROTOCOLS, default="auto",
                       help="model solver: generate (a greedy chat reply parsed like the recorded ones), score "
                            "(likelihood of 'Option 1' vs 'Option 2'); auto (default): generate for models "
                            "with a chat template, else score"),
                option("--style", nargs="+", choices=RM.STYLES, default=["direct"],
                       help="model solver, generate protocol: prompt styles to run (each reported apart)"),
                option("--max-new-tokens", type=int, default=RM.DEFAULT_MAX_NEW_TOKENS,
                       help="budget of the first reply (the chain of thought in step_by_step5)"),
                option("--answer-tokens", type=int, default=RM.DEFAULT_ANSWER_TOKENS,
                       help="budget of the step_by_step5 follow-up reply that names the option"),
            ]
        if self.fixed_solver in (None, "model", "responses"):
            opts.append(option("--answer-parser", choices=RP.PARSERS, default=RP.DEFAULT,
                               help="how a reply's answer is read: paper (default; the released regexes, which "
                                    "reproduce Tables 3 and 4) or strict (the last explicit 'Option N' / 'FINAL "
                                    "ANSWER: N'; both, none, or not 1 or 2 is neither); the summary reports both"))
        opts.append(option("--source", choices=SOURCES, default="auto",
                           help="benchmark: the paper's files under --data; generated: instances built "
                                "from generators/radd/data/demo_facts.json; auto (default): the benchmark "
                                "when found, else generated"))
        return opts

    def configure(self, args: argparse.Namespace, common: Common) -> RaddSettings:
        solver = self.fixed_solver or args.solver
        source = args.source if args.source != "auto" else "benchmark" if _benchmark_files(common.data) else "generated"
        per_pair = args.limit_per_pair
        if common.command == "all":  # defaulting to --limit; the cheap prolog solver takes 10 × as many
            per_pair = per_pair or common.limit
            per_pair = per_pair * ALL_PROLOG_LIMIT_FACTOR if per_pair is not None and solver == "prolog" else per_pair
        model = {} if solver != "model" else {
            "protocol": args.protocol, "styles": tuple(args.style),
            "max_new_tokens": args.max_new_tokens, "answer_tokens": args.answer_tokens}
        return RaddSettings(**vars(common), solver=solver, source=source, source_given=args.source,
                            per_pair=per_pair, answer_parser=args.answer_parser,
                            **model)

    def needs(self, s: RaddSettings, caps: set[str]) -> list[tuple[str, str]]:
        from ambit.client.eval.remote import protocol_needs

        return protocol_needs("radd", s.protocol, "option scoring", caps) if s.solver == "model" else []

    def fallback(self, s: RaddSettings) -> str | None:
        if s.source_given == "auto" and s.source == "generated":
            return "the RADD benchmark's *_results_*.jsonl files (radd/benchmark/)"
        return None

    def missing_data(self, s: RaddSettings) -> MissingData | None:
        if s.source_given == "generated" and s.solver == "responses":
            raise ValueError("radd --solver responses needs the benchmark's recorded replies: "
                             "use --source benchmark")
        if s.source_given == "benchmark" and not _benchmark_files(s.data):
            return MissingData(self.desc(s), s.data, "the RADD benchmark (Schouten et al., 2023)",
                               ORIGIN, "radd/benchmark/")
        if s.source_given == "auto" and s.solver == "responses" and s.source == "generated":
            return MissingData(self.desc(s), s.data, "the RADD benchmark's recorded replies", ORIGIN, "radd/benchmark/")
        return None

    def needs_server(self, s: RaddSettings) -> bool:
        return s.solver == "model"

    def resolve(self, ctx: RunContext) -> RaddSettings:
        """The model solver's protocol, ``auto`` resolved once per run by asking the server; whether
        the model has a chat template (without one, generated dialogues go as plain text)."""
        s = ctx.settings
        if s.solver != "model":
            return s
        chosen = RM.resolve_protocol(ctx.client, s.protocol) if s.protocol == "auto" else s.protocol
        if chosen == "score" and set(s.styles) != {"direct"}:
            raise ValueError("radd --protocol score compares 'Option 1' and 'Option 2' after the direct prompt; "
                             "--style step_by_step5 needs --protocol generate")
        plain = chosen == "generate" and not RM.has_chat_template(ctx.client)
        if plain:
            print(f"{self.desc(s)}: the model has no chat template, so --protocol generate sends each "
                  f"dialogue as {RM.PLAIN_TEXT}", file=sys.stderr, flush=True)
        return replace(s, protocol=chosen, plain_text=plain)

    def run_key(self, ctx: RunContext) -> dict:
        """The arguments of the run (``answer_parser`` only when not the default, so runs made
        before the option resume)."""
        s = ctx.settings
        data = [str(p) for p in s.data] if s.source == "benchmark" else [str(DEMO_FACTS)]
        drawn = {"limit_per_pair": s.per_pair, "seed": s.seed} if s.per_pair else {}
        parser = {"answer_parser": s.answer_parser} if s.answer_parser != RP.DEFAULT and s.solver != "prolog" else {}
        if s.solver != "model":
            return {"suite": "radd", "solver": s.solver, "limit": s.first, "data": data, **drawn, **parser}
        key = {"suite": "radd", "solver": s.solver, "model": ctx.model, "limit": s.limit, "data": data,
               "protocol": s.protocol, **drawn, **parser}
        if s.protocol == "score":
            return {**key, "cue": RM.ANSWER_CUE}
        plain = {"prompt_format": RM.PLAIN_TEXT} if s.plain_text else {}
        return {**key, "styles": list(s.styles), "max_new_tokens": s.max_new_tokens,
                "answer_tokens": s.answer_tokens, **plain}

    def items(self, ctx: RunContext) -> list[dict]:
        s = ctx.settings
        if s.source == "benchmark":
            rows = radd.load_rows(radd.data_files(s.data))
        else:
            if s.source_given == "auto":
                print(f"{self.desc(s)}: no RADD benchmark under {', '.join(map(str, s.data))} "
                      f"(from {ORIGIN}); using instances generated from {shown(DEMO_FACTS)}",
                      file=sys.stderr)
            rows = generated_rows(DEMO_FACTS, s.seed)
        if s.solver == "model":
            rows = RM.draw_per_pair(rows, s.per_pair, s.seed) if s.per_pair else RM.select_rows(rows, s.limit)
            if s.protocol == "score":
                return [{"id": RM.item_id(r), "row": r, "style": "direct"} for r in rows]
            return [{"id": RM.item_id(r, st), "row": r, "style": st} for st in s.styles for r in rows]
        if s.per_pair:
            rows = RM.draw_per_pair(rows, s.per_pair, s.seed) if s.solver == "prolog" else [
                r for m in sorted({r.model for r in rows})
                for r in RM.draw_per_pair([r for r in rows if r.model == m], s.per_pair, s.seed)]
        elif s.solver == "prolog":
            rows = radd.unique_instances(rows)
        return [{"id": r.source, "row": r} for r in rows[: s.first]]

    def processor(self, ctx: RunContext) -> Callable[[dict], dict]:
        s = ctx.settings
        if s.solver == "prolog":
            return _prolog_record
        parser = s.answer_parser
        if s.solver == "responses":
            def responses_record(item: dict) -> dict:
                row, style = item["row"], item["row"].instance.prompt_style
                if not radd.has_reply(row.raw):  # no recorded reply: missing, never an unparseable one
                    return radd.record(row, None, choice_paper=None, choice_strict=None, answer_parser=parser,
                                       recorded=False)
                got = {"paper": radd.recorded_choice(row.raw, style),
                       "strict": RP.strict_choice(style, radd.recorded_replies(row.raw))}
                return radd.record(row, got[parser], choice_paper=got["paper"], choice_strict=got["strict"],
                                   answer_parser=parser)
            return responses_record
        if s.protocol == "score":
            choose = RM.model_chooser(ctx.client)

            def score_record(item: dict) -> dict:
                got = choose(item["row"].raw["messages"][0])
                return {**radd.record(item["row"], got["choice"], logprobs=got["logprobs"], protocol="score"),
                        "model": ctx.model, "style": "direct"}
            return score_record
        talk = RM.dialogue_chooser(ctx.client, s.max_new_tokens, s.answer_tokens)

        def generate_record(item: dict) -> dict:
            got = talk(RM.user_turns(item["row"], item["style"]), item["style"])
            paper, strict = got.pop("choice"), got.pop("choice_strict")
            choice = strict if parser == "strict" else paper
            return {**radd.record(item["row"], choice, protocol="generate", choice_paper=paper,
                                  choice_strict=strict, answer_parser=parser, **got),
                    "model": ctx.model, "style": item["style"]}
        return generate_record

    def coverage(self, items: Sequence[dict], ctx: RunContext) -> dict | None:
        """The responses solver's coverage: the benchmark rows that hold a recorded reply (None: the
        other solvers)."""
        if ctx.settings.solver != "responses":
            return None
        ids = [it["id"] for it in items]
        cov = {**EM.coverage(ids, sum(radd.has_reply(it["row"].raw) for it in items), []),
               "expected_id_shapes": []}  # the rows hold their own replies: no id to match
        files = sorted({str(it["row"].source).rpartition(":")[0] for it in items})
        shown = ", ".join(files[:3]) + (", …" if len(files) > 3 else "")
        return {**cov, "what": "recorded replies", "option": "--solver responses", "file": shown,
                "nothing": f"--solver responses: none of the {len(ids):,} benchmark rows read ({shown}) holds a "
                           "recorded reply ('results' with a 'choice', or 'responses'); nothing was scored"}

    def summarise(self, records: Sequence[dict], items: Sequence[dict], ctx: RunContext) -> dict:
        order = {it["id"]: i for i, it in enumerate(items)}
        records = sorted(records, key=lambda r: order[r["id"]])  # the data's own order
        cfg = ctx.settings
        solver = cfg.solver
        if solver == "responses":  # rows without a recorded reply: counted in the coverage, not the tables
            cov = self.coverage(items, ctx)
            cov = EM.coverage_accuracy(cov, records, lambda r: r["correct"], "the chosen option is the gold reading")
            s = radd.summarise([r for r in records if r.get("recorded", True) is not False], solver)
            s["coverage"] = cov
        else:
            s = radd.summarise(records, solver)
        s["source"] = cfg.source
        if cfg.per_pair:
            s["limit_per_pair"] = cfg.per_pair
        if solver == "model":
            s.pop("by_model", None)
            s["model"] = ctx.model
            s["protocol"] = cfg.protocol
            s["option1_rate"] = sum(r["choice"] == 1 for r in records) / len(records) if records else None
            s["truncated"] = sum("length" in r.get("finish", ()) for r in records)
            if s["protocol"] == "generate":
                s["prompt_format"] = RM.prompt_format(records)
        return s

    def write_reports(self, records: Sequence[dict], summary: dict, ctx: RunContext) -> None:
        R.write_json(ctx.out / "summary.json", summary)
        source = (f"\nInstances: generated from `{shown(DEMO_FACTS)}` (`--source generated`), "
                  "not the paper's benchmark.\n" if summary.get("source") == "generated" else "")
        if summary["solver"] != "model":
            R.write_text(ctx.out / "summary.md", radd.markdown(summary) + source)
            acc = "n/a" if summary.get("accuracy") is None else f"{100 * summary['accuracy']:.1f}%"
            print(f"radd {summary['solver']}: n={summary['n']} accuracy={acc} -> {ctx.out}")
            return
        replies = (f" {summary['truncated']} item(s) had a reply cut by its token budget "
                   f"(--max-new-tokens / --answer-tokens). Prompts sent as {summary.get('prompt_format')}."
                   if summary["protocol"] == "generate" else "")
        R.write_text(ctx.out / "summary.md", radd.markdown(summary)
                     + f"\nOption 1 chosen for {R.pct(summary['option1_rate'])}% of items (a position-bias check)."
                     + replies + "\n" + source)
        for i, (style, blocks) in enumerate(summary["by_style"].items()):  # the first keeps the old name
            block = {**blocks[summary["model"]], "solver": "model", "protocol": f"{summary['protocol']}, {style}",
                     "model": summary["model"]}
            RM.plot(block, ctx.out / ("accuracy_by_pair.png" if i == 0 else f"accuracy_by_pair_{style}.png"),
                    dict(Counter(r["pair"] for r in records if r["style"] == style)))

    def headline(self, summary: dict) -> str:
        if "by_style" not in summary:
            return ""
        generated = ", generated instances" if summary.get("source") == "generated" else ""
        cells = [f"{style} {name}: {R.pct(b['accuracy'])}% (n={b['n']})"
                 for style, blocks in summary["by_style"].items() for name, b in blocks.items()]
        return "accuracy " + "; ".join(cells) + generated


def _prolog_record(item: dict) -> dict:
    from ambit.logic.radd import verify
    v = verify(item["row"].instance)
    both = M.BOTH if v.status == "both" else None  # the premises leave both readings open
    return radd.record(item["row"], v.answer_option, both, status=v.status, verdict=v.to_dict())


def _benchmark_files(data: Sequence[Path]) -> list[Path]:
    """The benchmark files under ``--data`` (one root, the common option of ``all``, or the RADD
    suite's list of paths), or [] when there are none."""
    try:
        return radd.data_files(data)
    except FileNotFoundError:
        return []


def generated_rows(facts: Path, seed: int) -> list[radd.Row]:
    """Instances built by ``generators.radd`` from ``facts``, as rows of the benchmark's layout
    (the ``model`` column reads ``generated``; ``source`` is ``<facts file>:<n>``)."""
    from ambit.generators.radd.generate import generate, load_facts, to_row
    instances = [inst for i, fs in enumerate(load_facts(facts)) for inst in generate(fs, seed=seed + i)]
    return [radd.Row(inst, to_row(inst), "generated", f"{facts.name}:{n}")
            for n, inst in enumerate(instances, 1)]
