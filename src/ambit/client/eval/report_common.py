"""What every report shares (``client.eval.report`` re-exports it): number formats, Markdown
tables, atomic writes, and the figure conventions (Agg backend, labelled bars, Wilson intervals)."""

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
    """A number to ``digits`` decimals, or "n/a" for None."""
    return "n/a" if x is None else f"{x:.{digits}f}"


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table."""
    head = "| " + " | ".join(headers) + " |"
    sep = "|" + "|".join("---" for _ in headers) + "|"
    body = ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join([head, sep, *body]) + "\n"


def write_json(path: str | Path, obj: Any) -> None:
    """Write JSON atomically (``_files.write_atomic``)."""
    _files.write_atomic(path, json.dumps(obj, indent=2, sort_keys=False) + "\n", mode=REPORT_MODE)


def write_text(path: str | Path, text: str) -> None:
    """Write text atomically (``_files.write_atomic``)."""
    _files.write_atomic(path, text, mode=REPORT_MODE)


def _save(fig, path: str | Path) -> None:
    """Write the figure atomically, drawn into memory first (matplotlib would follow a link at the
    path), after `unclash_bar_labels`."""
    fig.tight_layout()
    unclash_bar_labels(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format=Path(path).suffix.lstrip(".") or "png", dpi=120)
    plt.close(fig)
    _files.write_atomic(path, buf.getvalue(), mode=REPORT_MODE)


def _ordered(keys) -> list[str]:
    return [t for t in TYPES if t in keys] + sorted(k for k in keys if k not in TYPES)


# figure conventions: docs/evaluation.md, "Figures"

MIN_HISTOGRAM_ITEMS = 20  # below this a histogram's bars are noise: draw every item instead
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: stays inside [0, 1] and is honest at small n."""
    if n <= 0:
        raise ValueError(f"wilson_interval: n must be positive, not {n}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def labelled_bars(ax, xs: Sequence[float], fractions: Sequence[float | None], ns: Sequence[int],
                  width: float, label: str, color: str) -> Patch:
    """Bars of percentages labelled "value% / n=N"; a 0 bar is a thick line at 0 (not an empty
    axis), a missing cell (None, or n = 0) reads "no data". Returns the series' legend handle."""
    for x, f, n in zip(xs, fractions, ns):
        if f is None or not n:
            ax.text(x, 2, "no data", ha="center", va="bottom", rotation=90, fontsize=7, color="grey")
            continue
        ax.bar(x, 100 * f, width, color=color)
        if f == 0:
            ax.hlines(0, x - width / 2, x + width / 2, colors=color, lw=4, clip_on=False)
        ax.text(x, 100 * f + 1.5, f"{100 * f:.0f}%\nn={n}", ha="center", va="bottom", fontsize=6.5, gid=BAR_LABEL)
    return Patch(color=color, label=label)


BAR_LABEL = "bar-label"  # the gid of a bar's value label (labelled_bars), which unclash_bar_labels may turn


def _overlap(boxes: Sequence) -> bool:
    """Whether any two of the boxes (display coordinates) overlap."""
    boxes = sorted(boxes, key=lambda b: b.x0)
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:i + 4])


def unclash_bar_labels(fig) -> None:
    """Where bar labels would overlap, turn each upright on one line, smaller until they fit."""
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        labels = [t for t in ax.texts if t.get_gid() == BAR_LABEL]
        if len(labels) < 2 or not _overlap([t.get_window_extent(renderer) for t in labels]):
            continue
        for t in labels:
            t.set(text=t.get_text().replace("\n", " "), rotation=90, rotation_mode="anchor",
                  ha="left", va="center")
        size = labels[0].get_fontsize()
        while size > 4 and _overlap([t.get_window_extent(renderer) for t in labels]):
            size -= 0.5
            for t in labels:
                t.set_fontsize(size)


def place_point_labels(ax, points: Sequence[tuple[float, float, str]], fontsize: float = 6.5, **style: Any) -> list:
    """Label each point (x, y, text) where it overlaps no earlier label inside the axes."""
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    offsets = [(sx * r, sy * r, ha, va) for r in (6, 16, 28)
               for sx, sy, ha, va in ((0, 1, "center", "bottom"), (0, -1, "center", "top"), (1, 0, "left", "center"),
                                      (-1, 0, "right", "center"), (1, -1, "left", "top"), (-1, -1, "right", "top"),
                                      (1, 1, "left", "bottom"), (-1, 1, "right", "bottom"))]
    placed, boxes = [], [t.get_window_extent(renderer) for t in ax.texts if t.get_visible() and t.get_text()]
    for x, y, text in points:
        for dx, dy, ha, va in offsets:
            label = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy), ha=ha, va=va,
                                fontsize=fontsize, **style)
            box = label.get_window_extent(renderer)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
            if inside and not any(box.overlaps(b) for b in boxes):
                break
            label.remove()
        else:  # nowhere free: the first place, above the point
            label = ax.annotate(text, (x, y), textcoords="offset points", xytext=offsets[0][:2], ha="center",
                                va="bottom", fontsize=fontsize, **style)
        boxes.append(label.get_window_extent(renderer))
        placed.append(label)
    return placed


