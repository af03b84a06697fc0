"""AmP summaries (zero-shot: accuracy, ZM_k, P(LF0); few-shot: FDM, FIM, accuracy by ratio) per
ambiguity type, pure functions of the records, and the files a run writes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from ambit.client.eval import metrics as M
from ambit.client.eval import report as R

ZM_KS = (1, 2, 3, 4, 5)


def ratio_key(r: float) -> str:
    return f"{float(r):.1f}"


def _by_type(records: Iterable[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        out[r["type"]].append(r)
    return {t: out[t] for t in R._ordered(out)}


def _checks(recs: Sequence[dict]) -> dict[str, int]:
    """Matches only the equivalence match accepted, and Prolog's UNKNOWN verdicts (no match)."""
    cells = [p.get(f"match_lf{g}") for r in recs for p in r["predictions"] for g in (0, 1)]
    return {"equiv_only": sum(c == "EQUIVALENT" for c in cells), "unknown": sum(c == "UNKNOWN" for c in cells)}


def _unparsed(recs: Sequence[dict]) -> dict[str, int]:
    """Outputs that do not parse (counted as wrong): top-1 and overall; apart, items a recorded file
    has no output for (`missing`, also wrong, never unparsed)."""
    given = [r for r in recs if r.get("recorded", True) is not False]
    out = {"unparsed_top1": sum(not r["predictions"] or r["predictions"][0]["status"] != "OK" for r in given),
           "unparsed": sum(p["status"] != "OK" for r in given for p in r["predictions"])}
    if len(given) < len(recs) or any("recorded" in r for r in recs):
        out["missing"] = len(recs) - len(given)
    return out


def _absent(settings: dict, metrics: Sequence[str], label: str) -> dict:
    """``{"absent": {metric: "n/a: why"}}`` for a run without forced-decode scores; else ``{}``."""
    if settings.get("forced_decode", True):
        return {}
    if settings.get("forced_decode_absent"):  # recorded predictions without the LFs' log-probabilities
        return {"absent": {m: settings["forced_decode_absent"] for m in metrics}}
    from ambit.server.remote.capabilities import refusal

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
    keys = ("beam", "grammar", "match", "items_source", "ingredients", "release_matched", "forced_decode", "outputs",
            "predictions")
    return {k: settings[k] for k in keys if k in settings}


def zeroshot_summary(records: Sequence[dict], model: str, settings: dict | None = None) -> dict:
    settings = settings or {}
    equivalence_ran = settings.get("match", "equivalence") == "equivalence"
    absent = _absent(settings, ("p_lf0",), "P(LF0)")  # n/a for the run: none from lines with scores
    by_type = {}
    for t, recs in _by_type(records).items():
        acc0, acc1, zm = _acc_zm(_ranked(recs, ""))
        c0, c1, zmc = _acc_zm(_ranked(recs, "_canonical"))
        e0, e1, zme = _acc_zm(_ranked(recs, "_equiv"), equivalence_ran)
        ps = [] if absent else [r["p_lf0"] for r in recs if r["p_lf0"] is not None]
        by_type[t] = {
            "n": len(recs), "acc_lf0": acc0, "acc_lf1": acc1, "zm": zm,
            "acc_lf0_canonical": c0, "acc_lf1_canonical": c1, "zm_canonical": zmc,
            "acc_lf0_equiv": e0, "acc_lf1_equiv": e1, "zm_equiv": zme,
            **_checks(recs), **_unparsed(recs),
            "p_lf0_mean": M.mean_std(ps)[0], "p_lf0_std": M.mean_std(ps)[1],
            "parse_ok_top1": M.accuracy(r["predictions"][0]["status"] == "OK"
                                        for r in recs if r["predictions"]),
        }
    return {"suite": "amp-zeroshot", "model": model, **_protocol(settings), **absent, "by_type": by_type}


def _by_ratio(recs: Sequence[dict], key: str) -> dict[float, list]:
    out: dict[float, list] = defaultdict(list)
    for r in recs:
        out[r["ratio"]].append(r[key])
    return out


