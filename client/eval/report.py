"""Reports: Markdown tables in the papers' layouts, matplotlib PNG plots (Agg), an HTML
token-confidence page (AmP Fig. 4). Pure functions of summaries and records."""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from client.eval.glossary import glossary  # noqa: E402

TYPES = ("pp", "scope", "revscope", "bound", "conj")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as a percentage, or "n/a" for an undefined figure (None)."""
    return "n/a" if x is None else f"{100 * x:.{digits}f}"


def num(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "| " + " | ".join(headers) + " |"
    sep = "|" + "|".join("---" for _ in headers) + "|"
    body = ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join([head, sep, *body]) + "\n"


def write_json(path: str | Path, obj: Any) -> None:
    """Write JSON atomically (temp file + rename)."""
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_text(path: str | Path, text: str) -> None:
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _save(fig, path: str | Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _ordered(keys) -> list[str]:
    return [t for t in TYPES if t in keys] + sorted(k for k in keys if k not in TYPES)


# --- figure conventions (README, "Figures"): every bar says its value and n, a 0 bar is drawn
# at 0, a missing cell reads "no data", spread is a 95% Wilson interval, few items → strip plot

MIN_HISTOGRAM_ITEMS = 20  # below this a histogram's bars are noise: draw every item instead
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): a confidence interval of
    the mean of n 0/1 outcomes that stays inside [0, 1] and is honest at small n."""
    if n <= 0:
        raise ValueError(f"wilson_interval: n must be positive, not {n}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def labelled_bars(ax, xs: Sequence[float], fractions: Sequence[float | None], ns: Sequence[int],
                  width: float, label: str, color: str) -> Patch:
    """Bars of percentages, each labelled "value% / n=N" above it; a 0 bar is drawn as a thick
    line at 0 (so it cannot be mistaken for an empty axis); a missing cell (None, or n = 0)
    is marked "no data". Returns the legend handle of the series."""
    for x, f, n in zip(xs, fractions, ns):
        if f is None or not n:
            ax.text(x, 2, "no data", ha="center", va="bottom", rotation=90, fontsize=7, color="grey")
            continue
        ax.bar(x, 100 * f, width, color=color)
        if f == 0:
            ax.hlines(0, x - width / 2, x + width / 2, colors=color, lw=4, clip_on=False)
        ax.text(x, 100 * f + 1.5, f"{100 * f:.0f}%\nn={n}", ha="center", va="bottom", fontsize=6.5)
    return Patch(color=color, label=label)


def _offsets(count: int, step: float) -> list[float]:
    """Small symmetric horizontal offsets that keep ``count`` overlapping series apart."""
    return [step * (i - (count - 1) / 2) for i in range(count)]


MARKERS = ("o", "s", "^", "D", "v", "P", "X")


# --- AmP zero-shot -------------------------------------------------------------------

def zeroshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP zero-shot — {summary.get('model', '?')}\n", glossary("amp-zeroshot")]
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
    """Fig. 2: LF0 and LF1 accuracy per ambiguity type (matched as the summary's `match` says:
    logical equivalence or canonical strings), each bar with its n."""
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
    ax.legend(handles=handles, fontsize=7, loc="upper right")
    _save(fig, path)


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
    _save(fig, path)


# --- AmP few-shot --------------------------------------------------------------------

def fewshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP few-shot — {summary.get('model', '?')}\n", glossary("amp-fewshot")]
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
    """Fig. 6: LF0 accuracy of the top-1 prediction against the ratio of LF0 demonstrations,
    one line per type, each point with its n (so that one item's 100% reads as one item); beside
    it the mean forced-decode P(LF0) (what FIM measures). Each type has its own marker and a
    small horizontal offset, so series at the same value stay apart."""
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
        a.set_xlabel("ratio r of LF0 demonstrations (types offset slightly to stay apart)")
        a.set_ylim(0, top)
    ax.set_ylabel("LF0 accuracy of top-1 (%)")
    ax2.set_ylabel("mean P(LF0), forced decode")
    ax.set_title(f"Few-shot — {summary.get('model', '')}", fontsize=9)
    ax.legend(fontsize=7)
    _save(fig, path)


# --- implicature ---------------------------------------------------------------------

# reference lines of the implicature paper (papers/003_*, the human study, line 519 of the text)
IMPLICATURE_REFERENCE = {"human": 0.862, "human_best": 0.92, "random": 0.5,
                         "source": "Ruis et al. (2023), human evaluation on the test set"}


