"""AmP suites (Stengel-Eskin et al. 2024): zero-shot (Fig. 2, Table 2, Fig. 3) and few-shot
(Fig. 6, Table 3). ``*_items`` build work items, ``*_process`` turn one item into a record
with the server's help, ``*_summary`` are pure functions of the records; ``ZeroShotSuite`` and
``FewShotSuite`` put them under the suite protocol (``client.eval.suite``)."""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from client.eval import amp_items
from client.eval import matching as MT
from client.eval import explained
from client.eval import metrics as M
from client.eval import report as R
from client.eval.suite import Option, RunContext, Suite, csv_of, option

TYPES = ("pp", "scope", "revscope", "bound", "conj")
RATIOS = tuple(round(0.1 * i, 1) for i in range(11))
ZM_KS = (1, 2, 3, 4, 5)


def ratio_key(r: float) -> str:
    return f"{float(r):.1f}"


# ---------------------------------------------------------------------------- items

zeroshot_items = amp_items.zeroshot_items
fewshot_items = amp_items.fewshot_items


# ---------------------------------------------------------------------------- one item

def continuation(prompt: str, lf: str) -> str:
    """The LF as a continuation of the prompt: after "Computer:" the model writes " <LF>"."""
    return lf if not prompt or prompt[-1].isspace() else " " + lf


def _tokens(tokens: Sequence[str], probs: Sequence[float]) -> list[dict]:
    return [{"text": t, "prob": p} for t, p in zip(tokens, probs)]


def _decode_and_score(client, item: dict, fmt: str, beam: int, match: str, grammar: str,
                      scores: bool = True) -> dict:
    """Decode the item's prompt and match the predictions to its LFs; with `scores`, also the
    forced-decode scores of both LFs (P(LF0), FIM); without (an endpoint with no prompt
    log-probabilities) those fields are None and their tokens empty."""
    dist = client.parse_distribution(item.get("surface", ""), prompt=item["prompt"], fmt=fmt, k=beam,
                                     closed_vocabulary=grammar == "closed")
    preds = [{"text": c.text, "canonical": c.canonical or None, "status": c.parse_status,
              "logprob": c.logprob, "min_prob": c.min_prob, "probability": c.probability}
             for c in dist.candidates]
    table = MT.match_predictions(preds, (item["lf0"], item["lf1"]), fmt, match)
    for p, m0, m1 in zip(preds, *table):
        p["match_lf0"], p["match_lf1"] = m0, m1
    canon = [MT.first_match(row, "canonical") for row in table]
    equiv = [MT.first_match(row, "equivalence") if match == "equivalence" else None for row in table]
    ranks = equiv if match == "equivalence" else canon
    gold = client.score(item["prompt"], [continuation(item["prompt"], item["lf0"]),
                                         continuation(item["prompt"], item["lf1"])]).scores if scores else None
    s0, s1 = (gold[0].min_prob, gold[1].min_prob) if gold else (None, None)
    top = dist.candidates[0] if dist.candidates else None
    return {
        "type": item["type"], "surface": item.get("surface", ""), "lf0": item["lf0"], "lf1": item["lf1"],
        "predictions": preds, "model_id": dist.model_id,
        "rank_lf0": ranks[0], "rank_lf1": ranks[1],
        "rank_lf0_canonical": canon[0], "rank_lf1_canonical": canon[1],
        "rank_lf0_equiv": equiv[0], "rank_lf1_equiv": equiv[1],
        "min_prob_lf0": s0, "min_prob_lf1": s1, "p_lf0": M.renormalised_p0(s0, s1) if gold else None,
        "tokens_lf0": _tokens(gold[0].tokens, gold[0].token_probs) if gold else [],
        "tokens_lf1": _tokens(gold[1].tokens, gold[1].token_probs) if gold else [],
        "tokens_pred": _tokens(top.tokens, top.token_probs) if top else [],
        **explained.paraphrases(dist, item, fmt),
    }


def zeroshot_process(client, item: dict, fmt: str = "fol", beam: int = 5,
                     match: str = "equivalence", grammar: str = "closed", scores: bool = True) -> dict:
    return _decode_and_score(client, item, fmt, beam, match, grammar, scores)


