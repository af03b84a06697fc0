"""AmP suites (Stengel-Eskin et al. 2024): zero-shot (Fig. 2, Table 2, Fig. 3) and few-shot
(Fig. 6, Table 3). ``*_items`` build work items, ``*_process`` turn one item into a record
with the server's help, ``*_summary`` are pure functions of the records; ``ZeroShotSuite`` and
``FewShotSuite`` put them under the suite protocol (``client.eval.suite``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from client.eval import explained
from client.eval import metrics as M
from client.eval import report as R
from client.eval.suite import Option, RunContext, Suite, csv_of, option

TYPES = ("pp", "scope", "revscope", "bound", "conj")
RATIOS = tuple(round(0.1 * i, 1) for i in range(11))
ZM_KS = (1, 2, 3, 4, 5)


def ratio_key(r: float) -> str:
    return f"{float(r):.1f}"


def _canonical(text: str, fmt: str) -> str | None:
    import logic
    try:
        return logic.canonical(text, fmt)
    except Exception:
        return None


# ---------------------------------------------------------------------------- items

def zeroshot_items(types: Sequence[str], seed: int, limit: int | None, fmt: str) -> list[dict]:
    from generators import amp
    items = []
    for t in types:
        for rec in amp.zeroshot_prompts(t, seed=seed, limit=limit, fmt=fmt):
            items.append({**rec, "id": f"{t}/{rec['id']}", "type": t})
    return items


def fewshot_items(types: Sequence[str], ratios: Sequence[float], seed: int, limit: int | None,
                  fmt: str) -> list[dict]:
    from generators import amp
    items = []
    for t in types:
        for rec in amp.fewshot_prompts(t, ratios=list(ratios), seed=seed, limit=limit, fmt=fmt):
            items.append({**rec, "id": f"{t}/{rec['id']}", "type": t})
    return items


# ---------------------------------------------------------------------------- one item

def _ranks(client, preds: Sequence[dict], lf: str, canon: str | None, fmt: str,
           equivalence: bool) -> tuple[int | None, int | None]:
    """(rank by canonical match, rank by Prolog equivalence) of ``lf`` among ``preds``."""
    exact = M.first_rank([p["canonical"] for p in preds], canon) if canon else None
    if not equivalence:
        return exact, None
    for i, p in enumerate(preds):
        if exact is not None and i >= exact:
            return exact, exact
        if p["status"] != "OK":
            continue
        try:
            verdict = client.equivalent(p["text"], lf, fmt=fmt).verdict
        except Exception as err:  # an LF the server cannot read is simply not a match
            p.setdefault("equiv_errors", []).append(str(err))
            continue
        p.setdefault("verdicts", []).append(verdict)
        if verdict == "EQUIVALENT":
            return exact, i
    return exact, exact


def continuation(prompt: str, lf: str) -> str:
    """The LF as a continuation of the prompt: after "Computer:" the model writes " <LF>"."""
    return lf if not prompt or prompt[-1].isspace() else " " + lf


def _tokens(tokens: Sequence[str], probs: Sequence[float]) -> list[dict]:
    return [{"text": t, "prob": p} for t, p in zip(tokens, probs)]


def _decode_and_score(client, item: dict, fmt: str, beam: int, equivalence: bool) -> dict:
    dist = client.parse_distribution(item.get("surface", ""), prompt=item["prompt"], fmt=fmt, k=beam)
    preds = [{"text": c.text, "canonical": c.canonical or None, "status": c.parse_status,
              "logprob": c.logprob, "min_prob": c.min_prob, "probability": c.probability}
             for c in dist.candidates]
    c0, c1 = _canonical(item["lf0"], fmt), _canonical(item["lf1"], fmt)
    r0, r0e = _ranks(client, preds, item["lf0"], c0, fmt, equivalence)
    r1, r1e = _ranks(client, preds, item["lf1"], c1, fmt, equivalence)
    scores = client.score(item["prompt"], [continuation(item["prompt"], item["lf0"]),
                                           continuation(item["prompt"], item["lf1"])]).scores
    s0, s1 = scores[0].min_prob, scores[1].min_prob
    top = dist.candidates[0] if dist.candidates else None
    return {
        "type": item["type"], "surface": item.get("surface", ""), "lf0": item["lf0"], "lf1": item["lf1"],
        "predictions": preds, "model_id": dist.model_id,
        "rank_lf0": r0, "rank_lf1": r1, "rank_lf0_equiv": r0e, "rank_lf1_equiv": r1e,
        "min_prob_lf0": s0, "min_prob_lf1": s1, "p_lf0": M.renormalised_p0(s0, s1),
        "tokens_lf0": _tokens(scores[0].tokens, scores[0].token_probs),
        "tokens_lf1": _tokens(scores[1].tokens, scores[1].token_probs),
        "tokens_pred": _tokens(top.tokens, top.token_probs) if top else [],
        **explained.paraphrases(dist, item, fmt),
    }


def zeroshot_process(client, item: dict, fmt: str = "fol", beam: int = 5,
                     equivalence: bool = True) -> dict:
    return _decode_and_score(client, item, fmt, beam, equivalence)


def fewshot_process(client, item: dict, fmt: str = "fol", beam: int = 1,
                    equivalence: bool = True) -> dict:
    rec = _decode_and_score(client, item, fmt, beam, equivalence)
    rec["ratio"] = float(item["ratio"])
    rec["top1"] = _label(rec["rank_lf0"], rec["rank_lf1"])
    rec["top1_equiv"] = _label(rec["rank_lf0_equiv"], rec["rank_lf1_equiv"])
    return rec


def _label(r0: int | None, r1: int | None) -> int | None:
    """0 / 1 when the top-1 prediction is LF0 / LF1, None when it is neither."""
    if r0 == 0:
        return 0
    if r1 == 0:
        return 1
    return None


# ---------------------------------------------------------------------------- summaries

def _by_type(records: Iterable[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        out[r["type"]].append(r)
    return {t: out[t] for t in R._ordered(out)}


def zeroshot_summary(records: Sequence[dict], model: str) -> dict:
    by_type = {}
    for t, recs in _by_type(records).items():
        ranks = [(r["rank_lf0"], r["rank_lf1"]) for r in recs]
        ranks_eq = [(r["rank_lf0_equiv"], r["rank_lf1_equiv"]) for r in recs]
        ps = [r["p_lf0"] for r in recs if r["p_lf0"] is not None]
        by_type[t] = {
            "n": len(recs),
            "acc_lf0": M.accuracy(r0 == 0 for r0, _ in ranks),
            "acc_lf1": M.accuracy(r1 == 0 for _, r1 in ranks),
            "acc_lf0_equiv": M.accuracy(r0 == 0 for r0, _ in ranks_eq),
            "acc_lf1_equiv": M.accuracy(r1 == 0 for _, r1 in ranks_eq),
            "zm": {str(k): M.zm_k(ranks, k) for k in ZM_KS},
            "zm_equiv": {str(k): M.zm_k(ranks_eq, k) for k in ZM_KS},
            "p_lf0_mean": M.mean_std(ps)[0],
            "p_lf0_std": M.mean_std(ps)[1],
            "parse_ok_top1": M.accuracy(r["predictions"][0]["status"] == "OK"
                                        for r in recs if r["predictions"]),
        }
    return {"suite": "amp-zeroshot", "model": model, "by_type": by_type}


def fewshot_summary(records: Sequence[dict], model: str) -> dict:
    by_type = {}
    for t, recs in _by_type(records).items():
        labels: dict[float, list] = defaultdict(list)
        labels_eq: dict[float, list] = defaultdict(list)
        ps: dict[float, list] = defaultdict(list)
        for r in recs:
            labels[r["ratio"]].append(r["top1"])
            labels_eq[r["ratio"]].append(r["top1_equiv"])
            if r["p_lf0"] is not None:
                ps[r["ratio"]].append(r["p_lf0"])
        ratios = sorted(labels)
        by_type[t] = {
            "n": len(recs),
            "fdm": M.fdm(labels), "fim": M.fim(ps), "fdm_equiv": M.fdm(labels_eq),
            "acc_lf0_by_ratio": {ratio_key(r): M.accuracy(x == 0 for x in labels[r]) for r in ratios},
            "acc_lf1_by_ratio": {ratio_key(r): M.accuracy(x == 1 for x in labels[r]) for r in ratios},
            "acc_lf0_equiv_by_ratio": {ratio_key(r): M.accuracy(x == 0 for x in labels_eq[r])
                                       for r in ratios},
            "p_lf0_mean_by_ratio": {ratio_key(r): M.mean_std(ps[r])[0] for r in ratios},
        }
    return {"suite": "amp-fewshot", "model": model, "by_type": by_type}


# ---------------------------------------------------------------------------- reports

def _token_items(records: Sequence[dict], limit: int = 50) -> list[dict]:
    items = []
    for r in records[:limit]:
        top = r["predictions"][0]["text"] if r["predictions"] else ""
        rows = [{"label": f"predicted: {top}", "tokens": r["tokens_pred"], "paraphrase": r.get("paraphrase_pred")},
                {"label": f"LF0 (P={R.num(r['p_lf0'])})", "tokens": r["tokens_lf0"],
                 "paraphrase": r.get("paraphrase_lf0")},
                {"label": f"LF1 (P={R.num(None if r['p_lf0'] is None else 1 - r['p_lf0'])})",
                 "tokens": r["tokens_lf1"], "paraphrase": r.get("paraphrase_lf1")}]
        items.append({"id": r["id"], "surface": r["surface"], "rows": rows})
    return items


def write_zeroshot_reports(out: Path, records: Sequence[dict], summary: dict) -> list[str]:
    R.write_json(out / "summary.json", summary)
    R.write_text(out / "summary.md", R.zeroshot_markdown(summary))
    R.plot_zeroshot_accuracy(summary, out / "fig2_accuracy.png")
    p_by_type = {t: [r["p_lf0"] for r in recs] for t, recs in _by_type(records).items()}
    R.plot_p_lf0_distribution(p_by_type, out / "fig3_p_lf0.png", f"P(LF0) — {summary['model']}")
    R.token_confidence_html(_token_items(records), out / "fig4_tokens.html",
                            f"Token confidence, zero-shot — {summary['model']}")
    return ["summary.json", "summary.md", "fig2_accuracy.png", "fig3_p_lf0.png", "fig4_tokens.html"]


def write_fewshot_reports(out: Path, records: Sequence[dict], summary: dict) -> list[str]:
    R.write_json(out / "summary.json", summary)
    R.write_text(out / "summary.md", R.fewshot_markdown(summary))
    R.plot_fewshot_accuracy(summary, out / "fig6_lf0_vs_ratio.png")
    R.token_confidence_html(_token_items(records), out / "fig4_tokens.html",
                            f"Token confidence, few-shot — {summary['model']}")
    return ["summary.json", "summary.md", "fig6_lf0_vs_ratio.png", "fig4_tokens.html"]


# ---------------------------------------------------------------------------- the suites

AMP_OPTIONS = (
    option("--types", type=csv_of(str), default=list(TYPES)),
    option("--ratios", type=csv_of(float), default=list(RATIOS)),
    option("--format", dest="fmt", choices=("fol", "lisp"), default="fol"),
    option("--beam", type=int, help="beam size (default 5 zero-shot, 1 few-shot)"),
    option("--no-equiv", dest="equivalence", action="store_false",
           help="skip Prolog equivalence checks (canonical match only)"),
)


class _AmpSuite(Suite):
    """What the zero-shot and few-shot suites share: options, run key, per-item work."""

    default_beam: int
    process_item: Callable[..., dict]  # (client, item, fmt=, beam=, equivalence=) -> record

    def options(self) -> Sequence[Option]:
        return AMP_OPTIONS

    def beam(self, args) -> int:
        return args.beam or self.default_beam

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        return {"suite": self.name, "model": ctx.model, "types": a.types, "seed": a.seed,
                "limit": a.limit, "format": a.fmt, "beam": self.beam(a), "equivalence": a.equivalence}

    def processor(self, ctx: RunContext):
        a, beam = ctx.args, self.beam(ctx.args)
        return lambda item: self.process_item(ctx.client, item, fmt=a.fmt, beam=beam,
                                          equivalence=a.equivalence)


class ZeroShotSuite(_AmpSuite):
    name = "amp-zeroshot"
    default_beam = 5

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return zeroshot_items(a.types, a.seed, a.limit, a.fmt)

    process_item = staticmethod(zeroshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        return zeroshot_summary(records, ctx.model)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_zeroshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"{t}: LF0 {R.pct(v['acc_lf0'])}% LF1 {R.pct(v['acc_lf1'])}% ZM5 "
                         f"{R.pct(v['zm']['5'])}%" for t, v in summary["by_type"].items())


class FewShotSuite(_AmpSuite):
    name = "amp-fewshot"
    default_beam = 1

    def run_key(self, ctx: RunContext) -> dict:
        return {**super().run_key(ctx), "ratios": [ratio_key(r) for r in ctx.args.ratios]}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return fewshot_items(a.types, a.ratios, a.seed, a.limit, a.fmt)

    process_item = staticmethod(fewshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        return fewshot_summary(records, ctx.model)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_fewshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"{t}: FDM {R.num(v['fdm'], 2)} FIM {R.num(v['fim'], 2)}"
                         for t, v in summary["by_type"].items())
