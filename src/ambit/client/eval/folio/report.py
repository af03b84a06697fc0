"""FOLIO summaries and reports: pure functions of the records (`summary.json`, `summary.md`,
`folio.png`). The field names of summary.json are a contract (scripts read them); `stories`
counts examples (one conclusion each), `story_count` distinct premise sets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from ambit.client.eval import metrics as M
from ambit.client.eval import report as R
from ambit.client.eval.folio.score import LABEL_PROBLEMS, RELATIONS

LABELS = ("True", "False", "Uncertain")
PREDICTED = (*LABELS, "INCONSISTENT", "UNKNOWN", "unparseable")
FIGURE = "folio.png"


def _ratio(k: int, n: int) -> float | None:
    return k / n if n else None


def _pc(x: float | None) -> str:
    """A fraction as "12.3%", or "n/a" (never "n/a%") when nothing was counted."""
    return "n/a" if x is None else f"{R.pct(x)}%"


def audit_summary(records: Sequence[dict]) -> dict:
    """The gold audit: agreement where the label could be checked, problems, disagreements."""
    checked = [r for r in records if r["label_checked"]]
    rate = M.accuracy(r["agrees"] for r in checked)
    return {
        "stories": len(records),
        "examples": len(records),
        "label_checked": len(checked),
        "agreement_rate": rate,
        "label_accuracy": rate,  # what --oracle-translations' label_accuracy equals
        "agrees": sum(r["agrees"] for r in records),
        "problems": dict(Counter(r["problem"] for r in records if r["problem"])),
        "disagreements": [{"id": r["id"], "story_id": r["story_id"], "problem": r["problem"], "label": r["label"],
                           "gold_label": r["gold_label"], "gold_errors": r.get("gold_errors") or None}
                          for r in records if not r["agrees"]],
    }


def label_problems(records: Sequence[dict]) -> dict:
    """Per reason of score.LABEL_PROBLEMS that occurs: the number of samples and the first one."""
    out: dict = {}
    for r in records:
        for j, s in enumerate(r.get("samples") or ()):
            if (why := s.get("label_problem")) is None:
                continue
            row = out.setdefault(why, {"count": 0, "example": {"id": r.get("id"), "sample": j,
                                                               "error": s.get("label_error")}})
            row["count"] += 1
    order = {k: i for i, k in enumerate(LABEL_PROBLEMS)}
    return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))


def _voted(records: Sequence[dict], vote: str) -> list[dict]:
    """The examples the voted accuracy counts: with a scored sample, or all under `drop-errors`."""
    if vote == "drop-errors":
        return list(records)
    return [r for r in records if any(s["label_scored"] for s in r["samples"])]


def summary(records: Sequence[dict], mode: str, vote: str = "majority") -> dict:
    """summary.json of a FOLIO run."""
    out: dict = {"suite": "folio", "mode": mode, "stories": len(records), "examples": len(records),
                 "story_count": len({r["story_id"] for r in records}), "audit": audit_summary(records)}
    if mode == "audit":
        out["label_accuracy"] = out["audit"]["label_accuracy"]
        return out
    samples = [s for r in records for s in r["samples"]]
    sentences = [x for s in samples for x in s["sentences"]]
    compared = [x for x in sentences if x["relation"] is not None]
    # the denominator: every sentence that has a readable gold formula and a translation
    with_gold = [x for x in sentences if x["gold_parses"] and not x.get("missing")]
    scored = [s for s in samples if s["label_scored"]]
    voted = _voted(records, vote)
    relations = Counter(x["relation"] for x in compared)
    aligned = [x for x in compared if x.get("aligned")]
    steps = Counter()
    for s in samples:
        steps.update(s["alignment"]["steps"])
    out.update({
        "samples_per_story": max((len(r["samples"]) for r in records), default=0),
        "label_accuracy": M.accuracy(s["correct"] for s in scored),
        "label_accuracy_voted": M.accuracy(r["voted_correct"] for r in voted),
        "vote": vote,
        "label_problems": label_problems(records),
        "labelled_samples": len(scored),
        "voted_examples": len(voted),
        "samples": len(samples),
        # samples whose every formula parses and that the prover took (Logic-LM's "executable")
        "executable_rate": _ratio(sum(bool(x.get("executable")) for x in samples),
                                  sum(x.get("executable") is not None for x in samples)),
        "executable_samples": sum(bool(x.get("executable")) for x in samples),
        "label_accuracy_executable": M.accuracy(x["correct"] for x in samples if x.get("executable")),
        "left_out": _left_out(records),
        "pairing": _pairing(samples),
        "parse_errors": sorted(({"id": r.get("id"), "sample": j, "formula": x.get("formula"), "text": x["text"],
                                 "position": x.get("error_at"), "reason": x["error"]}
                                for r in records for j, sm in enumerate(r["samples"]) for x in sm["sentences"]
                                if x.get("error")), key=lambda e: _id_key(e["id"])),
        "failed_samples": sum(1 for x in samples if x.get("error")),
        # formulas with a variable no quantifier binds, read as universally quantified
        "free_variables_closed": sum(1 for x in sentences if x.get("closed")),
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


def _id_key(i: object) -> tuple:
    """Example ids in their natural order (line numbers as numbers)."""
    t = str(i)
    return (0, int(t), "") if t.isdigit() else (1, 0, t)


def _left_out(records: Sequence[dict]) -> dict:
    """Examples and samples that the label figures do not count, and why."""
    samples = [s for r in records for s in r["samples"]]
    return {"examples": sum(1 for r in records if not any(s["label_scored"] for s in r["samples"])),
            "samples": sum(1 for s in samples if not s["label_scored"]),
            "why": dict(Counter(s.get("label_problem") or "?" for s in samples if not s["label_scored"]))}


def _pairing(samples: Sequence[dict]) -> dict:
    """How the translated premise formulas were paired with the premises (folio/align.py: pair_sentences)."""
    c = Counter(x.get("paired_by", "order") for s in samples for x in s["sentences"] if x["role"] == "premise")
    return {k: c[k] for k in ("order", "comment", "text", "unpaired")}


def decoding_text(d: Mapping | None) -> str:
    """The decoding options in words, with only the settings that decoding used."""
    if not d:
        return "n/a"
    how = (f"{d['samples']} samples at temperature {d.get('temperature')}"
           if d.get("samples", 1) > 1 else f"beam search, beam width {d.get('beam', 1)}")
    return f"{how}; at most {d.get('max_tokens')} tokens per formula; seed {d.get('seed')}"


def _examples_line(s: Mapping) -> str:
    n, k = s.get("examples", s["stories"]), s.get("story_count")
    stories = f" from {k} {'story' if k == 1 else 'stories'}" if k is not None else ""
    return f"{n} {'example' if n == 1 else 'examples'}{stories} (one conclusion each)."


def _pairs(records: Sequence[dict]) -> list[tuple[str, str]]:
    return [(r["label"], s["label"] or "unparseable") for r in records for s in r["samples"] if s["label_scored"]]


def headline(s: Mapping) -> str:
    a = s["audit"]
    gold = f"gold agrees {a['agrees']}/{a['stories']} examples"
    if s["mode"] == "audit":
        return f"audit: {gold}; agreement on labels {_pc(a['agreement_rate'])} (n={a['label_checked']} examples)"
    exe = f"executable {_pc(s.get('executable_rate'))}, " if s["mode"] == "recorded" else ""
    return (f"label accuracy {_pc(s['label_accuracy'])} (voted {_pc(s['label_accuracy_voted'])}, "
            f"{s.get('vote', 'majority')}), {exe}"
            f"sentences equivalent {_pc(s['sentence_equivalence_rate'])}, "
            f"right label / wrong translation {s['right_label_wrong_translation']}, "
            f"syntax errors {s['syntax_errors']}; {gold}")


def markdown(s: Mapping) -> str:
    a = s["audit"]
    title = {"audit": "gold audit", "oracle": "oracle translations (the gold formulas)",
             "recorded": f"recorded translations ({s.get('translations_format')}: {s.get('translations')})",
             "translate": f"translations by {s.get('model', '')}"}[s["mode"]]
    shape = f" File shape: {s['data_shape']}." if s.get("data_shape") else ""
    lines = [f"# FOLIO ({s.get('split')}) — {title}\n", f"{_examples_line(s)}{shape}\n"]
    if s.get("coverage"):  # recorded translations: a headline number
        lines.append(R.coverage_markdown(s["coverage"], s["coverage"].get("what", "recorded translations")))
    if s["mode"] != "audit":
        lines += _translations_md(s)
    checked = a["label_checked"]
    rate = (f"{_pc(a['agreement_rate'])} of {checked} examples with a conclusion formula" if checked
            else "no example has a conclusion formula")
    lines += ["\n## Gold audit (the gold formulas, proved)\n",
              f"Agreement with the gold label: {rate}; {a['agrees']} of {a['stories']} examples agree "
              f"(without a conclusion formula: the premises parse and are consistent).\n"]
    if a["disagreements"]:
        lines.append(R.md_table(["id", "story", "problem", "gold label", "prover"],
                                [[d["id"], d["story_id"], d["problem"], d["label"], d["gold_label"] or "—"]
                                 for d in a["disagreements"]]))
    return "\n".join(lines) + "\n"


def _translations_md(s: Mapping) -> list[str]:
    """The sections of a run that translated (or read, or took the gold formulas)."""
    lines = []
    lo = s.get("left_out") or {}
    if lo.get("examples") or lo.get("samples"):
        why = ", ".join(f"{k}: {v}" for k, v in sorted(lo["why"].items()))
        lines.append(f"Left out of the label figures: {lo['examples']} of {s['examples']} examples "
                     f"({lo['samples']} samples; {why}).\n")
    lines += [
        "## Translations\n",
        R.md_table(["figure", "value"], [
            ["label accuracy (one sample)", f"{_pc(s['label_accuracy'])} (n={s['labelled_samples']} samples)"],
            [f"label accuracy (vote: {s.get('vote', 'majority')})", f"{_pc(s['label_accuracy_voted'])} "
                                               f"(n={s.get('voted_examples', s['stories'])} examples)"],
            ["executable (every formula read and proved)",
             f"{_pc(s.get('executable_rate'))} ({s.get('executable_samples')} of {s.get('labelled_samples')} "
             f"samples)"],
            ["label accuracy of executable samples", _pc(s.get("label_accuracy_executable"))],
            ["sentences EQUIVALENT to gold", f"{_pc(s['sentence_equivalence_rate'])} "
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
        "\n## How translated premises were paired with the premises\n",
        R.md_table(["order", "`:::` comment", "sentence text", "unpaired"],
                   [[(s.get("pairing") or {}).get(k, 0) for k in ("order", "comment", "text", "unpaired")]]),
        "\n## Labels (rows: gold, columns: prover's label from the translation)\n",
        R.md_table(["gold \\ derived", *PREDICTED],
                   [[g, *[s["confusion"].get(g, {}).get(p, 0) for p in PREDICTED]] for g in LABELS]),
    ]
    if s.get("label_problems"):
        lines += ["\n## Why samples have no label\n",
                  R.md_table(["reason", "samples", "example", "sample", "error"],
                             [[k, v["count"], v["example"]["id"], v["example"]["sample"],
                               str(v["example"]["error"] or "").replace("|", "\\|")[:200]]
                              for k, v in s["label_problems"].items()])]
    if s.get("parse_errors"):
        lines += ["\n## Formulas that do not parse\n",
                  R.md_table(["example", "sample", "formula", "position", "reason"],
                             [[e["id"], e["sample"], e["formula"], e["position"], e["reason"].replace("|", "\\|")]
                              for e in s["parse_errors"]])]
    if s["mode"] == "translate":
        lines.append(f"\nDecoding: {decoding_text(s.get('decoding'))}; {s.get('shots')} demonstration stories "
                     f"from {s.get('demo_split')} (never the test story).\n")
    return lines


def plot(s: Mapping, path: str | Path) -> None:
    """Left: label accuracy and the gold audit's agreement; right: sentence relations to gold."""
    fig, (ax1, ax2) = R.plt.subplots(1, 2, figsize=(9, 3.6))
    a = s["audit"]
    if s["mode"] == "audit":
        bars = [("gold agrees", a["agreement_rate"], a["label_checked"])]
    else:
        bars = [("one sample", s["label_accuracy"], s["labelled_samples"]),
                ("voted", s["label_accuracy_voted"], s.get("voted_examples", s["stories"])),
                ("gold audit", a["agreement_rate"], a["label_checked"])]
    R.labelled_bars(ax1, range(len(bars)), [b[1] for b in bars], [b[2] for b in bars], 0.6, "", "tab:blue")
    ax1.set_xticks(range(len(bars)), [b[0] for b in bars])
    ax1.set(xlim=(-0.6, len(bars) - 0.4), ylim=(0, 115))  # room for a "no data" mark at either end
    several = s["mode"] != "audit" and s.get("samples_per_story", 1) > 1
    ax1.set_ylabel("% of samples (one sample), of examples (voted, audit)" if several else "% of examples",
                   fontsize=8 if several else None)
    ax1.set_title("labels")
    if s["mode"] == "audit":
        probs = a["problems"]
        keys = sorted(probs)
        n = a["stories"]
        R.labelled_bars(ax2, range(len(keys)), [probs[k] / n for k in keys], [n] * len(keys), 0.6, "", "tab:red")
        ax2.set_xticks(range(len(keys)), keys)
        ax2.set_title("gold problems (% of examples)")
        if not keys:
            ax2.text(0.5, 0.5, "no problems found", transform=ax2.transAxes, ha="center", va="center",
                     fontsize=8, color="grey")
    else:
        n = s["sentences_with_gold"]
        keys = [*RELATIONS, "syntax error"]
        vals = [s["relations"][k] for k in RELATIONS] + [n - sum(s["relations"].values())]
        R.labelled_bars(ax2, range(len(keys)), [v / n if n else None for v in vals], [n] * len(keys), 0.6, "",
                        "tab:green")
        ax2.set_xticks(range(len(keys)), keys, rotation=30, fontsize=7)
        ax2.set_title("translated sentence vs gold (% of sentences)", fontsize=10)
    ax2.set(xlim=(-0.6, max(1, len(keys)) - 0.4), ylim=(0, 115))
    R._save(fig, path)


def write_reports(out: Path, records: Sequence[dict], s: dict) -> None:
    R.write_json(out / "summary.json", s)
    R.write_text(out / "summary.md", markdown(s))
    plot(s, out / FIGURE)