def fewshot_process(client, item: dict, fmt: str = "fol", beam: int = 5,
                    match: str = "equivalence", grammar: str = "closed", scores: bool = True) -> dict:
    rec = _decode_and_score(client, item, fmt, beam, match, grammar, scores)
    rec["ratio"] = float(item["ratio"])
    rec["top1"] = _label(rec["rank_lf0"], rec["rank_lf1"])
    rec["top1_canonical"] = _label(rec["rank_lf0_canonical"], rec["rank_lf1_canonical"])
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


def _checks(recs: Sequence[dict]) -> dict[str, int]:
    """Over every prediction and both gold LFs: matches the equivalence match accepted and
    the canonical match rejected, and Prolog's UNKNOWN verdicts (each counted as no match)."""
    cells = [p.get(f"match_lf{g}") for r in recs for p in r["predictions"] for g in (0, 1)]
    return {"equiv_only": sum(c == "EQUIVALENT" for c in cells), "unknown": sum(c == "UNKNOWN" for c in cells)}


def _unparsed(recs: Sequence[dict]) -> dict[str, int]:
    """Outputs that do not parse (each counted as wrong): items whose top-1 prediction does not,
    and predictions overall."""
    return {"unparsed_top1": sum(not r["predictions"] or r["predictions"][0]["status"] != "OK" for r in recs),
            "unparsed": sum(p["status"] != "OK" for r in recs for p in r["predictions"])}


def _absent(settings: dict, metrics: Sequence[str], label: str) -> dict:
    """``{"absent": {metric: "n/a: why"}}`` for a run without forced-decode scores; else ``{}``."""
    if settings.get("forced_decode", True):
        return {}
    from server.remote.capabilities import refusal

    why = "n/a: " + refusal(f"{label} (forced-decode scores of the gold LFs)", "prompt_logprobs")
    return {"absent": {m: why for m in metrics}}


def _ranked(recs: Sequence[dict], suffix: str) -> list[tuple[int | None, int | None]]:
    return [(r[f"rank_lf0{suffix}"], r[f"rank_lf1{suffix}"]) for r in recs]


def _acc_zm(ranks: Sequence[tuple[int | None, int | None]], equivalence_ran: bool = True) -> tuple:
    if not equivalence_ran:
        return None, None, {str(k): None for k in ZM_KS}
    return (M.accuracy(r0 == 0 for r0, _ in ranks), M.accuracy(r1 == 0 for _, r1 in ranks),
            {str(k): M.zm_k(ranks, k) for k in ZM_KS})


def _protocol(settings: dict) -> dict:
    """The protocol fields every AmP summary carries (``run.json`` holds them too)."""
    keys = ("beam", "grammar", "match", "items_source", "ingredients", "release_matched", "forced_decode")
    return {k: settings[k] for k in keys if k in settings}


def zeroshot_summary(records: Sequence[dict], model: str, settings: dict | None = None) -> dict:
    settings = settings or {}
    equivalence_ran = settings.get("match", "equivalence") == "equivalence"
    by_type = {}
    for t, recs in _by_type(records).items():
        acc0, acc1, zm = _acc_zm(_ranked(recs, ""))
        c0, c1, zmc = _acc_zm(_ranked(recs, "_canonical"))
        e0, e1, zme = _acc_zm(_ranked(recs, "_equiv"), equivalence_ran)
        ps = [r["p_lf0"] for r in recs if r["p_lf0"] is not None]
        by_type[t] = {
            "n": len(recs),
            "acc_lf0": acc0, "acc_lf1": acc1, "zm": zm,
            "acc_lf0_canonical": c0, "acc_lf1_canonical": c1, "zm_canonical": zmc,
            "acc_lf0_equiv": e0, "acc_lf1_equiv": e1, "zm_equiv": zme,
            **_checks(recs), **_unparsed(recs),
            "p_lf0_mean": M.mean_std(ps)[0],
            "p_lf0_std": M.mean_std(ps)[1],
            "parse_ok_top1": M.accuracy(r["predictions"][0]["status"] == "OK"
                                        for r in recs if r["predictions"]),
        }
    return {"suite": "amp-zeroshot", "model": model, **_protocol(settings), **_absent(settings, ("p_lf0",), "P(LF0)"),
            "by_type": by_type}


