"""Implicature suite (Ruis et al. 2023), accuracy per template and k, by one of two protocols.

``score``: a pair is correct when the model gives the coherent final word (" yes"/" no") a
higher log-likelihood after the shared prefix than the incoherent one (GUIDE §6: the same as
comparing the full texts). ``generate``: the prompt as a chat turn, the greedy reply read as
yes/no (``client.eval.implicature_generate``; ``--cot`` asks for reasoning first); unreadable
replies are counted and wrong. ``auto`` (the default): generate for models with a chat template. A masked model (BERT)
is scored at the mask the template's ``phrase_to_put_mask`` places (``process_masked``).
Reports carry the paper's human (86.2%, best 92%) and random (50%) reference lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from client.eval import implicature_generate as G
from client.eval import metrics as M
from client.eval import report as R
from client.eval.radd_model import PROTOCOLS, resolve_protocol
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


def process_masked(client, item: dict) -> dict:
    """A masked model (BERT, RoBERTa): " yes" vs " no" at the mask that replaces the yes/no word
    in the template's `phrase_to_put_mask` (`masked_prompt`), as the paper scores masked LMs."""
    coh, inc = item["coherent_word"].strip(), item["incoherent_word"].strip()
    s_coh, s_inc = client.score(item["masked_prompt"], [coh, inc]).scores
    right = s_coh.sum_logprob > s_inc.sum_logprob
    return {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id"), "scoring": "masked",
            "logprob_coherent": s_coh.sum_logprob, "logprob_incoherent": s_inc.sum_logprob,
            "correct": right, "predicted": item["label"] if right else inc}


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
    out = {"suite": "implicature", "model": model, "by_k": by_k, "per_class": prf,
           "reference": R.IMPLICATURE_REFERENCE}
    if any(r.get("protocol") == "generate" for r in records):
        for k, block in by_k.items():
            block["unparseable"] = sum(r["predicted"] is None for r in records if str(r["k"]) == k)
    return out


def write_reports(out: Path, records: Sequence[dict], summ: dict) -> list[str]:
    R.write_json(out / "summary.json", summ)
    R.write_text(out / "summary.md", R.implicature_markdown(summ))
    R.plot_implicature_vs_k(summ, out / "accuracy_vs_k.png")
    return ["summary.json", "summary.md", "accuracy_vs_k.png"]


class ImplicatureSuite(Suite):
    name = "implicature"

    def options(self) -> Sequence[Option]:
        return (option("--k", dest="ks", type=csv_of(int), default=list(KS)),
                option("--templates", type=csv_of(int), default=list(TEMPLATES)),
                option("--protocol", choices=PROTOCOLS, default="auto",
                       help="generate: a greedy chat reply read as yes/no; score: likelihood of the coherent vs "
                            "incoherent word; auto (default): generate for models with a chat template"),
                option("--cot", action="store_true",
                       help="generate protocol: ask for step-by-step reasoning, read the final yes/no"),
                option("--implicature-tokens", type=int, default=None,
                       help=f"generate protocol: reply budget (default {G.DEFAULT_MAX_NEW_TOKENS}, "
                            f"{G.DEFAULT_COT_TOKENS} with --cot)"))

    def kind(self, ctx: RunContext) -> str:
        """The server's model family (causal | seq2seq | masked), asked once per run."""
        if getattr(ctx.args, "model_kind", None) is None:
            ctx.args.model_kind = ctx.client.info().kind or "causal"
        return ctx.args.model_kind

    def protocol(self, ctx: RunContext) -> str:
        """``--protocol``, ``auto`` resolved once per run by asking the server (masked models
        cannot generate: always ``score``, which is masked scoring for them)."""
        if getattr(ctx.args, "protocol", "auto") == "auto":
            ctx.args.protocol = "score" if self.kind(ctx) == "masked" else resolve_protocol(ctx.client, "auto")
        if ctx.args.protocol == "generate" and self.kind(ctx) == "masked":
            raise ValueError("implicature --protocol generate needs a model that generates; this server's is masked")
        if ctx.args.protocol == "score" and getattr(ctx.args, "cot", False):
            raise ValueError("implicature --cot reads a generated answer: it needs --protocol generate")
        return ctx.args.protocol

    def _tokens(self, args) -> int:
        n = getattr(args, "implicature_tokens", None)
        return n or (G.DEFAULT_COT_TOKENS if getattr(args, "cot", False) else G.DEFAULT_MAX_NEW_TOKENS)

    def missing_data(self, args) -> MissingData | None:
        folder = data_root(args) / "implicature"
        absent = tuple(folder / f for f in NEEDED if not (folder / f).is_file())
        if not absent:
            return None
        return MissingData(self.name, absent, "the conversational implicature pairs of Ruis et al. (2023)",
                           "github.com/LauraRuis/do-pigs-fly (data/)", "implicature/")

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        key = {"suite": self.name, "model": ctx.model, "ks": a.ks, "templates": a.templates,
               "seed": a.seed, "limit": a.limit}
        if self.protocol(ctx) == "generate":  # score runs keep their old key, so they resume
            key.update(protocol="generate", cot=bool(a.cot), max_new_tokens=self._tokens(a))
        elif self.kind(ctx) == "masked":
            key.update(scoring="masked")
        return key

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return items(a.data / "implicature", a.ks, a.templates, a.seed, a.limit)

    def processor(self, ctx: RunContext):
        if self.protocol(ctx) == "generate":
            cot, n = bool(ctx.args.cot), self._tokens(ctx.args)
            return lambda item: G.process(ctx.client, item, cot, n)
        if self.kind(ctx) == "masked":
            return lambda item: process_masked(ctx.client, item)
        return lambda item: process(ctx.client, item)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        s = summary(records, ctx.model)
        s["protocol"] = self.protocol(ctx)
        s["cot"] = bool(getattr(ctx.args, "cot", False))
        s["model_kind"] = self.kind(ctx)
        return s

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"k={k}: {R.pct(v['mean'])}% ± {R.pct(v['std'])} (std over templates)"
                         for k, v in summary["by_k"].items())
