"""Implicature suite (Ruis et al. 2023), accuracy per template and k: ``score`` (the coherent final
word more likely than the incoherent one; GUIDE §6) or ``generate`` (a reply read as yes or no).
``auto`` scores whenever the server gives likelihoods, as the paper ranked every model that can."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ambit.client.eval.implicature import generate as G
from ambit.client.eval.implicature import recorded as REC
from ambit.client.eval.implicature import types as T
from ambit.client.eval import metrics as M
from ambit.client.eval import report as R
from ambit.client.eval.report_common import wilson_interval
from ambit.client.eval.radd.model import PROTOCOLS
from ambit.client.eval.recorded import FromFile
from ambit.client.eval.suite import Common, MissingData, Option, RunContext, Suite, csv_of, option

KS = (0, 1, 5, 10, 15, 30)
TEMPLATES = (1, 2, 3, 4, 5, 6)  # prompt_templates.txt (score)
GENERATE_TEMPLATES = (1, 2, 3)  # alignment_prompt_templates.csv (generate)
# what the suite reads under <data root>/implicature (test items, dev demos, prompt templates)
NEEDED = ("test_conversational_implicatures.csv", "dev_conversational_implicatures.csv",
          "prompt_templates.txt")


def items(data_dir: Path, ks: Sequence[int], templates: Sequence[int], seed: int,
          limit: int | None, template_file: str | None = None) -> list[dict]:
    """Test pairs per k and template of ``template_file`` (default: ``prompt_templates.txt``)."""
    from ambit.generators.implicature import build_records
    from ambit.generators.implicature.prompts import TEMPLATE_FILE
    return build_records(data_dir, split="test", ks=list(ks), templates=list(templates),
                         seed=seed, limit=limit, template_file=template_file or TEMPLATE_FILE)


def likelihoods_available(client) -> bool:
    """Whether the server scores candidates (False on UNIMPLEMENTED or FAILED_PRECONDITION)."""
    from ambit.client.api import AmbitError
    from ambit.client.connect import known_facts
    if known_facts(client) is not None:  # the embedded engine scores every model family
        return True
    try:
        client.score("Hi", [" yes"])
    except AmbitError as e:
        if e.code in ("UNIMPLEMENTED", "FAILED_PRECONDITION"):
            return False
        raise
    return True


def process(client, item: dict) -> dict:
    """A pair ranked by the likelihood of each final word after the shared prefix."""
    coh, inc = client.score(item["prefix"], [item["coherent_word"], item["incoherent_word"]]).scores
    return _ranked(G.item_fields(item), item, coh.sum_logprob, inc.sum_logprob)


def process_masked(client, item: dict) -> dict:
    """A masked model: " yes" vs " no" at the template's mask, as the paper scores masked LMs."""
    words = [item["coherent_word"].strip(), item["incoherent_word"].strip()]
    coh, inc = client.score(item["masked_prompt"], words).scores
    base = {**G.item_fields(item), "scoring": "masked"}
    return _ranked(base, item, coh.sum_logprob, inc.sum_logprob)


def _ranked(base: dict, item: dict, coherent: float, incoherent: float) -> dict:
    """``base`` with both words' log-likelihoods; right when the coherent one is the likelier."""
    right = coherent > incoherent
    wrong = item["incoherent_word"].strip()
    return {**base, "logprob_coherent": coherent, "logprob_incoherent": incoherent,
            "correct": right, "predicted": item["label"] if right else wrong}