def _by_ratio(recs: Sequence[dict], key: str) -> dict[float, list]:
    out: dict[float, list] = defaultdict(list)
    for r in recs:
        out[r["ratio"]].append(r[key])
    return out


def fewshot_summary(records: Sequence[dict], model: str, settings: dict | None = None) -> dict:
    settings = settings or {}
    equivalence_ran = settings.get("match", "equivalence") == "equivalence"
    fdm = M.fdm if settings.get("forced_decode", True) else (lambda _: None)  # FDM/FIM only with scores
    by_type = {}
    for t, recs in _by_type(records).items():
        labels, canon, equiv = (_by_ratio(recs, k) for k in ("top1", "top1_canonical", "top1_equiv"))
        ps: dict[float, list] = defaultdict(list)
        for r in recs:
            if r["p_lf0"] is not None:
                ps[r["ratio"]].append(r["p_lf0"])
        ratios = sorted(labels)

        def acc(lab: dict[float, list], want: int) -> dict[str, float | None]:
            return {ratio_key(r): M.accuracy(x == want for x in lab[r]) for r in ratios}

        by_type[t] = {
            "n": len(recs),
            "fdm": fdm(labels), "fim": M.fim(ps), "fdm_canonical": fdm(canon),
            "fdm_equiv": fdm(equiv) if equivalence_ran else None,
            **_checks(recs), **_unparsed(recs),
            "acc_lf0_by_ratio": acc(labels, 0), "acc_lf1_by_ratio": acc(labels, 1),
            "acc_lf0_canonical_by_ratio": acc(canon, 0),
            "acc_lf0_equiv_by_ratio": acc(equiv, 0) if equivalence_ran else None,
            "p_lf0_mean_by_ratio": {ratio_key(r): M.mean_std(ps[r])[0] for r in ratios},
            "n_by_ratio": {ratio_key(r): len(labels[r]) for r in ratios},
        }
    return {"suite": "amp-fewshot", "model": model, **_protocol(settings), **_absent(settings, ("fdm", "fim"), "FDM and FIM"),
            "by_type": by_type}


def protocol_markdown(summary: dict) -> str:
    """The lines of ``summary.md`` that say how the numbers were made, and how LF0/LF1 of
    conjunctions relate to the paper's Table 1."""
    by = summary["by_type"]
    out = ["\n## Protocol\n",
           f"- decoding: beam {summary.get('beam')}, {summary.get('grammar')} grammar; matches by "
           f"{summary.get('match')}" + (" (Prolog EQUIVALENT, canonical equality as the fast path)"
                                        if summary.get("match") == "equivalence" else " (canonical strings)"),
           f"- test items: {summary.get('items_source')}"]
    matched = summary.get("release_matched")
    if matched:
        out.append("- released items matched to a generator template (own-word ingredients): "
                   + ", ".join(f"{t} {v['matched']}/{v['n']}" for t, v in matched.items()))
    if summary.get("ingredients"):
        out.append(f"- zero-shot ingredients: {summary['ingredients']}")
    if summary.get("match") == "equivalence":
        out.append("- predictions the equivalence match accepted and the canonical match rejected: "
                   + ", ".join(f"{t} {v['equiv_only']}" for t, v in by.items())
                   + "; UNKNOWN verdicts (counted as no match): "
                   + ", ".join(f"{t} {v['unknown']}" for t, v in by.items()))
    out.append("- outputs that do not parse (counted as wrong): top-1 "
               + ", ".join(f"{t} {v['unparsed_top1']}/{v['n']}" for t, v in by.items())
               + "; all predictions " + ", ".join(f"{t} {v['unparsed']}" for t, v in by.items()))
    absent = summary.get("absent") or {}
    for why in dict.fromkeys(absent.values()):  # one line per reason
        names = [m.upper() if m != "p_lf0" else "P(LF0) (Fig. 3)" for m, w in absent.items() if w == why]
        out.append(f"- {', '.join(names)}: {why}")
    if "conj" in by:
        out.append("- conj: LF0/LF1 follow AmP's released data (`template_idx`): for \"the woman drank "
                   "and ate or slept\", LF0 = drank ∧ (ate ∨ slept), LF1 = (drank ∧ ate) ∨ slept. "
                   "The paper's Table 1 names them the other way round.")
    return "\n".join(out) + "\n"


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