def implicature_markdown(summary: Mapping) -> str:
    by_k = summary["by_k"]
    ks = sorted(by_k, key=int)
    templates = sorted({t for k in ks for t in by_k[k]["by_template"]}, key=int)
    out = [f"# Implicature — {summary.get('model', '?')}\n", glossary("implicature")]
    out.append("## Accuracy (%) per template and k; mean ± std over templates\n")
    rows = []
    for k in ks:
        row = [k, by_k[k]["n"], *[pct(by_k[k]["by_template"].get(t)) for t in templates]]
        m, s = by_k[k]["mean"], by_k[k]["std"]
        row.append("n/a" if m is None else f"{100 * m:.1f} ± {100 * s:.1f}")
        rows.append(row)
    unparseable = any("unparseable" in by_k[k] for k in ks)
    if unparseable:
        for row, k in zip(rows, ks):
            row.append(by_k[k]["unparseable"])
    out.append(md_table(["k", "n", *[f"T{t}" for t in templates], "mean ± std",
                         *(["unparseable"] if unparseable else [])], rows))
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
    """Accuracy against the number of demonstrations k: the mean over templates with its 95%
    Wilson interval (every template sees the same items, so that mean is the pooled accuracy
    of the cell's n pairs), the interval inside 0–100%, and n beside each point."""
    by_k = summary["by_k"]
    ks = [k for k in sorted(by_k, key=int) if by_k[k]["mean"] is not None and by_k[k]["n"]]
    xs = [int(k) for k in ks]
    ms = [100 * by_k[k]["mean"] for k in ks]
    cis = [wilson_interval(by_k[k]["mean"] * by_k[k]["n"], by_k[k]["n"]) for k in ks]
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.plot(xs, ms, marker="o", label="mean over templates")
    ax.fill_between(xs, [100 * lo for lo, _ in cis], [100 * hi for _, hi in cis], alpha=0.2,
                    label="95% Wilson interval")
    for x, m, k in zip(xs, ms, ks):
        ax.annotate(f"{m:.0f}%\nn={by_k[k]['n']}", (x, m), textcoords="offset points", xytext=(0, 6),
                    ha="center", fontsize=6.5)
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
    ax.legend(fontsize=7, loc="lower left")
    _save(fig, path)


# --- token confidence (AmP Fig. 4) ---------------------------------------------------

def _colour(p: float | None) -> str:
    if p is None:
        return "#eeeeee"
    p = min(max(p, 0.0), 1.0)
    r, g = int(255 * (1 - p)), int(200 * p + 55)
    return f"rgb({r},{g},90)"


def _display(token: str) -> str:
    """A byte-level BPE token as text (GPT-2 style: Ġ is a space, Ċ a newline)."""
    return token.replace("Ġ", " ").replace("Ċ", "⏎")


def _token_row(label: str, tokens: Sequence[Mapping], paraphrase: str | None = None) -> str:
    """One parse: its label, then its tokens as cells that wrap, each token over its p (to two
    decimals; three on hovering), then its controlled-English paraphrase when it has one."""
    cells = "".join(
        f'<span class="tok" style="background:{_colour(t.get("prob"))}" '
        f'title="p={"—" if t.get("prob") is None else format(t["prob"], ".3f")}">'
        f'<span class="t">{html.escape(_display(str(t.get("text", ""))))}</span>'
        f'<span class="p">{"—" if t.get("prob") is None else format(t["prob"], ".2f")}</span></span>'
        for t in tokens)
    said = f'<div class="para">{html.escape(paraphrase)}</div>' if paraphrase else ""
    return (f'<div class="row"><div class="label">{html.escape(label)}</div>'
            f'<div class="toks">{cells}</div>{said}</div>')


def _colour_legend(steps: int = 11) -> str:
    """The colour scale: swatches from p = 0 to p = 1, plus the grey of a missing p."""
    swatches = "".join(f'<span class="swatch" style="background:{_colour(i / (steps - 1))}">'
                       f'{i / (steps - 1):.1f}</span>' for i in range(steps))
    return (f'<div class="legend">token probability p: {swatches}'
            f'<span class="swatch" style="background:{_colour(None)}">no p</span></div>')


