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

TYPES = ("pp", "scope", "revscope", "bound", "conj")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as a percentage, or an em dash for None."""
    return "—" if x is None else f"{100 * x:.{digits}f}"


def num(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


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


# --- AmP zero-shot -------------------------------------------------------------------

def zeroshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP zero-shot — {summary.get('model', '?')}\n"]
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
    """Fig. 2: LF0 and LF1 exact-match accuracy per ambiguity type."""
    by = summary["by_type"]
    types = _ordered(by)
    xs = range(len(types))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    w = 0.38
    ax.bar([x - w / 2 for x in xs], [100 * (by[t]["acc_lf0"] or 0) for t in types], w, label="LF0")
    ax.bar([x + w / 2 for x in xs], [100 * (by[t]["acc_lf1"] or 0) for t in types], w, label="LF1")
    ax.set_xticks(list(xs), types)
    ax.set_ylabel("exact-match accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Zero-shot accuracy — {summary.get('model', '')}", fontsize=9)
    ax.legend()
    _save(fig, path)


def plot_p_lf0_distribution(p_by_type: Mapping[str, Sequence[float]], path: str | Path,
                            title: str = "") -> None:
    """Fig. 3: distribution of the renormalised P(LF0) per ambiguity type."""
    types = _ordered(p_by_type)
    fig, axes = plt.subplots(1, max(1, len(types)), figsize=(2.2 * max(1, len(types)), 2.8),
                             sharey=True, squeeze=False)
    for ax, t in zip(axes[0], types):
        ax.hist([p for p in p_by_type[t] if p is not None], bins=10, range=(0, 1), color="C0")
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("P(LF0)")
    axes[0][0].set_ylabel("items")
    if title:
        fig.suptitle(title, fontsize=9)
    _save(fig, path)


# --- AmP few-shot --------------------------------------------------------------------

def fewshot_markdown(summary: Mapping) -> str:
    by = summary["by_type"]
    types = _ordered(by)
    out = [f"# AmP few-shot — {summary.get('model', '?')}\n"]
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
    one line per type; beside it the mean forced-decode P(LF0) (what FIM measures)."""
    by = summary["by_type"]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9, 3.5), sharex=True)
    for t in _ordered(by):
        rs = sorted(by[t]["acc_lf0_by_ratio"], key=float)
        xs = [float(r) for r in rs]
        ax.plot(xs, [100 * (by[t]["acc_lf0_by_ratio"][r] or 0) for r in rs], marker="o", label=t)
        ps = by[t].get("p_lf0_mean_by_ratio", {})
        ax2.plot(xs, [ps.get(r) if ps.get(r) is not None else float("nan") for r in rs], marker="o", label=t)
    for a, top in ((ax, 100), (ax2, 1)):
        a.plot([0, 1], [0, top], ls="--", color="grey", lw=1, label="ideal")
        a.set_xlabel("ratio r of LF0 demonstrations")
        a.set_ylim(0, top)
    ax.set_ylabel("LF0 accuracy of top-1 (%)")
    ax2.set_ylabel("mean P(LF0), forced decode")
    ax.set_title(f"Few-shot — {summary.get('model', '')}", fontsize=9)
    ax.legend(fontsize=7)
    _save(fig, path)


# --- implicature ---------------------------------------------------------------------

def implicature_markdown(summary: Mapping) -> str:
    by_k = summary["by_k"]
    ks = sorted(by_k, key=int)
    templates = sorted({t for k in ks for t in by_k[k]["by_template"]}, key=int)
    out = [f"# Implicature — {summary.get('model', '?')}\n"]
    out.append("## Accuracy (%) per template and k; mean ± std over templates\n")
    rows = []
    for k in ks:
        row = [k, by_k[k]["n"], *[pct(by_k[k]["by_template"].get(t)) for t in templates]]
        m, s = by_k[k]["mean"], by_k[k]["std"]
        row.append("—" if m is None else f"{100 * m:.1f} ± {100 * s:.1f}")
        rows.append(row)
    out.append(md_table(["k", "n", *[f"T{t}" for t in templates], "mean ± std"], rows))
    return "\n".join(out)


def plot_implicature_vs_k(summary: Mapping, path: str | Path) -> None:
    """Accuracy against the number of demonstrations k: mean over templates ± std band."""
    by_k = summary["by_k"]
    ks = sorted(by_k, key=int)
    xs = [int(k) for k in ks]
    ms = [100 * (by_k[k]["mean"] or 0) for k in ks]
    ss = [100 * (by_k[k]["std"] or 0) for k in ks]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(xs, ms, marker="o", label="mean over templates")
    ax.fill_between(xs, [m - s for m, s in zip(ms, ss)], [m + s for m, s in zip(ms, ss)], alpha=0.2)
    ax.axhline(50, ls="--", color="grey", lw=1, label="chance")
    ax.set_xlabel("k (in-context examples)")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Implicature — {summary.get('model', '')}", fontsize=9)
    ax.legend(fontsize=7)
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


def _token_row(label: str, tokens: Sequence[Mapping]) -> str:
    spans = "".join(
        f'<span class="tok" style="background:{_colour(t.get("prob"))}" '
        f'title="p={t.get("prob", 0):.3f}">{html.escape(_display(str(t.get("text", ""))))}</span>'
        for t in tokens)
    return f"<tr><th>{html.escape(label)}</th><td>{spans}</td></tr>"


def token_confidence_html(items: Sequence[Mapping], path: str | Path, title: str) -> None:
    """One block per item: the surface, then each parse's tokens coloured by the model's
    probability of that token (red = unlikely, green = likely); mouse-over gives p.

    Each item: ``{"id", "surface", "rows": [{"label", "tokens": [{"text", "prob"}]}]}``.
    """
    blocks = []
    for it in items:
        rows = "".join(_token_row(r["label"], r["tokens"]) for r in it["rows"])
        blocks.append(f'<div class="item"><h3>{html.escape(str(it["id"]))}: '
                      f'{html.escape(str(it.get("surface", "")))}</h3><table>{rows}</table></div>')
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:70em;margin:auto}} .tok{{font-family:monospace;
white-space:pre;padding:1px 0;border-right:1px solid #fff}} th{{text-align:left;padding-right:1em;
vertical-align:top;white-space:nowrap}} .item{{margin-bottom:1.2em}}</style></head><body>
<h1>{html.escape(title)}</h1><p>Token probabilities under forced decoding: red = low, green = high.
The lowest-probability token decides the min-prob score (P(LF0) is renormalised over LF0/LF1).</p>
{''.join(blocks)}</body></html>"""
    write_text(path, page)