def _fig4_items(records: Sequence[dict]) -> list[dict]:
    """The paper's Fig. 4: per type, the first record whose top prediction matches LF0 or LF1
    (the run's match), its predicted tokens, then the other LF's forced-decode tokens."""
    items = []
    for t, recs in _by_type(records).items():
        hit = next((r for r in recs if 0 in (r["rank_lf0"], r["rank_lf1"])), None)
        if hit is None:
            items.append({"id": t, "surface": f"no item's top prediction is LF0 or LF1 ({len(recs)} items)",
                          "rows": []})
            continue
        got = 0 if hit["rank_lf0"] == 0 else 1
        other = 1 - got
        p_other = hit["p_lf0"] if other == 0 else (None if hit["p_lf0"] is None else 1 - hit["p_lf0"])
        items.append({"id": f"{t} ({hit['id']})", "surface": hit["surface"], "rows": [
            {"label": f"predicted, LF{got} (beam search): {hit['predictions'][0]['text']}",
             "tokens": hit["tokens_pred"], "paraphrase": hit.get("paraphrase_pred")},
            {"label": f"alternative, LF{other} (forced decode, P={R.num(p_other)})",
             "tokens": hit[f"tokens_lf{other}"], "paraphrase": hit.get(f"paraphrase_lf{other}")}]})
    return items


def write_zeroshot_reports(out: Path, records: Sequence[dict], summary: dict) -> list[str]:
    R.write_json(out / "summary.json", summary)
    R.write_text(out / "summary.md", R.zeroshot_markdown(summary) + protocol_markdown(summary))
    R.plot_zeroshot_accuracy(summary, out / "fig2_accuracy.png")
    p_by_type = {t: [r["p_lf0"] for r in recs] for t, recs in _by_type(records).items()}
    R.plot_p_lf0_distribution(p_by_type, out / "fig3_p_lf0.png", f"P(LF0) — {summary['model']}")
    R.token_confidence_html(_token_items(records), out / "fig4_tokens.html",
                            f"Token confidence, zero-shot — {summary['model']}", fig4=_fig4_items(records))
    return ["summary.json", "summary.md", "fig2_accuracy.png", "fig3_p_lf0.png", "fig4_tokens.html"]


def write_fewshot_reports(out: Path, records: Sequence[dict], summary: dict) -> list[str]:
    R.write_json(out / "summary.json", summary)
    R.write_text(out / "summary.md", R.fewshot_markdown(summary) + protocol_markdown(summary))
    R.plot_fewshot_accuracy(summary, out / "fig6_lf0_vs_ratio.png")
    R.token_confidence_html(_token_items(records), out / "fig4_tokens.html",
                            f"Token confidence, few-shot — {summary['model']}", fig4=_fig4_items(records))
    return ["summary.json", "summary.md", "fig6_lf0_vs_ratio.png", "fig4_tokens.html"]


# ---------------------------------------------------------------------------- the suites

def _positive(text: str) -> int:
    """An argparse ``type``: an integer of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, not {text!r}")
    return n


AMP_OPTIONS = (
    option("--types", type=csv_of(str), default=list(TYPES)),
    option("--ratios", type=csv_of(float), default=list(RATIOS)),
    option("--format", dest="fmt", choices=("fol", "lisp"), default="fol"),
    option("--beam", type=_positive, default=5, help="beam size (default 5, the paper's)"),
    option("--grammar", choices=("closed", "open"), default="closed",
           help="closed: only the AmP lexicon's predicates and constants and the variables "
                "x y z a e i (the paper's restriction); open: any predicate and variable"),
    option("--match", choices=MT.MATCHES, default="equivalence",
           help="equivalence: a prediction matches a gold LF when Prolog says EQUIVALENT; "
                "canonical: equal canonical strings"),
    option("--no-equiv", dest="match", action="store_const", const="canonical",
           help="the same as --match canonical"),
)
INGREDIENTS_OPTION = option(
    "--ingredients", choices=("own", "sampled"), default="own",
    help="zero-shot demonstrations: own (made from the test sentence's own words, the paper's) "
         "or sampled (ingredient families with other words)")


def _forced_decode(ctx: RunContext) -> bool:
    """Whether the run's server scores the gold LFs (not an endpoint without prompt log-probabilities)."""
    from client.eval.remote import forced_decode

    return ctx.client is None or forced_decode(ctx.client.info().remote)


