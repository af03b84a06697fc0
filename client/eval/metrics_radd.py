"""RADD metrics as pure functions, in the layout of the paper's Tables 3 and 4.

Predictions are readings ("de_dicto" | "de_re") or None ("neither": no usable answer).
As in the paper's `calc_metrics.py`: a chosen option equal to the label is the label's class,
any other chosen option is the other class, no choice is "neither"; precision, recall and F1
per class over gold de_dicto/de_re; the confusion table in percent of all instances.
"""

from __future__ import annotations

from collections.abc import Sequence

CLASSES = ("de_dicto", "de_re")
NEITHER = "neither"
COLUMNS = (*CLASSES, NEITHER)


def reading_of(choice: int | None, label_nr: int, label_name: str) -> str | None:
    """The reading an option number stands for in an instance (None for no choice)."""
    if choice is None:
        return None
    if int(choice) == int(label_nr):
        return label_name
    return CLASSES[1 - CLASSES.index(label_name)]


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
    if precision is None or recall is None:
        f1 = None
    else:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "support": n_gold}


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
    return {
        "n": len(gold),
        "accuracy": accuracy(gold, pred),
        "per_class": {c: precision_recall_f1(gold, pred, c) for c in CLASSES},
        "confusion": confusion_percent(gold, pred),
        "neither": sum(p is None for p in pred),
    }


def _check(gold: Sequence, pred: Sequence) -> None:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    bad = {g for g in gold if g not in CLASSES} | {p for p in pred if p is not None and p not in CLASSES}
    if bad:
        raise ValueError(f"unknown classes {sorted(bad)}")