def token_confidence_html(items: Sequence[Mapping], path: str | Path, title: str,
                          fig4: Sequence[Mapping] | None = None) -> None:
    """One block per item: the surface, then each parse's tokens coloured by the model's
    probability of that token (red = unlikely, green = likely), with p printed under each
    token; rows wrap to the page width, and a legend shows the colour scale. A row with a
    ``paraphrase`` shows the parse's controlled-English reading under it (`client.eval.explained`).

    Each item: ``{"id", "surface", "rows": [{"label", "tokens": [{"text", "prob"}], "paraphrase"?}]}``.
    """
    blocks = []
    for it in items:
        rows = "".join(_token_row(r["label"], r["tokens"], r.get("paraphrase")) for r in it["rows"])
        blocks.append(f'<div class="item"><h3>{html.escape(str(it["id"]))}: '
                      f'{html.escape(str(it.get("surface", "")))}</h3>{rows}</div>')
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:70em;margin:auto;padding:0 1em}}
.toks{{display:flex;flex-wrap:wrap;gap:1px}} .tok{{display:inline-flex;flex-direction:column;
align-items:center;font-family:monospace;padding:1px 2px}} .t{{white-space:pre}}
.p{{font-size:0.7em;color:#222}} .label{{font-size:0.85em;margin:0.4em 0 0.1em;overflow-wrap:anywhere}}
.item{{margin-bottom:1.2em}} .legend{{position:sticky;top:0;background:#fff;padding:0.3em 0}}
.swatch{{display:inline-block;font-size:0.75em;padding:2px 5px;font-family:monospace}}
.para{{font-style:italic;font-size:0.9em;margin:0.1em 0 0.3em 1em}}</style></head><body>
<h1>{html.escape(title)}</h1><p>Token probabilities under forced decoding, printed under each token
and shown by colour (red = low, green = high). The lowest-probability token decides the min-prob
score; P(LF0) and P(LF1) are renormalised over the two LFs (they sum to 1). Under a parse, in
italics, its reading in controlled English (universals read as restricted).</p>
{_colour_legend()}
{fig4_section_html(fig4) if fig4 is not None else ''}
{''.join(blocks)}</body></html>"""
    write_text(path, page)


# --- implicature: the generate protocol's settings and the breakdown by type ---------

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
    rows = []
    for t in IMPLICATURE_TYPES:
        cells = []
        for k in ks:
            b = by[t]["by_k"].get(k)
            cells.append("n/a" if not b or b["mean"] is None
                         else f"{100 * b['mean']:.1f} ± {100 * b['std']:.1f} (n={b['n']})")
        rows.append([t, by[t]["examples"], *cells])
    return ("\n## Accuracy (%) by implicature type, mean ± std over templates (n = pairs)\n\n"
            + md_table(["type", "examples", *[f"k={k}" for k in ks]], rows)
            + f"\nTypes: {summary.get('type_rule', '')}\n")


def plot_implicature_by_type(summary: Mapping, path: str | Path) -> None:
    """Accuracy per implicature type at each k: grouped bars (mean over templates), each
    labelled with its value and n pairs, with the human and random reference lines."""
    by = summary["by_type"]
    ks = sorted({k for t in by.values() for k in t["by_k"]}, key=int)
    fig, ax = plt.subplots(figsize=(max(7.0, 1.4 * len(ks) + 3), 4.2))
    w = 0.8 / len(IMPLICATURE_TYPES)
    handles = []
    for i, (t, colour) in enumerate(zip(IMPLICATURE_TYPES, ("C0", "C1", "C4"))):  # C2: the human line
        xs = [j + (i - 1) * w for j in range(len(ks))]
        blocks = [by[t]["by_k"].get(k) or {"mean": None, "n": 0} for k in ks]
        handles.append(labelled_bars(ax, xs, [b["mean"] for b in blocks], [b["n"] for b in blocks], w,
                                     f"{t} ({by[t]['examples']} examples)", colour))
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
    _save(fig, path)


# --- AmP Fig. 4 as the paper draws it ------------------------------------------------

def fig4_section_html(items: Sequence[Mapping]) -> str:
    """The paper's Fig. 4: per ambiguity type, the first correctly predicted LF (beam search)
    with its alternative parse below it; then a heading for the per-item listing that follows.
    Items are those of :func:`token_confidence_html`; one without rows says why."""
    blocks = []
    for it in items:
        rows = "".join(_token_row(r["label"], r["tokens"], r.get("paraphrase")) for r in it["rows"])
        blocks.append(f'<div class="item fig4"><h3>{html.escape(str(it["id"]))}: '
                      f'{html.escape(str(it.get("surface", "")))}</h3>{rows}</div>')
    return ("<h2>Fig. 4: the first correctly predicted LF of each type, its alternative below</h2>"
            "<p>As in the paper: per type, the first item whose top beam-search prediction is LF0 or LF1, "
            "its tokens coloured by the decoder's probabilities; below it the other LF with its forced-decode "
            "probabilities.</p>" + "".join(blocks) + "<h2>Items in order (top prediction, LF0, LF1)</h2>")
