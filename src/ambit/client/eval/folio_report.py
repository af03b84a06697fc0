"""FOLIO summaries and reports: pure functions of the records (`summary.json`, `summary.md`,
`folio.png`). The field names of summary.json are a contract (scripts read them):
`label_accuracy`, `label_accuracy_voted`, `sentence_equivalence_rate`,
`right_label_wrong_translation`, `syntax_errors`, `unknown`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from ambit.client.eval import metrics as M
from ambit.client.eval import report as R
from ambit.client.eval.folio_score import RELATIONS

LABELS = ("True", "False", "Uncertain")
PREDICTED = (*LABELS, "INCONSISTENT", "UNKNOWN", "unparseable")
FIGURE = "folio.png"


def _ratio(k: int, n: int) -> float | None:
    return k / n if n else None


def audit_summary(records: Sequence[dict]) -> dict:
    """The gold audit: agreement over stories whose label could be checked, problems, and the
    disagreeing stories (id, problem, gold label, derived label)."""
    checked = [r for r in records if r["label_checked"]]
    return {
        "stories": len(records),
        "label_checked": len(checked),
        "agreement_rate": M.accuracy(r["agrees"] for r in checked),
        "agrees": sum(r["agrees"] for r in records),
        "problems": dict(Counter(r["problem"] for r in records if r["problem"])),
        "disagreements": [{"id": r["id"], "story_id": r["story_id"], "problem": r["problem"], "label": r["label"],
                           "gold_label": r["gold_label"], "gold_errors": r.get("gold_errors") or None}
                          for r in records if not r["agrees"]],
    }


def summary(records: Sequence[dict], mode: str) -> dict:
    out: dict = {"suite": "folio", "mode": mode, "stories": len(records), "audit": audit_summary(records)}
    if mode == "audit":
        return out
    samples = [s for r in records for s in r["samples"]]
    sentences = [x for s in samples for x in s["sentences"]]
    compared = [x for x in sentences if x["relation"] is not None]
    # the denominator: every sentence that has a readable gold formula and a translation
    with_gold = [x for x in sentences if x["gold_parses"] and not x.get("missing")]
    scored = [s for s in samples if s["label_scored"]]
    voted = [r for r in records if any(s["label_scored"] for s in r["samples"])]
    relations = Counter(x["relation"] for x in compared)
    aligned = [x for x in compared if x.get("aligned")]
    steps = Counter()
    for s in samples:
        steps.update(s["alignment"]["steps"])
    out.update({
        "samples_per_story": max((len(r["samples"]) for r in records), default=0),
        "label_accuracy": M.accuracy(s["correct"] for s in scored),
        "label_accuracy_voted": M.accuracy(r["voted_correct"] for r in voted),
        "labelled_samples": len(scored),
        "sentence_equivalence_rate": _ratio(relations["EQUIVALENT"], len(with_gold)),
        "sentences": len(sentences),
        "sentences_with_gold": len(with_gold),
        "relations": {k: relations[k] for k in RELATIONS},
        "right_label_wrong_translation": sum(s["right_label_wrong_translation"] for s in scored),
        "syntax_errors": sum(1 for x in sentences if not x["parses"] and not x.get("missing") and x["finished"]),
        "unfinished": sum(1 for x in sentences if not x["finished"]),
        "out_of_grammar": sum(1 for x in sentences if x["in_grammar"] is False),
        "unknown": {"sentences": relations["UNKNOWN"], "labels": sum(s["label"] == "UNKNOWN" for s in scored)},
        "inconsistent_samples": sum(s["label"] == "INCONSISTENT" for s in scored),
        "alignment": {"sentences_renamed": len(aligned), "sentences_compared": len(compared),
                      "renamed_rate": _ratio(len(aligned), len(compared)),
                      "equivalent_after_renaming": sum(x["relation"] == "EQUIVALENT" for x in aligned),
                      "names_by_step": dict(steps)},
        "confusion": M.confusion([s_gold for s_gold, _ in _pairs(records)],
                                 [p for _, p in _pairs(records)], list(PREDICTED)),
    })
    return out


def _pairs(records: Sequence[dict]) -> list[tuple[str, str]]:
    return [(r["label"], s["label"] or "unparseable") for r in records for s in r["samples"] if s["label_scored"]]


def headline(s: Mapping) -> str:
    a = s["audit"]
    gold = f"gold agrees {a['agrees']}/{a['stories']}"
    if s["mode"] == "audit":
        return f"audit: {gold}; agreement on labels {R.pct(a['agreement_rate'])}% (n={a['label_checked']})"
    return (f"label accuracy {R.pct(s['label_accuracy'])}% (voted {R.pct(s['label_accuracy_voted'])}%), "
            f"sentences equivalent {R.pct(s['sentence_equivalence_rate'])}%, "
            f"right label / wrong translation {s['right_label_wrong_translation']}, "
            f"syntax errors {s['syntax_errors']}; {gold}")


def markdown(s: Mapping) -> str:
    a = s["audit"]
    title = {"audit": "gold audit", "oracle": "oracle translations (the gold formulas)",
             "translate": f"translations by {s.get('model', '')}"}[s["mode"]]
    lines = [f"# FOLIO ({s.get('split')}) — {title}\n", f"{s['stories']} stories.\n"]
    if s["mode"] != "audit":
        lines += [
            "## Translations\n",
            R.md_table(["figure", "value"], [
                ["label accuracy (one sample)", f"{R.pct(s['label_accuracy'])}% (n={s['labelled_samples']})"],
                ["label accuracy (majority vote)", f"{R.pct(s['label_accuracy_voted'])}%"],
                ["sentences EQUIVALENT to gold", f"{R.pct(s['sentence_equivalence_rate'])}% "
                                                 f"(n={s['sentences_with_gold']})"],
                ["right label, wrong translation", s["right_label_wrong_translation"]],
                ["syntax errors", s["syntax_errors"]],
                ["unfinished (token budget)", s["unfinished"]],
                ["outside the decode grammar", s["out_of_grammar"]],
                ["UNKNOWN (sentences / labels)", f"{s['unknown']['sentences']} / {s['unknown']['labels']}"],
                ["inconsistent premises (samples)", s["inconsistent_samples"]],
                ["sentences where names were aligned", f"{s['alignment']['sentences_renamed']} of "
                                                       f"{s['alignment']['sentences_compared']} compared"],
            ]),
            "\n## Sentence relations to the gold formula (after name alignment)\n",
            R.md_table(list(RELATIONS), [[s["relations"][k] for k in RELATIONS]]),
            "\n## Labels (rows: gold, columns: prover's label from the translation)\n",
            R.md_table(["gold \\ derived", *PREDICTED],
                       [[g, *[s["confusion"].get(g, {}).get(p, 0) for p in PREDICTED]] for g in LABELS]),
        ]
        if s["mode"] == "translate":
            lines.append(f"\nDecoding: {s.get('decoding')}; {s.get('shots')} demonstration stories from "
                         f"{s.get('demo_split')} (never the test story), seed {s.get('seed')}.\n")
    lines += ["\n## Gold audit (the gold formulas, proved)\n",
              f"Agreement with the gold label: {R.pct(a['agreement_rate'])}% of {a['label_checked']} stories "
              f"with a conclusion formula; {a['agrees']} of {a['stories']} stories agree "
              f"(without a conclusion formula: the premises parse and are consistent).\n"]
    if a["disagreements"]:
        lines.append(R.md_table(["id", "story", "problem", "gold label", "prover"],
                                [[d["id"], d["story_id"], d["problem"], d["label"], d["gold_label"] or "—"]
                                 for d in a["disagreements"]]))
    return "\n".join(lines) + "\n"


def plot(s: Mapping, path: str | Path) -> None:
    """Left: label accuracy (one sample, voted) and the gold audit's agreement; right: how the
    translated sentences relate to their gold formulas."""
    fig, (ax1, ax2) = R.plt.subplots(1, 2, figsize=(9, 3.6))
    a = s["audit"]
    if s["mode"] == "audit":
        bars = [("gold agrees", a["agreement_rate"], a["label_checked"])]
    else:
        bars = [("one sample", s["label_accuracy"], s["labelled_samples"]),
                ("voted", s["label_accuracy_voted"], s["stories"]),
                ("gold audit", a["agreement_rate"], a["label_checked"])]
    R.labelled_bars(ax1, range(len(bars)), [b[1] for b in bars], [b[2] for b in bars], 0.6, "", "tab:blue")
    ax1.set_xticks(range(len(bars)), [b[0] for b in bars])
    ax1.set_ylim(0, 115)
    ax1.set_ylabel("% of stories")
    ax1.set_title("labels")
    if s["mode"] == "audit":
        probs = a["problems"]
        keys = sorted(probs)
        n = a["stories"]
        R.labelled_bars(ax2, range(len(keys)), [probs[k] / n for k in keys], [n] * len(keys), 0.6, "", "tab:red")
        ax2.set_xticks(range(len(keys)), keys)
        ax2.set_title("gold problems (% of stories)")
    else:
        n = s["sentences_with_gold"]
        keys = [*RELATIONS, "syntax error"]
        vals = [s["relations"][k] for k in RELATIONS] + [n - sum(s["relations"].values())]
        R.labelled_bars(ax2, range(len(keys)), [v / n if n else None for v in vals], [n] * len(keys), 0.6, "",
                        "tab:green")
        ax2.set_xticks(range(len(keys)), keys, rotation=30, fontsize=7)
        ax2.set_title("translated sentence vs gold (% of sentences)")
    ax2.set_ylim(0, 115)
    R._save(fig, path)


def write_reports(out: Path, records: Sequence[dict], s: dict) -> None:
    R.write_json(out / "summary.json", s)
    R.write_text(out / "summary.md", markdown(s))
    plot(s, out / FIGURE)
