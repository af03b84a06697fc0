"""The AmP sections of the report (``client.eval.report``), pure functions of summaries: the
zero-shot tables and figures (Fig. 2, Table 2, Fig. 3) and the few-shot ones (Table 3, Fig. 6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ambit.client.eval.glossary import glossary
from ambit.client.eval import report_common as C  # figures are saved through C._save (tests replace it)
from ambit.client.eval.report_common import MARKERS, MIN_HISTOGRAM_ITEMS, _offsets, _ordered, labelled_bars, md_table, num, pct, plt


def _coverage(summary: Mapping) -> list[str]:
    """A recorded run's coverage section, first under the title (a headline number); [] for a model run."""
    cov = summary.get("coverage")
    return [C.coverage_markdown(cov, cov.get("what", "recorded outputs"))] if cov else []


def zeroshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP zero-shot — {summary.get('model', '?')}\n", *_coverage(summary), glossary("amp-zeroshot")]
    out.append(f"## Accuracy (Fig. 2), % — {summary.get('match', 'canonical')} match; canonical string match alongside\n")
    out.append(md_table(
        ["type", "n", "LF0", "LF1", "LF0 (canonical)", "LF1 (canonical)", "mean P(LF0)"],
        [[t, by[t]["n"], pct(by[t]["acc_lf0"]), pct(by[t]["acc_lf1"]),
          pct(by[t].get("acc_lf0_canonical")), pct(by[t].get("acc_lf1_canonical")), num(by[t]["p_lf0_mean"])]
         for t in types]))
    out.append("\n## ZM_k: both LFs in the top k (Table 2), %\n")
    ks = sorted({k for t in types for k in by[t]["zm"]}, key=int)
    out.append(md_table(["type", *[f"k={k}" for k in ks]],
                        [[t, *[pct(by[t]["zm"].get(k)) for k in ks]] for t in types]))
    return "\n".join(out)


def plot_zeroshot_accuracy(summary: Mapping, path: str | Path) -> None:
    """Fig. 2: LF0 and LF1 accuracy per ambiguity type under the run's match, each with its n."""
    by = summary["by_type"]
    types = _ordered(by)
    xs = range(len(types))
    fig, ax = plt.subplots(figsize=(7, 3.8))
    w = 0.38
    ns = [by[t]["n"] for t in types]
    handles = [labelled_bars(ax, [x - w / 2 for x in xs], [by[t]["acc_lf0"] for t in types], ns, w, "LF0", "C0"),
               labelled_bars(ax, [x + w / 2 for x in xs], [by[t]["acc_lf1"] for t in types], ns, w, "LF1", "C1")]
    ax.set_xticks(list(xs), types)
    match = "equivalent to gold" if summary.get("match", "equivalence") == "equivalence" else "canonical string match"
    ax.set_ylabel(f"accuracy (%), {match}")
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title(f"Zero-shot accuracy — {summary.get('model', '')}", fontsize=9)
    ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2)  # below: no label hidden
    C._save(fig, path)


def plot_p_lf0_distribution(p_by_type: Mapping[str, Sequence[float]], path: str | Path,
                            title: str = "") -> None:
    """Fig. 3: distribution of the renormalised P(LF0) per ambiguity type: a histogram when a
    type has at least ``MIN_HISTOGRAM_ITEMS`` items, else a strip plot of every item."""
    types = _ordered(p_by_type)
    fig, axes = plt.subplots(1, max(1, len(types)), figsize=(2.4 * max(1, len(types)), 2.9),
                             squeeze=False)
    for ax, t in zip(axes[0], types):
        ps = [p for p in p_by_type[t] if p is not None]
        if len(ps) >= MIN_HISTOGRAM_ITEMS:
            ax.hist(ps, bins=10, range=(0, 1), color="C0")
            ax.set_ylabel("items")
            ax.yaxis.get_major_locator().set_params(integer=True)
        else:  # strip plot: one dot per item, spread vertically (deterministically) to stay apart
            ys = [(i * 0.618) % 1 for i in range(len(ps))]
            ax.scatter(ps, ys, s=18, color="C0", alpha=0.8)
            ax.set_ylim(-0.15, 1.15)
            ax.set_yticks([])
            if not ps:
                ax.text(0.5, 0.5, "no data", ha="center", va="center", color="grey", fontsize=8)
        ax.set_xlim(-0.05, 1.05)
        ax.set_title(f"{t} (n={len(ps)})", fontsize=9)
        ax.set_xlabel("P(LF0)")
    fig.text(0.01, 0.01, f"strip plot (one dot per item) below {MIN_HISTOGRAM_ITEMS} items, "
             "histogram from there", fontsize=6.5, color="grey")
    if title:
        fig.suptitle(title, fontsize=9)
    C._save(fig, path)


def fewshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP few-shot — {summary.get('model', '?')}\n", *_coverage(summary), glossary("amp-fewshot")]
    out.append("## FDM and FIM (Table 3); lower is better (FDM 0–2, FIM 0–1)\n")
    out.append(md_table(["type", "FDM", "FIM"],
                        [[t, num(by[t]["fdm"]), num(by[t]["fim"])] for t in types]))
    ratios = sorted({r for t in types for r in by[t]["acc_lf0_by_ratio"]}, key=float)
    out.append("\n## LF0 accuracy (%) vs ratio r of LF0 demos (Fig. 6)\n")
    out.append(md_table(["type", *[f"r={r}" for r in ratios]],
                        [[t, *[pct(by[t]["acc_lf0_by_ratio"].get(r)) for r in ratios]]
                         for t in types]))
    return "\n".join(out)


def plot_fewshot_accuracy(summary: Mapping, path: str | Path) -> None:
    """Fig. 6: top-1 LF0 accuracy against the ratio of LF0 demonstrations, a line per type, each
    point with its n (one item's 100% reads as one item); beside it the forced-decode P(LF0)."""
    by = summary["by_type"]
    types = _ordered(by)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 3.8), sharex=True)
    for k, (t, dx, marker) in enumerate(zip(types, _offsets(len(types), 0.012), MARKERS)):
        rs = sorted(by[t]["acc_lf0_by_ratio"], key=float)
        xs = [float(r) + dx for r in rs]
        acc = [by[t]["acc_lf0_by_ratio"][r] for r in rs]
        ax.plot(xs, [100 * a if a is not None else float("nan") for a in acc], marker=marker, ms=5,
                alpha=0.85, label=t, clip_on=False)
        ns = by[t].get("n_by_ratio", {})
        for x, a, r in zip(xs, acc, rs):
            if a is not None and ns.get(r):
                # stacked per type, in the series' colour, so labels at the same point stay legible
                ax.annotate(f"{t} n={ns[r]}", (x, 100 * a), textcoords="offset points", xytext=(0, 5 + 7 * k),
                            ha="center", fontsize=5.5, color=ax.lines[-1].get_color())
        ps = by[t].get("p_lf0_mean_by_ratio", {})
        ax2.plot(xs, [ps.get(r) if ps.get(r) is not None else float("nan") for r in rs], marker=marker,
                 ms=5, alpha=0.85, label=t, clip_on=False)
    for a, top in ((ax, 100), (ax2, 1)):
        a.plot([0, 1], [0, top], ls="--", color="grey", lw=1, label="ideal")
        a.set_xlabel("ratio r of LF0 demonstrations\n(types offset slightly to stay apart)", fontsize=8)
        a.set_ylim(0, top)
    # room above 100% for the n labels, stacked one line per type, below the title
    ax.set_ylim(0, 100 + 9 * (len(types) + 1))
    ax.set_yticks(range(0, 101, 20))
    ax.set_ylabel("LF0 accuracy of top-1 (%)")
    ax2.set_ylabel("mean P(LF0), forced decode")
    ax.set_title(f"Few-shot — {summary.get('model', '')}", fontsize=9)
    ax.legend(fontsize=7)
    C._save(fig, path)
