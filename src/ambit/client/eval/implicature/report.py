"""The implicature sections of the report (``client.eval.report``), pure functions of summaries:
accuracy per template and k (tables, figure), the generate protocol's settings, the types."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ambit.client.eval.glossary import glossary
from ambit.client.eval import report_common as C  # figures are saved through C._save (tests replace it)
from ambit.client.eval.report_common import labelled_bars, md_table, pct, plt, wilson_interval

# reference lines of the implicature paper (papers/003_*, the human study, line 519 of the text)
IMPLICATURE_REFERENCE = {"human": 0.862, "human_best": 0.92, "random": 0.5,
                         "source": "Ruis et al. (2023), human evaluation on the test set"}


def implicature_markdown(summary: Mapping) -> str:
    by_k = summary["by_k"]
    ks = sorted(by_k, key=int)
    templates = sorted({t for k in ks for t in by_k[k]["by_template"]}, key=int)
    cov = summary.get("coverage")
    out = [f"# Implicature — {summary.get('model', '?')}\n",
           *([C.coverage_markdown(cov, cov.get("what", "recorded answers"))] if cov else []), glossary("implicature")]
    out.append("## Accuracy (%) per template and k; mean ± std over templates\n")
    out.append("n counts examples (pairs of utterance and response); each is answered once per template "
               "(`answers`). The figure's interval counts examples too.\n")
    # missing: recorded answers the file has none for, counted as wrong, never as unparseable
    heads = {"unparseable": "unparseable", "missing": "no recorded answer"}
    extra = {c: head for c, head in heads.items() if any(c in by_k[k] for k in ks)}
    rows = []
    for k in ks:
        m, s = by_k[k]["mean"], by_k[k]["std"]
        rows.append([k, by_k[k]["n"], by_k[k].get("answers", ""),
                     *[pct(by_k[k]["by_template"].get(t)) for t in templates],
                     "n/a" if m is None else f"{100 * m:.1f} ± {100 * s:.1f}",
                     *[by_k[k][c] for c in extra]])
    out.append(md_table(["k", "n (examples)", "answers", *[f"T{t}" for t in templates], "mean ± std",
                         *extra.values()], rows))
    if summary.get("protocol"):
        how = {"score": "likelihood of the coherent vs incoherent final word",
               "generate": "greedy reply read as yes/no" + (" after step-by-step reasoning (`--cot`)"
                                                           if summary.get("cot") else "")}
        out.append(f"\nProtocol `{summary['protocol']}`: {how.get(summary['protocol'], '')}.")
    ref = IMPLICATURE_REFERENCE
    out.append(f"\nReference: humans {100 * ref['human']:.1f}% (best {100 * ref['human_best']:.0f}%), "
               f"random {100 * ref['random']:.0f}% — {ref['source']}.")
    return "\n".join(out)


def plot_implicature_vs_k(summary: Mapping, path: str | Path) -> None:
    """Accuracy against k: the mean over templates, its 95% interval (``ci95``), n per point."""
    by_k = summary["by_k"]
    ks = [k for k in sorted(by_k, key=int) if by_k[k]["mean"] is not None and by_k[k]["n"]]
    xs = [int(k) for k in ks]
    ms = [100 * by_k[k]["mean"] for k in ks]
    cis = [tuple(by_k[k]["ci95"]) if by_k[k].get("ci95") else wilson_interval(by_k[k]["mean"] * by_k[k]["n"], by_k[k]["n"])
           for k in ks]
    fig, ax = plt.subplots(figsize=(5.5, 4.6))
    ax.plot(xs, ms, marker="o", label="mean over templates")
    ax.fill_between(xs, [100 * lo for lo, _ in cis], [100 * hi for _, hi in cis], alpha=0.2,
                    label="95% Wilson interval over examples")
    ax.text(0.01, 0.99, "n = examples, each answered under every template", transform=ax.transAxes,
            ha="left", va="top", fontsize=5.5)
    ref = IMPLICATURE_REFERENCE
    ax.axhline(100 * ref["human"], ls="-.", color="C2", lw=1,
               label=f"humans {100 * ref['human']:.1f}% (best {100 * ref['human_best']:.0f}%)")
    ax.axhline(100 * ref["random"], ls="--", color="grey", lw=1, label=f"random {100 * ref['random']:.0f}%")
    ax.text(0.99, 0.01, f"reference: {ref['source']}", transform=ax.transAxes, ha="right", va="bottom", fontsize=5.5)
    ax.set_xlabel("k (in-context examples)")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 105)
    protocol = f" — {summary['protocol']}{' + CoT' if summary.get('cot') else ''}" if summary.get("protocol") else ""
    ax.set_title(f"Implicature — {summary.get('model', '')}{protocol}", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)  # below: no data hidden
    fig.tight_layout()  # the labels are placed on the figure as it is laid out: none over another (k=0 and k=1)
    C.place_point_labels(ax, [(x, m, f"{m:.0f}%\nn={by_k[k]['n']}") for x, m, k in zip(xs, ms, ks)])
    C._save(fig, path)


IMPLICATURE_TYPES = ("generalised", "particularised", "other")


def implicature_generate_markdown(summary: Mapping) -> str:
    """How a generate run asked and read: the template file, the reply budget, the reading rule."""
    return (f"\n## Generated replies\n\nPrompts: `{summary.get('template_file')}` (instructions that ask for yes or "
            f"no); reply budget {summary.get('max_new_tokens')} tokens; reading rule: {summary.get('read_rule')}. "
            "`unparseable` counts replies where neither word occurs.\n")


def implicature_by_type_markdown(summary: Mapping) -> str:
    """Accuracy (%) per implicature type and k, mean ± std over templates (``by_type``)."""
    by = summary["by_type"]
    ks = sorted({k for t in by.values() for k in t["by_k"]}, key=int)
    def cell(b: Mapping | None) -> str:
        return ("n/a" if not b or b["mean"] is None
                else f"{100 * b['mean']:.1f} ± {100 * b['std']:.1f} (n={b['n']})")
    rows = [[t, by[t]["examples"], *[cell(by[t]["by_k"].get(k)) for k in ks]]
            for t in IMPLICATURE_TYPES]
    return ("\n## Accuracy (%) by implicature type, mean ± std over templates (n = examples)\n\n"
            + md_table(["type", "examples", *[f"k={k}" for k in ks]], rows)
            + f"\nTypes: {summary.get('type_rule', '')}\n")


def _examples(n: int) -> str:
    """"1 example", "2 examples"."""
    return f"{n} example" if n == 1 else f"{n} examples"


def plot_implicature_by_type(summary: Mapping, path: str | Path) -> None:
    """Accuracy per implicature type at each k (grouped bars), with the human and random lines."""
    by = summary["by_type"]
    ks = sorted({k for t in by.values() for k in t["by_k"]}, key=int)
    fig, ax = plt.subplots(figsize=(max(7.0, 1.4 * len(ks) + 3), 4.2))
    w = 0.8 / len(IMPLICATURE_TYPES)
    handles = []
    for i, (t, colour) in enumerate(zip(IMPLICATURE_TYPES, ("C0", "C1", "C4"))):  # C2: the human line
        xs = [j + (i - 1) * w for j in range(len(ks))]
        blocks = [by[t]["by_k"].get(k) or {"mean": None, "n": 0} for k in ks]
        handles.append(labelled_bars(ax, xs, [b["mean"] for b in blocks], [b["n"] for b in blocks], w,
                                     f"{t} ({_examples(by[t]['examples'])})", colour))
    ref = IMPLICATURE_REFERENCE
    ax.axhline(100 * ref["human"], ls="-.", color="C2", lw=1)
    ax.axhline(100 * ref["random"], ls="--", color="grey", lw=1)
    ax.text(-0.5, 100 * ref["human"] + 1, f"humans {100 * ref['human']:.1f}%", ha="left", fontsize=6.5)
    ax.text(-0.5, 100 * ref["random"] + 1, f"random {100 * ref['random']:.0f}%", ha="left", fontsize=6.5)
    ax.set_xlim(-0.55, len(ks) - 0.45)
    ax.set_xticks(list(range(len(ks))), [f"k={k}" for k in ks])
    ax.set_ylabel("accuracy (%), mean over templates")
    ax.set_ylim(0, 125)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title(f"Implicature by type — {summary.get('model', '')} — {summary.get('protocol', '')}", fontsize=9)
    ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3)
    C._save(fig, path)