def _offsets(count: int, step: float) -> list[float]:
    """Small symmetric horizontal offsets that keep ``count`` overlapping series apart."""
    return [step * (i - (count - 1) / 2) for i in range(count)]


MARKERS = ("o", "s", "^", "D", "v", "P", "X")


# coverage of a recorded run (metrics.coverage)


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def expected_ids(cov: dict) -> str:
    """How the run's items are named: their id shapes (digits as N), an example, other names."""
    shapes = cov.get("expected_id_shapes") or []
    if not shapes:  # items the file does not name (RADD's benchmark rows hold their own replies)
        return ""
    text = f"ids shaped like {_quoted(shapes)}" + (", …" if len(shapes) >= 3 else "")
    if cov.get("expected_id_example"):
        text += f" (e.g. '{cov['expected_id_example']}')"
    return text + (f", {cov['other_names']}" if cov.get("other_names") else "")


def unmatched_text(cov: dict) -> str:
    """The file's lines that name no item of the run, with the first few ids and their shapes."""
    n = cov["unmatched_lines"]
    if not n:
        return ""
    more = ", …" if n > len(cov["unmatched_ids"]) else ""
    return (f"{_count(n, 'line')} of the file {'names' if n == 1 else 'name'} no item of this run "
            f"({_quoted(cov['unmatched_ids'])}{more}; shaped like {_quoted(cov['found_id_shapes'])})")


def coverage_line(desc: str, cov: dict, what: str = "recorded outputs") -> str:
    """The coverage in one line for the terminal."""
    full = cov["missing"] == 0
    ids = expected_ids(cov)
    parts = [f"{desc}: {what} cover {cov['scored']:,} of {_count(cov['items'], 'item')}"
             + ("" if full else f" ({cov['missing']:,} without a recorded output, counted as wrong"
                                + (f"; the run's items have {ids})" if ids else ")"))]
    if cov["unmatched_lines"]:
        parts.append(unmatched_text(cov))
    if cov.get("accuracy_means"):
        parts.append(f"accuracy ({cov['accuracy_means']}) {pct(cov.get('accuracy_scored'))}% over the "
                     f"{cov['scored']:,} scored, {pct(cov.get('accuracy_all'))}% over all {cov['items']:,}")
    return "; ".join(parts)


def nothing_matched(cov: dict) -> str:
    """The error of a recorded file that matches no item: the id shapes expected and found."""
    found = (f"the file's lines name items shaped like {_quoted(cov['found_id_shapes'])} "
             f"(e.g. '{cov['unmatched_ids'][0]}')" if cov["unmatched_ids"] else "the file holds no item")
    return (f"{cov.get('option', cov.get('what'))} {cov.get('file')}: none of its lines matches an item of this run "
            f"({_count(cov['items'], 'item')}): the run expects {expected_ids(cov)}; {found}. "
            "Nothing was scored")


def coverage_markdown(cov: dict, what: str = "recorded outputs") -> str:
    """The coverage section of summary.md."""
    rows = [[cov["items"], cov["scored"], cov["missing"], cov["unmatched_lines"],
             pct(cov.get("accuracy_scored")), pct(cov.get("accuracy_all"))]]
    out = [f"## Coverage of the {what}\n",
           md_table(["items", "scored", "without a recorded output", "lines matching no item",
                     "accuracy over scored (%)", "accuracy over all items (%)"], rows)]
    notes = []
    if cov.get("accuracy_means"):
        notes.append(f"Accuracy here: {cov['accuracy_means']}; an item without a recorded output is never right, "
                     "and is counted apart (never as an output that does not parse).")
    if cov["missing"]:
        ids = expected_ids(cov)
        notes.append(f"**Partial coverage**: {cov['missing']:,} of {_count(cov['items'], 'item')} "
                     "have no recorded output" + (f"; the run's items have {ids}." if ids else "."))
    if cov["unmatched_lines"]:
        notes.append(unmatched_text(cov)[0].upper() + unmatched_text(cov)[1:] + ".")
    return "\n".join(out) + ("\n" + "\n\n".join(notes) + "\n" if notes else "")
