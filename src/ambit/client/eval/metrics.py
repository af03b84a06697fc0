"""Evaluation metrics as pure functions (GUIDE §5): accuracy, ZM_k, FDM, FIM, P/R/F1, mean ± std.

Inputs are plain Python values (lists, dicts of lists); nothing here knows about gRPC,
files or models, so each definition can be checked by hand on small cases.
Empty inputs give ``None`` (JSON ``null``) rather than a made-up number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


def accuracy(correct: Iterable[bool]) -> float | None:
    """Fraction of true values; None when there are none."""
    xs = [bool(c) for c in correct]
    return sum(xs) / len(xs) if xs else None


def first_rank(predictions: Sequence[str], gold: str) -> int | None:
    """0-based rank of the first prediction equal to ``gold``, or None if absent."""
    for i, p in enumerate(predictions):
        if p == gold:
            return i
    return None


def zm_k(ranks: Iterable[tuple[int | None, int | None]], k: int) -> float | None:
    """ZM_k: fraction of items with BOTH LF0 and LF1 in the top k.

    ``ranks`` holds, per item, the 0-based ranks of LF0 and LF1 in the k-best list
    (None when the LF is absent).
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    hits = [r0 is not None and r1 is not None and r0 < k and r1 < k for r0, r1 in ranks]
    return accuracy(hits)


def top1_fractions(labels: Iterable[int | None]) -> tuple[float, float]:
    """(p̂0, p̂1): fractions of top-1 predictions matching LF0 (label 0) and LF1 (label 1).

    Predictions matching neither are labelled None and count in the denominator only.
    """
    xs = list(labels)
    if not xs:
        raise ValueError("no predictions")
    return sum(x == 0 for x in xs) / len(xs), sum(x == 1 for x in xs) / len(xs)


def fdm(labels_by_ratio: Mapping[float, Iterable[int | None]]) -> float | None:
    """FDM = mean over r of |p̂0 − r| + |p̂1 − (1 − r)|, range 0–2 (0 is a perfect match).

    ``labels_by_ratio`` maps the few-shot ratio r (fraction of LF0 demos) to the labels
    of the top-1 predictions at that ratio (0, 1, or None for neither LF).
    """
    terms = []
    for r, labels in labels_by_ratio.items():
        xs = list(labels)
        if not xs:
            continue
        p0, p1 = top1_fractions(xs)
        terms.append(abs(p0 - r) + abs(p1 - (1 - r)))
    return sum(terms) / len(terms) if terms else None


def fim(p_lf0_by_ratio: Mapping[float, Iterable[float]]) -> float | None:
    """FIM = mean over r of mean over items (P(LF0) − r)², range 0–1 (0 is perfect)."""
    terms = []
    for r, ps in p_lf0_by_ratio.items():
        xs = [float(p) for p in ps]
        if xs:
            terms.append(sum((p - r) ** 2 for p in xs) / len(xs))
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
    if precision is None or recall is None:
        f1 = None
    else:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
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
        key = str(p) if p in classes else "none"
        row[key] += 1
    return out


# --- coverage of a recorded run (another system's outputs read from a file) -----------------

SHOWN_IDS = 5  # ids of unmatched lines listed in a coverage report


def id_shape(name: object) -> str:
    """What an id looks like with its numbers left out: each run of digits as ``N``
    (``pp/amp-zeroshot-pp-00000`` → ``pp/amp-zeroshot-pp-N``, ``test-000/t1/k0`` → ``test-N/tN/kN``)."""
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
    """How much of a run a recorded file covers: ``items`` the run's item ids, ``matched`` how many
    of them have a recorded output, ``unmatched`` the names of the file's lines that match no item
    (an id, or how the line names its item). ``other_names``: how else a line may name its item
    ("or by 'type' and 'utterance'"). Accuracy is added by :func:`coverage_accuracy`."""
    return {"items": len(items), "scored": matched, "missing": len(items) - matched,
            "unmatched_lines": len(unmatched), "unmatched_ids": [str(x) for x in unmatched[:SHOWN_IDS]],
            "expected_id_shapes": shapes(items), "expected_id_example": str(items[0]) if items else None,
            "found_id_shapes": shapes(unmatched), "other_names": other_names}


def coverage_accuracy(cov: dict, records: Sequence[Mapping], correct, means: str) -> dict:
    """``cov`` with the run's accuracy over the items scored (records whose ``recorded`` is not
    False) and over all items (an item without a recorded output is never right), side by side;
    ``correct(record) -> bool``, ``means`` says what it counts."""
    scored = [r for r in records if r.get("recorded", True) is not False]
    right = sum(bool(correct(r)) for r in scored)
    return {**cov, "accuracy_means": means,
            "accuracy_scored": right / len(scored) if scored else None,
            "accuracy_all": right / cov["items"] if cov["items"] else None}
