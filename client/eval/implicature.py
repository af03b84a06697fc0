"""Implicature suite (Ruis et al. 2023): coherent vs incoherent likelihood per template and k.

A pair is correct when the model gives the coherent final word (" yes"/" no") a higher
log-likelihood after the shared prefix than the incoherent one (GUIDE §6: the same as
comparing the full texts)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from client.eval import metrics as M
from client.eval import report as R
from client.eval.suite import MissingData, Option, RunContext, Suite, csv_of, data_root, option

KS = (0, 1, 5, 10, 15, 30)
TEMPLATES = (1, 2, 3, 4, 5, 6)
# what the suite reads under <data root>/implicature (test items, dev demos, prompt templates)
NEEDED = ("test_conversational_implicatures.csv", "dev_conversational_implicatures.csv",
          "prompt_templates.txt")


def items(data_dir: Path, ks: Sequence[int], templates: Sequence[int], seed: int,
          limit: int | None) -> list[dict]:
    from generators.implicature import build_records
    return build_records(data_dir, split="test", ks=list(ks), templates=list(templates),
                         seed=seed, limit=limit)


def process(client, item: dict) -> dict:
    coh, inc = client.score(item["prefix"], [item["coherent_word"], item["incoherent_word"]]).scores
    return {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id"),
            "logprob_coherent": coh.sum_logprob, "logprob_incoherent": inc.sum_logprob,
            "correct": coh.sum_logprob > inc.sum_logprob,
            "predicted": item["label"] if coh.sum_logprob > inc.sum_logprob
            else item["incoherent_word"].strip()}


def summary(records: Sequence[dict], model: str) -> dict:
    cells: dict[int, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        cells[int(r["k"])][int(r["template"])].append(bool(r["correct"]))
    by_k = {}
    for k in sorted(cells):
        by_t = {str(t): M.accuracy(cells[k][t]) for t in sorted(cells[k])}
        mean, std = M.mean_std(by_t.values())
        by_k[str(k)] = {"by_template": by_t, "mean": mean, "std": std,
                        "n": sum(len(v) for v in cells[k].values())}
    # per-class precision/recall/F1 of "yes" over all cells, a check for a yes/no bias
    gold = [r["label"] for r in records]
    pred = [r["predicted"] for r in records]
    prf = {c: M.precision_recall_f1(gold, pred, c) for c in ("yes", "no")} if records else {}
    return {"suite": "implicature", "model": model, "by_k": by_k, "per_class": prf}


def write_reports(out: Path, records: Sequence[dict], summ: dict) -> list[str]:
    R.write_json(out / "summary.json", summ)
    R.write_text(out / "summary.md", R.implicature_markdown(summ))
    R.plot_implicature_vs_k(summ, out / "accuracy_vs_k.png")
    return ["summary.json", "summary.md", "accuracy_vs_k.png"]


class ImplicatureSuite(Suite):
    name = "implicature"

    def options(self) -> Sequence[Option]:
        return (option("--k", dest="ks", type=csv_of(int), default=list(KS)),
                option("--templates", type=csv_of(int), default=list(TEMPLATES)))

    def missing_data(self, args) -> MissingData | None:
        folder = data_root(args) / "implicature"
        absent = tuple(folder / f for f in NEEDED if not (folder / f).is_file())
        if not absent:
            return None
        return MissingData(self.name, absent, "the conversational implicature pairs of Ruis et al. (2023)",
                           "github.com/LauraRuis/do-pigs-fly (data/)", "implicature/")

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        return {"suite": self.name, "model": ctx.model, "ks": a.ks, "templates": a.templates,
                "seed": a.seed, "limit": a.limit}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return items(a.data / "implicature", a.ks, a.templates, a.seed, a.limit)

    def processor(self, ctx: RunContext):
        return lambda item: process(ctx.client, item)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        return summary(records, ctx.model)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"k={k}: {R.pct(v['mean'])}% ± {R.pct(v['std'])}"
                         for k, v in summary["by_k"].items())