def _na(x: float | None, absent: bool) -> str:
    return "n/a" if absent else R.num(x, 2)


class _AmpSuite(Suite):
    """What the zero-shot and few-shot suites share: options, run key, per-item work."""

    setting: str  # zeroshot | fewshot
    process_item: Callable[..., dict]  # (client, item, fmt=, beam=, match=, grammar=) -> record

    def options(self) -> Sequence[Option]:
        return AMP_OPTIONS

    def settings(self, ctx: RunContext) -> dict:
        """The protocol of this run: what ``run.json`` and ``summary.json`` record."""
        a = ctx.args
        out = {"beam": a.beam, "grammar": a.grammar, "match": a.match,
               "items_source": amp_items.items_source(a.data, self.setting, a.types)}
        if not _forced_decode(ctx):
            out["forced_decode"] = False  # an endpoint without prompt log-probabilities: accuracy only
        return out

    def run_key(self, ctx: RunContext) -> dict:
        a = ctx.args
        return {"suite": self.name, "model": ctx.model, "types": a.types, "seed": a.seed,
                "limit": a.limit, "format": a.fmt, **self.settings(ctx)}

    def processor(self, ctx: RunContext):
        a = ctx.args
        scores = _forced_decode(ctx)
        return lambda item: self.process_item(ctx.client, item, fmt=a.fmt, beam=a.beam,
                                              match=a.match, grammar=a.grammar, scores=scores)


class ZeroShotSuite(_AmpSuite):
    name = "amp-zeroshot"
    setting = "zeroshot"

    def options(self) -> Sequence[Option]:
        return (*AMP_OPTIONS, INGREDIENTS_OPTION)

    def settings(self, ctx: RunContext) -> dict:
        return {**super().settings(ctx), "ingredients": ctx.args.ingredients}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return zeroshot_items(a.types, a.seed, a.limit, a.fmt, a.data, a.ingredients)

    process_item = staticmethod(zeroshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        a = ctx.args
        settings = self.settings(ctx)
        if settings["items_source"] == "amp-release":
            settings["release_matched"] = amp_items.release_matched(a.types, a.data, a.seed)
        return zeroshot_summary(records, ctx.model, settings)

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_zeroshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        return "; ".join(f"{t}: LF0 {R.pct(v['acc_lf0'])}% LF1 {R.pct(v['acc_lf1'])}% ZM5 "
                         f"{R.pct(v['zm']['5'])}%" for t, v in summary["by_type"].items())


class FewShotSuite(_AmpSuite):
    name = "amp-fewshot"
    setting = "fewshot"

    def run_key(self, ctx: RunContext) -> dict:
        return {**super().run_key(ctx), "ratios": [ratio_key(r) for r in ctx.args.ratios]}

    def items(self, ctx: RunContext) -> list[dict]:
        a = ctx.args
        return fewshot_items(a.types, a.ratios, a.seed, a.limit, a.fmt, a.data)

    process_item = staticmethod(fewshot_process)

    def summarise(self, records, items, ctx: RunContext) -> dict:
        return fewshot_summary(records, ctx.model, self.settings(ctx))

    def write_reports(self, records, summary: dict, ctx: RunContext) -> None:
        write_fewshot_reports(ctx.out, records, summary)

    def headline(self, summary: dict) -> str:
        absent = "absent" in summary
        return "; ".join(f"{t}: FDM {_na(v['fdm'], absent)} FIM {_na(v['fim'], absent)}"
                         + (f" (no prompt log-probabilities; unparsed top-1 {v['unparsed_top1']}/{v['n']})"
                            if absent else "")
                         for t, v in summary["by_type"].items())
