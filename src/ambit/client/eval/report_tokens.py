"""The token-confidence page of the report (``client.eval.report``; AmP Fig. 4): each item's
parses, every token coloured by and printed over the model's probability of it."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from ambit.client.eval.report_common import write_text


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
    """One parse: its label, its tokens each over its p, and its paraphrase when it has one."""
    cells = "".join(
        f'<span class="tok" style="background:{_colour(t.get("prob"))}" '
        f'title="p={"—" if t.get("prob") is None else format(t["prob"], ".3f")}">'
        f'<span class="t">{html.escape(_display(str(t.get("text", ""))))}</span>'
        f'<span class="p">{"—" if t.get("prob") is None else format(t["prob"], ".2f")}</span></span>'
        for t in tokens)
    said = f'<div class="para">{html.escape(paraphrase)}</div>' if paraphrase else ""
    return (f'<div class="row"><div class="label">{html.escape(label)}</div>'
            f'<div class="toks">{cells}</div>{said}</div>')


def _items_html(items: Sequence[Mapping], cls: str) -> list[str]:
    """One block per item: its id and surface, then its rows."""
    return [f'<div class="{cls}"><h3>{html.escape(str(it["id"]))}: '
            f'{html.escape(str(it.get("surface", "")))}</h3>'
            + "".join(_token_row(r["label"], r["tokens"], r.get("paraphrase")) for r in it["rows"])
            + "</div>" for it in items]


def _colour_legend(steps: int = 11) -> str:
    """The colour scale: swatches from p = 0 to p = 1, plus the grey of a missing p."""
    swatches = "".join(f'<span class="swatch" style="background:{_colour(i / (steps - 1))}">'
                       f'{i / (steps - 1):.1f}</span>' for i in range(steps))
    return (f'<div class="legend">token probability p: {swatches}'
            f'<span class="swatch" style="background:{_colour(None)}">no p</span></div>')


def token_confidence_html(items: Sequence[Mapping], path: str | Path, title: str,
                          fig4: Sequence[Mapping] | None = None) -> None:
    """One block per item, each parse's tokens coloured by probability (red = unlikely, green =
    likely). Each item: ``{"id", "surface", "rows": [{"label", "tokens": [{"text", "prob"}],
    "paraphrase"?}]}`` (the paraphrase from `client.eval.explained`)."""
    blocks = _items_html(items, "item")
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


def fig4_section_html(items: Sequence[Mapping]) -> str:
    """The paper's Fig. 4: per type, the first correctly predicted LF over its alternative."""
    blocks = _items_html(items, "item fig4")
    return ("<h2>Fig. 4: the first correctly predicted LF of each type, its alternative below</h2>"
            "<p>As in the paper: per type, the first item whose top beam-search prediction is LF0 or LF1, "
            "its tokens coloured by the decoder's probabilities; below it the other LF with its forced-decode "
            "probabilities.</p>" + "".join(blocks) + "<h2>Items in order (top prediction, LF0, LF1)</h2>")