def fewshot_summary(records: Sequence[dict], model: str, settings: dict | None = None) -> dict:
    settings = settings or {}
    equivalence_ran = settings.get("match", "equivalence") == "equivalence"
    # FDM/FIM need scores, but recorded predictions have their own top-1: FDM needs nothing else
    recorded = settings.get("outputs") == "recorded"
    fdm = M.fdm if settings.get("forced_decode", True) or recorded else (lambda _: None)
    by_type = {}
    for t, recs in _by_type(records).items():
        labels, canon, equiv = (_by_ratio(recs, k) for k in ("top1", "top1_canonical", "top1_equiv"))
        scored = [r for r in recs if r["p_lf0"] is not None and settings.get("forced_decode", True)]
        ps = _by_ratio(scored, "p_lf0")
        ratios = sorted(labels)

        def acc(lab: dict[float, list], want: int) -> dict[str, float | None]:
            return {ratio_key(r): M.accuracy(x == want for x in lab[r]) for r in ratios}

        by_type[t] = {
            "n": len(recs), "fdm": fdm(labels), "fim": M.fim(ps), "fdm_canonical": fdm(canon),
            "fdm_equiv": fdm(equiv) if equivalence_ran else None,
            **_checks(recs), **_unparsed(recs),
            "acc_lf0_by_ratio": acc(labels, 0), "acc_lf1_by_ratio": acc(labels, 1),
            "acc_lf0_canonical_by_ratio": acc(canon, 0),
            "acc_lf0_equiv_by_ratio": acc(equiv, 0) if equivalence_ran else None,
            "p_lf0_mean_by_ratio": {ratio_key(r): M.mean_std(ps[r])[0] for r in ratios},
            "n_by_ratio": {ratio_key(r): len(labels[r]) for r in ratios},
        }
    absent = _absent(settings, ("fim",) if recorded else ("fdm", "fim"), "FDM and FIM")
    return {"suite": "amp-fewshot", "model": model, **_protocol(settings), **absent, "by_type": by_type}


def protocol_markdown(summary: dict) -> str:
    """The lines of ``summary.md`` that say how the numbers were made."""
    by = summary["by_type"]
    decoding = (f"recorded predictions from {summary.get('predictions')} (the system decoded them; no model ran)"
                if summary.get("outputs") == "recorded" else
                f"beam {summary.get('beam')}, {summary.get('grammar')} grammar")
    out = ["\n## Protocol\n",
           f"- decoding: {decoding}; matches by "
           f"{summary.get('match')}" + (" (Prolog EQUIVALENT, canonical equality as the fast path)"
                                        if summary.get("match") == "equivalence" else " (canonical strings)"),
           f"- test items: {summary.get('items_source')}"]
    if matched := summary.get("release_matched"):
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
    if any("missing" in v for v in by.values()):
        out.append("- items the predictions file has no line for (counted as wrong, never as unparsed): "
                   + ", ".join(f"{t} {v.get('missing', 0)}/{v['n']}" for t, v in by.items()))
    absent = summary.get("absent") or {}
    for why in dict.fromkeys(absent.values()):  # one line per reason
        names = [m.upper() if m != "p_lf0" else "P(LF0) (Fig. 3)" for m, w in absent.items() if w == why]
        out.append(f"- {', '.join(names)}: {why}")
    if "conj" in by:
        out.append("- conj: LF0/LF1 follow AmP's released data (`template_idx`): for \"the woman drank "
                   "and ate or slept\", LF0 = drank ∧ (ate ∨ slept), LF1 = (drank ∧ ate) ∨ slept. "
                   "The paper's Table 1 names them the other way round.")
    return "\n".join(out) + "\n"


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
    """Fig. 4: per type, the first record whose top-1 is LF0 or LF1, and the other LF's tokens."""
    items = []
    for t, recs in _by_type(records).items():
        hit = next((r for r in recs if 0 in (r["rank_lf0"], r["rank_lf1"])), None)
        if hit is None:
            items.append({"id": t, "surface": f"no item's top prediction is LF0 or LF1 ({len(recs)} item{'' if len(recs) == 1 else 's'})",
                          "rows": []})
            continue
        got, other = (0, 1) if hit["rank_lf0"] == 0 else (1, 0)
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
    absent = "p_lf0" in (summary.get("absent") or {})  # n/a for the run: no dots from lines that happen to score
    p_by_type = {t: [] if absent else [r["p_lf0"] for r in recs] for t, recs in _by_type(records).items()}
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
