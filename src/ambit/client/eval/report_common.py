"""What every report shares (``client.eval.report`` re-exports it): number formats, Markdown
tables, atomic writes, and the figure conventions (Agg backend, saving, ordering, labelled bars,
Wilson intervals, offsets and markers). The suites' sections (``report_amp``,
``report_implicature``, ``report_tokens``) build on it."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ambit import _files  # noqa: E402

REPORT_MODE = 0o644  # reports are meant to be read and shared

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
    """Write JSON atomically (``_files.write_atomic``: a random temporary name, then rename)."""
    _files.write_atomic(path, json.dumps(obj, indent=2, sort_keys=False) + "\n", mode=REPORT_MODE)


def write_text(path: str | Path, text: str) -> None:
    """Write text atomically (``_files.write_atomic``)."""
    _files.write_atomic(path, text, mode=REPORT_MODE)


def _save(fig, path: str | Path) -> None:
    """Draw the figure into memory, then write it atomically (matplotlib would open the path itself,
    following a link there)."""
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=Path(path).suffix.lstrip(".") or "png", dpi=120)
    plt.close(fig)
    _files.write_atomic(path, buf.getvalue(), mode=REPORT_MODE)


def _ordered(keys) -> list[str]:
    return [t for t in TYPES if t in keys] + sorted(k for k in keys if k not in TYPES)


# --- figure conventions (docs/evaluation.md, "Figures"): every bar says its value and n, a 0 bar is drawn
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
