"""Figures of ``ambit eval compare`` (``ambit.client.eval.compare.suite``): the papers' figures, one
group or line per run named by its label, run directories listed under the plot."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ambit.client.eval import report as R
from ambit.client.eval import report_common as C
from ambit.client.eval.report_common import plt


def _sources(fig, runs: Sequence, suite: str) -> None:
    """The source run of each label, under the plot."""
    text = "; ".join(f"{r.label} = {r.dir}" for r in runs if r.suite == suite)
    fig.text(0.01, 0.005, f"runs: {text}", fontsize=5.5, color="grey", va="bottom", wrap=True)


def _panels(count: int, width: float, height: float):
    """A figure of ``count`` panels side by side, and its axes."""
    fig, axes = plt.subplots(1, max(1, count), figsize=(width * max(1, count), height), squeeze=False)
    return fig, list(axes[0])


def fig2(c: dict, runs: Sequence, path: Path) -> None:
    """Zero-shot LF0/LF1 accuracy per type, a panel per model; canonical beside equivalence."""
    fig, axes = _panels(len(c["fig2"]), 7.0, 4.0)
    for ax, (label, per) in zip(axes, c["fig2"].items()):
        types = C._ordered(per)
        ns = [per[t]["n"] for t in types]
        w = 0.2
        handles = []
        for i, (key, name, colour) in enumerate((("lf0_canonical", "LF0 canonical", "C0"),
                                                 ("lf0_equivalence", "LF0 equivalence", "#9ecae1"),
                                                 ("lf1_canonical", "LF1 canonical", "C1"),
                                                 ("lf1_equivalence", "LF1 equivalence", "#fdae6b"))):
            xs = [j + (i - 1.5) * w for j in range(len(types))]
            handles.append(C.labelled_bars(ax, xs, [per[t][key] for t in types], ns, w, name, colour))
        ax.set_xticks(list(range(len(types))), types, fontsize=7)
        ax.set(ylim=(0, 125), yticks=range(0, 101, 20), ylabel="accuracy (%)")
        ax.set_title(label, fontsize=8)
        ax.legend(handles=handles, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4)  # below: no label hidden
    fig.suptitle("AmP zero-shot accuracy (Fig. 2), one group per model", fontsize=9)
    _sources(fig, runs, "amp-zeroshot")
    C._save(fig, path)


def fig3(runs: Sequence, path: Path) -> None:
    """P(LF0) per type, one row per model: every item as a dot (a strip plot)."""
    mine = [r for r in runs if r.suite == "amp-zeroshot"]
    types = C._ordered({t for r in mine for t in r.summary["by_type"]})
    fig, axes = plt.subplots(len(mine), max(1, len(types)), figsize=(2.3 * max(1, len(types)), 1.9 * len(mine) + 0.6),
                             squeeze=False)
    for row, r in zip(axes, mine):
        for ax, t in zip(row, types):
            ps = [x["p_lf0"] for x in r.records() if x.get("type") == t and x.get("p_lf0") is not None]
            ax.scatter(ps, [(i * 0.618) % 1 for i in range(len(ps))], s=14, color="C0", alpha=0.8)
            if not ps:
                ax.text(0.5, 0.5, "no data", ha="center", va="center", color="grey", fontsize=8)
            ax.set(xlim=(-0.05, 1.05), ylim=(-0.15, 1.15), yticks=[])
            ax.set_title(f"{r.label} — {t} (n={len(ps)})", fontsize=7)
            ax.set_xlabel("P(LF0)", fontsize=7)
    fig.suptitle("AmP zero-shot P(LF0) per item (Fig. 3), one row per model", fontsize=9)
    _sources(fig, runs, "amp-zeroshot")
    C._save(fig, path)


LINESTYLES = ("-", (0, (4, 2)), ":", "-.", (0, (1, 1, 3, 1)))


def fig6(c: dict, runs: Sequence, path: Path) -> None:
    """Few-shot LF0 accuracy against the ratio of LF0 demos, a panel per type, a line per run."""
    types = C._ordered({t for per in c["fig6"].values() for t in per})
    fig, axes = _panels(len(types), 3.4, 3.6)
    labels = list(c["fig6"])
    for ax, t in zip(axes, types):
        for i, (label, dx, marker) in enumerate(zip(labels, C._offsets(len(labels), 0.02), C.MARKERS * 4)):
            if (v := c["fig6"][label].get(t)) is None:
                continue
            rs = sorted(v["lf0"], key=float)
            ys = [100 * v["lf0"][r] if v["lf0"][r] is not None else float("nan") for r in rs]
            (line,) = ax.plot([float(r) + dx for r in rs], ys, marker=marker, ms=5 if i == 0 else 4,
                              ls=LINESTYLES[i % len(LINESTYLES)], mfc="none" if i else None, mew=1.2,
                              color=f"C{i % 10}", label=f"{label} ({v['match']})", clip_on=False)
            for r, y in zip(rs, ys):
                if y == y:  # not NaN
                    ax.annotate(f"n={v['n_by_ratio'].get(r, 0)}", (float(r) + dx, y), textcoords="offset points",
                                xytext=(0, 4 + 7 * i), ha="center", fontsize=5, color=line.get_color())
        ax.plot([0, 1], [0, 100], ls="--", color="grey", lw=1, label="ideal")
        # room for the stacked n labels below the title
        ax.set(ylim=(0, 100 + 8 * (len(labels) + 1)), yticks=range(0, 101, 20))
        ax.set_xlabel("ratio r of LF0 demonstrations", fontsize=7)
        ax.set_ylabel("LF0 accuracy of top-1 (%)", fontsize=7)
        ax.set_title(t, fontsize=8)
        ax.legend(fontsize=5.5)
    fig.suptitle("AmP few-shot (Fig. 6), one line per model", fontsize=9)
    _sources(fig, runs, "amp-fewshot")
    C._save(fig, path)


def _implicature_axes(fig, ax, runs: Sequence, path: Path, xlabel: str, title: str) -> None:
    """The human and random reference lines, labels and legend; then the figure is saved."""
    ref = R.IMPLICATURE_REFERENCE
    ax.axhline(100 * ref["human"], ls="-.", color="C2", lw=1, label=f"humans {100 * ref['human']:.1f}%")
    ax.axhline(100 * ref["random"], ls="--", color="grey", lw=1, label=f"random {100 * ref['random']:.0f}%")
    ax.set(xlabel=xlabel, ylabel="accuracy (%), mean over templates", ylim=(0, 105))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6.5, loc="lower right")
    _sources(fig, runs, "implicature")
    C._save(fig, path)


def implicature_vs_k(c: dict, runs: Sequence, path: Path) -> None:
    """Mean accuracy over templates against k, one line per model, n at each point."""
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = list(c["table1"])
    for label, dx, marker in zip(labels, C._offsets(len(labels), 0.25), C.MARKERS * 4):
        per = c["table1"][label]
        ks = [k for k in sorted(per, key=int) if per[k]["mean"] is not None]
        ys = [100 * per[k]["mean"] for k in ks]
        ax.plot([int(k) + dx for k in ks], ys, marker=marker, label=label)
        for k, y in zip(ks, ys):
            ax.annotate(f"n={per[k]['n']}", (int(k) + dx, y), textcoords="offset points", xytext=(0, 4),
                        ha="center", fontsize=5.5)
    _implicature_axes(fig, ax, runs, path, "k (in-context examples)",
                      "Implicature (Table 1) against k, one line per model")


def implicature_vs_size(c: dict, runs: Sequence, path: Path) -> None:
    """Mean accuracy over templates against model size (log scale), one line per k."""
    sized = sorted(c["sizes"], key=lambda label: c["sizes"][label]["size"])
    ks = sorted({k for label in sized for k in c["table1"][label]}, key=int)
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, marker in zip(ks, C.MARKERS * 4):
        pts = [(c["sizes"][label]["size"], 100 * c["table1"][label][k]["mean"], label, c["table1"][label][k]["n"])
               for label in sized if k in c["table1"][label] and c["table1"][label][k]["mean"] is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, label=f"k={k}")
        for x, y, label, n in pts:
            ax.annotate(f"{label}\nn={n}", (x, y), textcoords="offset points", xytext=(0, 5), ha="center", fontsize=5)
    ax.set_xscale("log")
    _implicature_axes(fig, ax, runs, path, "model size (parameters, as given by --label)",
                      "Implicature accuracy against model size")


def radd_accuracy(c: dict, runs: Sequence, path: Path) -> None:
    """RADD accuracy per property pair (Table 4's runs), one bar group per model and style."""
    rows = [(name, st, v) for name, styles in c["table4"].items() for st, v in styles.items()]
    pairs = sorted({p for _, _, v in rows for p in v["by_pair"]})
    fig, ax = plt.subplots(figsize=(max(6.5, 1.3 * len(pairs) * max(1, len(rows)) / 2), 4))
    w = 0.8 / max(1, len(rows))
    handles = []
    for i, (name, st, v) in enumerate(rows):
        xs = [j + (i - (len(rows) - 1) / 2) * w for j in range(len(pairs))]
        ns = [v["n_by_pair"].get(p, 0) for p in pairs]
        handles.append(C.labelled_bars(ax, xs, [v["by_pair"].get(p) for p in pairs], ns, w, f"{name} ({st})", f"C{i % 10}"))
    ax.axhline(50, ls="--", color="grey", lw=1)
    ax.set_xticks(list(range(len(pairs))), pairs, rotation=15, fontsize=7)
    ax.set(ylim=(0, 125), yticks=range(0, 101, 20), ylabel="accuracy (%)")
    ax.set_title("RADD accuracy per property pair, one group per model and style", fontsize=8)
    ax.legend(handles=handles, fontsize=6, loc="upper right", ncol=2)
    _sources(fig, runs, "radd")
    C._save(fig, path)


def write_figures(c: dict, runs: Sequence, out: Path) -> dict[str, list[str]]:
    """Every figure the compared suites have, into ``out``; {suite: [file names]}."""
    written: dict[str, list[str]] = {}

    def put(suite: str, name: str, draw, *args) -> None:
        draw(*args, out / name)
        written.setdefault(suite, []).append(name)

    if "amp-zeroshot" in c:
        put("amp-zeroshot", "amp_fig2_accuracy.png", fig2, c["amp-zeroshot"], runs)
        put("amp-zeroshot", "amp_fig3_p_lf0.png", fig3, runs)
    if "amp-fewshot" in c:
        put("amp-fewshot", "amp_fig6_lf0_vs_ratio.png", fig6, c["amp-fewshot"], runs)
    if "radd" in c:
        put("radd", "radd_accuracy_by_pair.png", radd_accuracy, c["radd"], runs)
    if "implicature" in c:
        put("implicature", "implicature_vs_k.png", implicature_vs_k, c["implicature"], runs)
        if c["implicature"]["sizes"]:
            put("implicature", "implicature_vs_size.png", implicature_vs_size, c["implicature"], runs)
    return written