def _by_k(records: Sequence[dict]) -> dict[str, dict]:
    """{k: accuracy per template, mean and std over templates (Table 1), `n`, `answers`, `ci95`}.
    One example's answers are not independent (one text worded six ways), so ``ci95`` is the Wilson
    interval over examples of each one's share of right answers."""
    cells: dict[int, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    examples: dict[int, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        right = bool(r["correct"])
        cells[int(r["k"])][int(r["template"])].append(right)
        example = r.get("example_id")
        examples[int(r["k"])][str(example if example is not None else r.get("id"))].append(right)
    by_k = {}
    for k in sorted(cells):
        by_t = {str(t): M.accuracy(cells[k][t]) for t in sorted(cells[k])}
        mean, std = M.mean_std(by_t.values())
        shares = [sum(v) / len(v) for v in examples[k].values()]
        by_k[str(k)] = {"by_template": by_t, "mean": mean, "std": std, "n": len(shares),
                        "answers": sum(len(v) for v in cells[k].values()),
                        "ci95": list(wilson_interval(sum(shares), len(shares)))}
    return by_k


def by_type(records: Sequence[dict], types: dict[str, str]) -> dict[str, dict]:
    """Per implicature type: the ``by_k`` figures of its examples' records, and their number."""
    subs = {t: [r for r in records if types.get(r.get("example_id")) == t] for t in T.TYPES}
    return {t: {"examples": len({r["example_id"] for r in sub}), "by_k": _by_k(sub)}
            for t, sub in subs.items()}


def summary(records: Sequence[dict], model: str, types: dict[str, str] | None = None) -> dict:
    """Accuracy per k and template, yes/no per-class figures, with ``types`` the type breakdown."""
    by_k = _by_k(records)
    # per-class precision/recall/F1 of "yes" over all cells, a check for a yes/no bias
    gold = [r["label"] for r in records]
    pred = [r["predicted"] for r in records]
    prf = {c: M.precision_recall_f1(gold, pred, c) for c in ("yes", "no")} if records else {}
    out = {"suite": "implicature", "model": model, "by_k": by_k, "per_class": prf,
           "reference": R.IMPLICATURE_REFERENCE}
    if types is not None:
        out["by_type"] = by_type(records, types)
        out["type_rule"] = T.RULE
    if any(r.get("protocol") == "generate" for r in records):
        for k, block in by_k.items():  # replies read as neither yes nor no; a missing answer is not one
            block["unparseable"] = sum(r["predicted"] is None and r.get("recorded", True) is not False
                                       for r in records if str(r["k"]) == k)
    if any("recorded" in r for r in records):  # recorded answers: the items the file has none for
        for k, block in by_k.items():
            block["missing"] = sum(r.get("recorded") is False for r in records if str(r["k"]) == k)
    return out


def write_reports(out: Path, records: Sequence[dict], summ: dict) -> list[str]:
    R.write_json(out / "summary.json", summ)
    md = R.implicature_markdown(summ)
    written = ["summary.json", "summary.md", "accuracy_vs_k.png"]
    if summ.get("protocol") == "generate":
        md += "\n" + R.implicature_generate_markdown(summ)
    if "by_type" in summ:
        md += "\n" + R.implicature_by_type_markdown(summ)
        R.plot_implicature_by_type(summ, out / "accuracy_by_type.png")
        written.append("accuracy_by_type.png")
    R.write_text(out / "summary.md", md)
    R.plot_implicature_vs_k(summ, out / "accuracy_vs_k.png")
    return written


@dataclass(frozen=True)
class ImplicatureSettings(Common):
    """An implicature run's settings; ``kind`` to ``recorded`` are completed in ``resolve``."""

    ks: tuple[int, ...]
    templates: tuple[int, ...] | None
    protocol: str  # score | generate | auto (until resolved)
    cot: bool
    tokens: int  # generate protocol: the reply budget
    responses: str | None
    kind: str | None = None  # the server's model family: causal | seq2seq | masked
    recorded: REC.Responses | None = None


class ImplicatureSuite(FromFile, Suite):
    name = "implicature"

    def options(self) -> Sequence[Option]:
        return (option("--k", dest="ks", type=csv_of(int), default=list(KS)),
                option("--templates", type=csv_of(int), default=None,
                       help="1-based template numbers (default: all; score: the 6 of prompt_templates.txt, "
                            "generate: the 3 of alignment_prompt_templates.csv)"),
                option("--protocol", choices=PROTOCOLS, default="auto",
                       help="score: likelihood of the coherent vs incoherent word (the paper's ranking); "
                            "generate: a greedy chat reply to a prompt that asks for yes or no, read as the "
                            "released code read it; auto (default): score whenever the server gives "
                            "likelihoods, else generate"),
                option("--cot", action="store_true",
                       help="generate protocol: ask for step-by-step reasoning, read the final yes/no"),
                option("--implicature-tokens", type=int, default=None,
                       help=f"generate protocol: reply budget (default {G.DEFAULT_MAX_NEW_TOKENS}, the "
                            "released code's)"),
                option("--responses", metavar="FILE", default=None,
                       help="score another system's recorded answers from FILE (JSONL: generated replies, or "
                            "log-likelihoods of yes and no, per example, template and k: docs/evaluation.md); "
                            "no model"))

    def configure(self, args, common: Common) -> ImplicatureSettings:
        return ImplicatureSettings(**vars(common), ks=tuple(args.ks),
                                   templates=tuple(args.templates) if args.templates else None,
                                   protocol=args.protocol, cot=args.cot,
                                   tokens=args.implicature_tokens or G.DEFAULT_MAX_NEW_TOKENS, responses=args.responses)

    def needs_server(self, s: ImplicatureSettings) -> bool:
        return not s.responses  # recorded answers need no model

    def needs(self, s: ImplicatureSettings, caps: set[str]) -> list[tuple[str, str]]:
        from ambit.client.eval.remote import protocol_needs

        return protocol_needs(self.name, s.protocol, "likelihood ranking", caps)

    def resolve(self, ctx: RunContext) -> ImplicatureSettings:
        """The --responses file read; the model family (recorded answers: causal); ``--protocol
        auto`` resolved; ``--templates`` defaulting to every template of the protocol's file."""
        s, chosen = ctx.settings, ctx.settings.protocol
        rec = REC.read(s.responses) if s.responses else None
        if rec is not None:
            kind = "causal"
            if chosen not in ("auto", rec.protocol):
                raise ValueError(f"implicature --responses {rec.path} holds "
                                 f"{'replies' if rec.protocol == 'generate' else 'log-likelihoods'}: "
                                 f"--protocol {rec.protocol}, not {chosen}")
            chosen = rec.protocol
        if chosen == "score" and s.cot:
            raise ValueError("implicature --cot reads a generated answer: it needs --protocol generate")
        if rec is None:
            from ambit.client.connect import known_facts
            facts = known_facts(ctx.client)  # an embedded model's, without loading it
            kind = facts.kind if facts is not None else ctx.client.info().kind or "causal"
        if chosen == "auto":  # --cot asks for a generated chain of thought
            chosen = "generate" if s.cot else "score" if kind == "masked" or likelihoods_available(ctx.client) \
                else "generate"
        if chosen == "generate" and kind == "masked":
            raise ValueError("implicature --protocol generate needs a model that generates; this server's is masked")
        generate = chosen == "generate"
        if generate and s.templates and not set(s.templates) <= set(GENERATE_TEMPLATES):
            raise ValueError(f"implicature --protocol generate: --templates numbers the {len(GENERATE_TEMPLATES)} "
                             f"templates of {G.TEMPLATE_FILE} (1-{len(GENERATE_TEMPLATES)}), not {list(s.templates)}")
        templates = s.templates or (GENERATE_TEMPLATES if generate else TEMPLATES)
        return replace(s, kind=kind, protocol=chosen, templates=tuple(templates), recorded=rec)

    def missing_data(self, s: ImplicatureSettings) -> MissingData | None:
        folder = s.root / "implicature"
        needed = NEEDED + ((G.TEMPLATE_FILE,) if s.protocol == "generate" else ())
        if not (absent := tuple(folder / f for f in needed if not (folder / f).is_file())):
            return None
        return MissingData(self.name, absent, "the conversational implicature pairs of Ruis et al. (2023)",
                           "github.com/LauraRuis/do-pigs-fly (data/)", "implicature/")

    def _generated(self, s: ImplicatureSettings) -> dict:
        """What a generate run records of how it asked (``run.json``, ``summary.json``)."""
        return {"template_file": G.TEMPLATE_FILE, "max_new_tokens": s.tokens, "read_rule": G.READ_RULE}

    def run_key(self, ctx: RunContext) -> dict:
        """``run.json``: the arguments and the protocol that ran (``score`` | ``generate``)."""
        s = ctx.settings
        key = {"suite": self.name, "model": self.model(ctx), "ks": list(s.ks), "templates": list(s.templates),
               "seed": s.seed, "limit": s.limit, "protocol": s.protocol}
        if s.recorded is not None:
            key.update(outputs="recorded", responses=str(s.recorded.path))
        if s.protocol == "generate":
            key.update(**self._generated(s), cot=s.cot)
        elif s.kind == "masked":
            key.update(scoring="masked")
        return key

    def items(self, ctx: RunContext) -> list[dict]:
        s = ctx.settings
        file = G.TEMPLATE_FILE if s.protocol == "generate" else None
        return items(s.root / "implicature", s.ks, s.templates, s.seed, s.limit, file)

    def processor(self, ctx: RunContext):
        s = ctx.settings
        if (rec := s.recorded) is not None:
            return lambda item: REC.record(item, rec.find(item), s.protocol)
        if s.protocol == "generate":
            return lambda item: G.process(ctx.client, item, s.cot, s.tokens)
        if s.kind == "masked":
            return lambda item: process_masked(ctx.client, item)
        return lambda item: process(ctx.client, item)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        s_ = ctx.settings
        s = summary(records, self.model(ctx), T.types_of(items, s_.root / "implicature"))
        if (rec := s_.recorded) is not None:
            s.update(outputs="recorded", responses=str(rec.path),
                     items_without_responses=sum(rec.find(it) is None for it in items),
                     coverage=M.coverage_accuracy(rec.coverage(items), records, lambda r: r["correct"],
                                                  "the coherent answer, over every example, template and k"))
        s.update(protocol=s_.protocol, cot=s_.cot, model_kind=s_.kind)
        if s_.protocol == "generate":
            s.update(self._generated(s_))
        return s

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"k={k}: {R.pct(v['mean'])}% ± {R.pct(v['std'])} (std over templates)"
                         for k, v in summary["by_k"].items())
