"""The tables of ``ambit eval compare`` (``ambit.client.eval.compare.suite``): per suite, the
papers' tables from each run's summary (and records, for each cell's n), every number under its
run's label; :func:`compare` gathers them into ``compare.json``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ambit.client.eval import report as R
from ambit.client.eval.compare.runs import SUITES, Run, differences


def amp_zeroshot(runs: list[Run]) -> dict:
    """Fig. 2 (LF0/LF1 accuracy), Table 2 (ZM_5), Fig. 3 (P(LF0)), canonical beside equivalence."""
    fig2, table2, fig3 = {}, {}, {}
    for r in runs:
        by = r.summary["by_type"]
        fig2[r.label] = {t: {"n": v["n"], "match": r.summary.get("match"),
                             "lf0": v["acc_lf0"], "lf1": v["acc_lf1"],
                             "lf0_canonical": v.get("acc_lf0_canonical"), "lf1_canonical": v.get("acc_lf1_canonical"),
                             "lf0_equivalence": v.get("acc_lf0_equiv"), "lf1_equivalence": v.get("acc_lf1_equiv")}
                         for t, v in by.items()}
        table2[r.label] = {t: {"n": v["n"], "zm5_canonical": (v.get("zm_canonical") or {}).get("5"),
                               "zm5_equivalence": (v.get("zm_equiv") or {}).get("5")} for t, v in by.items()}
        fig3[r.label] = {t: {"n": sum(x.get("type") == t and x.get("p_lf0") is not None for x in r.records()),
                             "mean": v["p_lf0_mean"], "std": v["p_lf0_std"]} for t, v in by.items()}
    return {"fig2": fig2, "table2": table2, "fig3": fig3}


def amp_fewshot(runs: list[Run]) -> dict:
    """Table 3 (FDM, FIM) and Fig. 6 (LF0 accuracy against the ratio of LF0 demonstrations)."""
    table3, fig6 = {}, {}
    for r in runs:
        by = r.summary["by_type"]
        table3[r.label] = {t: {"n": v["n"], "fdm_canonical": v.get("fdm_canonical"), "fdm_equivalence": v.get("fdm_equiv"),
                               "fim": v["fim"]} for t, v in by.items()}
        fig6[r.label] = {t: {"match": r.summary.get("match"), "lf0": v["acc_lf0_by_ratio"],
                             "lf0_canonical": v.get("acc_lf0_canonical_by_ratio"),
                             "lf0_equivalence": v.get("acc_lf0_equiv_by_ratio"),
                             "n_by_ratio": _n_by_ratio(r, t)} for t, v in by.items()}
    return {"table3": table3, "fig6": fig6}


def _n_by_ratio(run: Run, amp_type: str) -> dict[str, int]:
    return dict(Counter(f"{float(x['ratio']):.1f}" for x in run.records()
                        if x.get("type") == amp_type and "ratio" in x))


def radd_rows(run: Run) -> dict[str, dict[str, dict]]:
    """{row name: {style: block + n_by_pair}}, a row per model of the run (label/model if many)."""
    by_style = run.summary["by_style"]
    models = sorted({m for blocks in by_style.values() for m in blocks})
    prolog = run.summary.get("solver") == "prolog"
    counts = Counter((str("prolog" if prolog else x.get("model")), x.get("style", "direct"),
                      x.get("pair")) for x in run.records())
    out: dict[str, dict[str, dict]] = {}
    for style, blocks in by_style.items():
        for m, block in blocks.items():
            name = run.label if len(models) == 1 else f"{run.label}/{m}"
            n_by_pair = {p: counts.get((m, style, p), 0) for p in block["by_pair"]}
            if len(models) == 1 and not any(n_by_pair.values()):  # records name the server's model id
                n_by_pair = {p: sum(v for (_, st, q), v in counts.items() if st == style and q == p)
                             for p in block["by_pair"]}
            out.setdefault(name, {})[style] = {**block, "n_by_pair": n_by_pair}
    return out


def radd(runs: list[Run]) -> dict:
    """Table 3 (P/R/F1 per class) and Table 4 (confusion, accuracy by pair) per model and style."""
    table3, table4, parsers = {}, {}, {}
    for r in runs:
        for name, styles in radd_rows(r).items():
            table3[name] = {st: {c: {f: b["per_class_macro"][c][f] for f in ("precision", "recall", "f1")}
                                 for c in ("de_dicto", "de_re")} for st, b in styles.items()}
            table4[name] = {st: {"n": b["n"], "accuracy": b["accuracy"], "confusion": b["confusion"],
                                 "by_pair": b["by_pair"], "n_by_pair": b["n_by_pair"]} for st, b in styles.items()}
        if "by_parser" in r.summary:
            parsers[r.label] = {"answer_parser": r.summary["answer_parser"],
                                "parsers_differ": r.summary["parsers_differ"],
                                "accuracy": {p: {st: {m: b["accuracy"] for m, b in blocks.items()}
                                                 for st, blocks in styles.items()}
                                             for p, styles in r.summary["by_parser"].items()}}
    return {"table3": table3, "table4": table4, "parsers": parsers}


def implicature(runs: list[Run]) -> dict:
    """Table 1 (mean ± std over templates at each k), by type, sizes, and the reference lines."""
    table1, by_type, sizes = {}, {}, {}
    for r in runs:
        table1[r.label] = {k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in r.summary["by_k"].items()}
        if "by_type" in r.summary:
            by_type[r.label] = {t: {k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in b["by_k"].items()}
                                for t, b in r.summary["by_type"].items()}
        if r.size is not None:
            sizes[r.label] = {"size": r.size, "size_text": r.size_text}
    return {"table1": table1, "by_type": by_type, "sizes": sizes, "reference": R.IMPLICATURE_REFERENCE}


TABLES = {"amp-zeroshot": amp_zeroshot, "amp-fewshot": amp_fewshot, "radd": radd, "implicature": implicature}


def compare(runs: list[Run]) -> dict:
    """compare.json: the runs, per suite the protocol differences and the tables."""
    out: dict[str, Any] = {"runs": [{"label": r.label, "dir": str(r.dir), "suite": r.suite, "model": r.model,
                                     "size": r.size, "size_text": r.size_text, "protocol": r.protocol()}
                                    for r in runs]}
    for suite in SUITES:
        if mine := [r for r in runs if r.suite == suite]:
            out[suite] = {"runs": [r.label for r in mine], "differences": differences(mine),
                          "coverage": coverage(mine), **TABLES[suite](mine)}
    return out


COVERAGE_FIELDS = ("items", "scored", "missing", "unmatched_lines", "unmatched_ids", "accuracy_scored", "accuracy_all",
                   "accuracy_means", "file")


def coverage(runs: list[Run]) -> dict:
    """{label: coverage} of the runs that scored a recorded file (their summary's `coverage`)."""
    return {r.label: {k: r.summary["coverage"].get(k) for k in COVERAGE_FIELDS}
            for r in runs if r.summary.get("coverage")}
