"""RADD metrics as pure functions, in the layout of the paper's Tables 3 and 4 (as its
`calc_metrics.py`: a chosen option other than the label is the other class). Predictions are
readings, "both_consistent" (the premises leave both open) or None ("neither": no usable answer).
``per_class`` pools all instances; ``per_class_macro``, the paper's Table 3, averages over pairs."""

from __future__ import annotations

from collections.abc import Sequence

CLASSES = ("de_dicto", "de_re")
BOTH = "both_consistent"
NEITHER = "neither"
COLUMNS = (*CLASSES, BOTH, NEITHER)


def reading_of(choice: int | None, label_nr: int, label_name: str) -> str | None:
    """The reading an option number stands for in an instance (None for no choice)."""
    if choice is None:
        return None
    return label_name if int(choice) == int(label_nr) else CLASSES[1 - CLASSES.index(label_name)]


def accuracy(gold: Sequence[str], pred: Sequence[str | None]) -> float | None:
    _check(gold, pred)
    return sum(g == p for g, p in zip(gold, pred)) / len(gold) if gold else None


def precision_recall_f1(gold: Sequence[str], pred: Sequence[str | None], cls: str) -> dict[str, float | int | None]:
    """Precision, recall, F1 of one class; None where a denominator is zero (sklearn gives 0)."""
    _check(gold, pred)
    tp = sum(g == cls and p == cls for g, p in zip(gold, pred))
    n_pred = sum(p == cls for p in pred)
    n_gold = sum(g == cls for g in gold)
    precision = tp / n_pred if n_pred else None
    recall = tp / n_gold if n_gold else None
    f1 = (None if precision is None or recall is None
          else 2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return {"precision": precision, "recall": recall, "f1": f1, "support": n_gold}


FIGURES = ("precision", "recall", "f1")


def per_class_macro(gold: Sequence[str], pred: Sequence[str | None],
                    groups: Sequence[str]) -> dict[str, dict]:
    """Per class, the mean over groups (property pairs) of each group's P/R/F1; an undefined figure
    counts as 0, as in the paper (sklearn's ``zero_division``), and is counted in ``undefined``."""
    _check(gold, pred)
    if len(groups) != len(gold):
        raise ValueError(f"{len(gold)} gold labels but {len(groups)} property pairs")
    names = sorted(set(groups))
    per_group = {g: ([x for x, k in zip(gold, groups) if k == g], [p for p, k in zip(pred, groups) if k == g])
                 for g in names}
    out: dict[str, dict] = {}
    for cls in CLASSES:
        figs = [precision_recall_f1(*per_group[g], cls) for g in names]
        out[cls] = {f: (sum(d[f] or 0.0 for d in figs) / len(figs) if figs else None) for f in FIGURES}
        out[cls]["pairs"] = len(figs)
        out[cls]["undefined"] = {f: sum(d[f] is None for d in figs) for f in FIGURES}
    return out


def confusion_percent(gold: Sequence[str], pred: Sequence[str | None]) -> dict[str, dict[str, float]]:
    """{gold class: {predicted class or "neither": percent of ALL instances}} (Table 4)."""
    _check(gold, pred)
    n = len(gold)
    table = {g: {c: 0.0 for c in COLUMNS} for g in CLASSES}
    for g, p in zip(gold, pred):
        table[g][p or NEITHER] += 100.0 / n
    return table


def summarise(gold: Sequence[str], pred: Sequence[str | None]) -> dict:
    """Accuracy, per-class P/R/F1 and the confusion table of one set of predictions."""
    return {"n": len(gold), "accuracy": accuracy(gold, pred),
            "per_class": {c: precision_recall_f1(gold, pred, c) for c in CLASSES},
            "confusion": confusion_percent(gold, pred),
            "neither": sum(p is None for p in pred),
            "both_consistent": sum(p == BOTH for p in pred)}


def _check(gold: Sequence, pred: Sequence) -> None:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    if bad := {g for g in gold if g not in CLASSES} | set(pred) - {None, *CLASSES, BOTH}:
        raise ValueError(f"unknown classes {sorted(bad)}")
