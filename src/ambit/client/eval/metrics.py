"""Evaluation metrics as pure functions of plain values (GUIDE §5): accuracy, ZM_k, FDM, FIM,
P/R/F1, mean ± std. Empty inputs give ``None`` (JSON ``null``) rather than a made-up number."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


def accuracy(correct: Iterable[bool]) -> float | None:
    """Fraction of true values; None when there are none."""
    xs = [bool(c) for c in correct]
    return sum(xs) / len(xs) if xs else None


def first_rank(predictions: Sequence[str], gold: str) -> int | None:
    """0-based rank of the first prediction equal to ``gold``, or None if absent."""
    return next((i for i, p in enumerate(predictions) if p == gold), None)


def zm_k(ranks: Iterable[tuple[int | None, int | None]], k: int) -> float | None:
    """ZM_k: fraction of items with BOTH LF0 and LF1 in the top k (``ranks``: 0-based or None)."""
    if k < 1:
        raise ValueError("k must be >= 1")
    hits = [r0 is not None and r1 is not None and r0 < k and r1 < k for r0, r1 in ranks]
    return accuracy(hits)


def top1_fractions(labels: Iterable[int | None]) -> tuple[float, float]:
    """(p̂0, p̂1): fractions of top-1 predictions labelled 0 (LF0) and 1 (LF1) (None: neither)."""
    xs = list(labels)
    if not xs:
        raise ValueError("no predictions")
    return sum(x == 0 for x in xs) / len(xs), sum(x == 1 for x in xs) / len(xs)


def fdm(labels_by_ratio: Mapping[float, Iterable[int | None]]) -> float | None:
    """FDM = mean over r (share of LF0 demos) of |p̂0 − r| + |p̂1 − (1 − r)|, 0 (perfect) to 2."""
    fractions = [(r, top1_fractions(xs)) for r, labels in labels_by_ratio.items()
                 if (xs := list(labels))]
    terms = [abs(p0 - r) + abs(p1 - (1 - r)) for r, (p0, p1) in fractions]
    return sum(terms) / len(terms) if terms else None


def fim(p_lf0_by_ratio: Mapping[float, Iterable[float]]) -> float | None:
    """FIM = mean over r of mean over items (P(LF0) − r)², range 0–1 (0 is perfect)."""
    terms = [sum((p - r) ** 2 for p in xs) / len(xs)
             for r, ps in p_lf0_by_ratio.items() if (xs := [float(p) for p in ps])]
    return sum(terms) / len(terms) if terms else None


def renormalised_p0(score0: float, score1: float) -> float | None:
    """P(LF0) from the two candidates' scores (min token probabilities): s0 / (s0 + s1)."""
    total = score0 + score1
    return score0 / total if total > 0 else None


def precision_recall_f1(gold: Sequence, predicted: Sequence, positive) -> dict[str, float | None]:
    """Precision, recall and F1 of class ``positive``; None where the denominator is 0."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted differ in length")
    tp = sum(g == positive and p == positive for g, p in zip(gold, predicted))
    fp = sum(g != positive and p == positive for g, p in zip(gold, predicted))
    fn = sum(g == positive and p != positive for g, p in zip(gold, predicted))
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (None if precision is None or recall is None
          else 2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return {"precision": precision, "recall": recall, "f1": f1,
            "support": sum(g == positive for g in gold)}


def mean_std(values: Iterable[float | None]) -> tuple[float | None, float | None]:
    """Mean and population standard deviation (ddof=0, as numpy's default) of the non-None values."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def confusion(gold: Sequence, predicted: Sequence, classes: Sequence) -> dict[str, dict[str, int]]:
    """Confusion counts ``{gold: {predicted: n}}``, with predictions outside ``classes`` under "none"."""
    out = {str(g): {**{str(c): 0 for c in classes}, "none": 0} for g in classes}
    for g, p in zip(gold, predicted):
        row = out.setdefault(str(g), {**{str(c): 0 for c in classes}, "none": 0})
        row[str(p) if p in classes else "none"] += 1
    return out


SHOWN_IDS = 5  # ids of unmatched lines listed in a coverage report


def id_shape(name: object) -> str:
    """An id with each run of digits as ``N`` (``test-000/t1/k0`` → ``test-N/tN/kN``)."""
    import re

    return re.sub(r"\d+", "N", str(name))


def shapes(names: Iterable[object], limit: int = 3) -> list[str]:
    """The distinct id shapes of ``names``, in order of first appearance, at most ``limit``."""
    out: list[str] = []
    for n in names:
        s = id_shape(n)
        if s not in out:
            out.append(s)
            if len(out) >= limit:
                break
    return out


def coverage(items: Sequence[object], matched: int, unmatched: Sequence[object],
             other_names: str = "") -> dict:
    """How much of a run (``items``: its ids) a recorded file covers."""
    return {"items": len(items), "scored": matched, "missing": len(items) - matched,
            "unmatched_lines": len(unmatched), "unmatched_ids": [str(x) for x in unmatched[:SHOWN_IDS]],
            "expected_id_shapes": shapes(items), "expected_id_example": str(items[0]) if items else None,
            "found_id_shapes": shapes(unmatched), "other_names": other_names}


def coverage_accuracy(cov: dict, records: Sequence[Mapping], correct, means: str) -> dict:
    """``cov`` with the accuracy over the items scored and over all items (missing ones wrong)."""
    scored = [r for r in records if r.get("recorded", True) is not False]
    right = sum(bool(correct(r)) for r in scored)
    return {**cov, "accuracy_means": means,
            "accuracy_scored": right / len(scored) if scored else None,
            "accuracy_all": right / cov["items"] if cov["items"] else None}
